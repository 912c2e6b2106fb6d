package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Target is one operating system and architecture a release is built for.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// exe is the suffix of a program's file name on the target.
func (t Target) exe() string {
	if t.OS == "windows" {
		return ".exe"
	}
	return ""
}

// Targets are the platforms every release is built for.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Programs are the programs an archive holds: cgt, the siblings its built-ins hand over to and
// cgt-fetch (the network of fx.update), found next to it,
// as `make build` writes them to bin/. The generator (cgt-gen) is not one:
// it rewrites cgt's own source tree and works only in a checkout.
var Programs = []string{"cgt", "cgt-mcp", "cgt-serve", "tool-cli", "cgt-fetch"}

// versionVar is the variable -ldflags -X stamps with the release version.
const versionVar = "github.com/cgt-tools/cgt/internal/version.stamped"

// ArchiveName is the file name of a target's archive: cgt_0.1.0_linux_amd64.tar.gz.
func ArchiveName(ver string, t Target) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return "cgt_" + ver + "_" + t.OS + "_" + t.Arch + ext
}

// BundleName is the file name of a target's MCP bundle: cgt-mcp_0.1.0_linux_amd64.mcpb.
func BundleName(ver string, t Target) string {
	return "cgt-mcp_" + ver + "_" + t.OS + "_" + t.Arch + ".mcpb"
}

// BuildCommand is the go build that writes every program for t into dir.
func BuildCommand(root string, t Target, ver, dir string) *exec.Cmd {
	args := []string{"build", "-trimpath", "-buildvcs=false",
		"-ldflags", "-s -w -X " + versionVar + "=" + ver, "-o", dir + string(filepath.Separator)}
	for _, p := range Programs {
		args = append(args, "./cmd/"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch, "GOFLAGS=")
	return cmd
}

// Build builds every program for t into dir.
func Build(root string, t Target, ver, dir string) error {
	cmd := BuildCommand(root, t, ver, dir)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %v\n%s", t, err, stderr.String())
	}
	return nil
}

// entry is one file of an archive.
type entry struct {
	name string // inside the archive, slash-separated
	path string // on disk
	mode os.FileMode
}

// archiveEntries are a target's programs and the documents, under one top directory.
func archiveEntries(top string, t Target, dir string, docs []doc) []entry {
	var es []entry
	for _, p := range Programs {
		es = append(es, entry{top + "/" + p + t.exe(), filepath.Join(dir, p+t.exe()), 0o755})
	}
	for _, d := range docs {
		es = append(es, entry{top + "/" + d.name, d.path, 0o644})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	return es
}

func writeArchive(path string, t Target, ver, dir string, docs []doc, mtime time.Time) error {
	top := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(ArchiveName(ver, t)), ".zip"), ".tar.gz")
	es := archiveEntries(top, t, dir, docs)
	if t.OS == "windows" {
		return writeZip(path, es, nil, mtime)
	}
	return writeTarGz(path, top, es, mtime)
}

// writeBundle writes the .mcpb: manifest.json, server/cgt-mcp and the documents.
func writeBundle(path string, t Target, dir string, manifest []byte, docs []doc, mtime time.Time) error {
	es := []entry{{"server/cgt-mcp" + t.exe(), filepath.Join(dir, "cgt-mcp"+t.exe()), 0o755}}
	for _, d := range docs {
		es = append(es, entry{d.name, d.path, 0o644})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	return writeZip(path, es, map[string][]byte{"manifest.json": manifest}, mtime)
}

// writeTarGz writes a gzip-compressed tar: the top directory, then the entries, all owned by
// root and dated mtime; the gzip header carries no name or time.
func writeTarGz(path, top string, es []entry, mtime time.Time) error {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	hdr := func(name string, mode int64, size int64, typ byte) *tar.Header {
		return &tar.Header{Name: name, Mode: mode, Size: size, Typeflag: typ, ModTime: mtime, Format: tar.FormatUSTAR}
	}
	if err := tw.WriteHeader(hdr(top+"/", 0o755, 0, tar.TypeDir)); err != nil {
		return err
	}
	dirs := map[string]bool{top + "/": true}
	for _, e := range es {
		// A folder's entry comes before its first file (examples/), as tar itself writes them.
		if d := e.name[:strings.LastIndex(e.name, "/")+1]; !dirs[d] {
			dirs[d] = true
			if err := tw.WriteHeader(hdr(d, 0o755, 0, tar.TypeDir)); err != nil {
				return err
			}
		}
		data, err := os.ReadFile(e.path)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(hdr(e.name, int64(e.mode), int64(len(data)), tar.TypeReg)); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeZip writes a zip of the generated files (first, by name) and the entries, dated mtime.
func writeZip(path string, es []entry, generated map[string][]byte, mtime time.Time) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, mode os.FileMode, r io.Reader) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	}
	names := make([]string, 0, len(generated))
	for n := range generated {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := add(n, 0o644, bytes.NewReader(generated[n])); err != nil {
			return err
		}
	}
	for _, e := range es {
		f, err := os.Open(e.path)
		if err != nil {
			return err
		}
		err = add(e.name, e.mode, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// sourceDate is the time archive entries carry: SOURCE_DATE_EPOCH, else the last commit's
// time, else 1 January 1980 (the earliest a zip can hold).
func sourceDate(root string) time.Time {
	floor := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	epoch := strings.TrimSpace(os.Getenv("SOURCE_DATE_EPOCH"))
	if epoch == "" {
		cmd := exec.Command("git", "log", "-1", "--format=%ct")
		cmd.Dir = root
		if out, err := cmd.Output(); err == nil {
			epoch = strings.TrimSpace(string(out))
		}
	}
	if n, err := strconv.ParseInt(epoch, 10, 64); err == nil && n > floor.Unix() {
		return time.Unix(n, 0).UTC()
	}
	return floor
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// checksums is SHA256SUMS as sha256sum writes it (`sha256sum -c SHA256SUMS` checks it).
func checksums(sums map[string]string) []byte {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return b.Bytes()
}

// modulePath is the module cgt-release builds.
const modulePath = "github.com/cgt-tools/cgt"

// moduleRoot is the directory of cgt's go.mod, from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+modulePath+"\n")) {
				return dir, nil
			}
			return "", fmt.Errorf("%s is not the go.mod of %s: run cgt-release from cgt's source tree", filepath.Join(dir, "go.mod"), modulePath)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory: run cgt-release from cgt's source tree")
		}
		dir = parent
	}
}
