package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/internal/version"
)

// The versions cannot drift: the contract, the bundle manifest and server.json all carry the
// release of internal/version, and the manifest lists exactly the tools in tools.json.
func TestManifestAndServerJSON(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if catalog.Version != version.Release {
		t.Errorf("catalog.Version %s, internal/version.Release %s", catalog.Version, version.Release)
	}
	tools, err := readTools(filepath.Join(root, "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var contract struct {
		Version  string `json:"version"`
		Commands []struct {
			MCPName string `json:"mcp_name"`
		} `json:"commands"`
	}
	data, _ := os.ReadFile(filepath.Join(root, "tools.json"))
	if err := json.Unmarshal(data, &contract); err != nil {
		t.Fatal(err)
	}
	if contract.Version != version.Release {
		t.Errorf("tools.json is version %s, the release %s: run make gen", contract.Version, version.Release)
	}
	ver := version.Release
	sums := map[string]string{}
	for _, target := range Targets {
		raw, err := Manifest(ver, target, tools)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			ManifestVersion string `json:"manifest_version"`
			Name, Version   string
			Description     string
			Author          struct{ Name string }
			Server          struct {
				Type       string `json:"type"`
				EntryPoint string `json:"entry_point"`
				MCPConfig  struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcp_config"`
			}
			Tools         []Tool
			Compatibility struct{ Platforms []string }
			UserConfig    map[string]struct{ Type string } `json:"user_config"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.ManifestVersion != ManifestVersion || m.Name != "cgt" || m.Version != ver || m.Description == "" || m.Author.Name == "" {
			t.Errorf("%s: manifest %+v", target, m)
		}
		if m.Server.Type != "binary" || m.Server.EntryPoint != "server/cgt-mcp"+target.exe() ||
			m.Server.MCPConfig.Command != "${__dirname}/"+m.Server.EntryPoint {
			t.Errorf("%s: server %+v", target, m.Server)
		}
		for _, a := range m.Server.MCPConfig.Args {
			if k, ok := strings.CutPrefix(a, "${user_config."); ok {
				if _, declared := m.UserConfig[strings.TrimSuffix(k, "}")]; !declared {
					t.Errorf("%s: argument %s names no user_config entry", target, a)
				}
			}
		}
		if len(m.Tools) != len(contract.Commands) {
			t.Errorf("%s: %d tools in the manifest, %d in tools.json", target, len(m.Tools), len(contract.Commands))
		}
		if len(m.Compatibility.Platforms) != 1 || m.Compatibility.Platforms[0] != mcpbPlatform(target.OS) {
			t.Errorf("%s: platforms %v", target, m.Compatibility.Platforms)
		}
		sums[BundleName(ver, target)] = strings.Repeat("ab", 32)
	}

	raw, err := ServerJSON(ver, sums)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Repository  struct{ URL, Source string }
		Packages    []struct {
			RegistryType string
			Identifier   string
			Version      string
			FileSha256   string
			Transport    struct{ Type string }
		}
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	// The registry's rules: one slash in a reverse-DNS name, a description of at most 100
	// characters, an exact version, and for an MCP bundle a release URL containing "mcp" and
	// the file's SHA-256.
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(s.Name) || !strings.HasPrefix(s.Name, "io.github.") {
		t.Errorf("name %q", s.Name)
	}
	if s.Schema != ServerSchema || len(s.Description) == 0 || len(s.Description) > 100 || s.Version != ver || s.Repository.Source != "github" {
		t.Errorf("server.json %+v", s)
	}
	if len(s.Packages) != len(Targets) {
		t.Fatalf("%d packages, want one per target", len(s.Packages))
	}
	for _, p := range s.Packages {
		if p.RegistryType != "mcpb" || !strings.Contains(p.Identifier, "mcp") || !strings.HasPrefix(p.Identifier, repository+"/releases/download/v"+ver+"/") ||
			p.Version != ver || !regexp.MustCompile(`^[a-f0-9]{64}$`).MatchString(p.FileSha256) || p.Transport.Type != "stdio" {
			t.Errorf("package %+v", p)
		}
	}
	if _, err := ServerJSON(ver, map[string]string{}); err == nil {
		t.Error("server.json without the bundles' checksums")
	}
}

// The same inputs give the same archive bytes, whatever the files' times on disk.
func TestArchivesAreReproducible(t *testing.T) {
	dir := t.TempDir()
	target := Target{"linux", "amd64"}
	for _, p := range Programs {
		os.WriteFile(filepath.Join(dir, p), []byte("program "+p), 0o755)
	}
	readme := filepath.Join(dir, "README.md")
	os.WriteFile(readme, []byte("# cgt\n"), 0o644)
	mtime := time.Unix(1764000000, 0).UTC()
	build := func(win bool) []byte {
		tg := target
		if win {
			tg = Target{"windows", "amd64"}
			for _, p := range Programs {
				os.WriteFile(filepath.Join(dir, p+".exe"), []byte("program "+p), 0o755)
			}
		}
		out := filepath.Join(t.TempDir(), ArchiveName("1.2.3", tg))
		if err := writeArchive(out, tg, "1.2.3", dir, []string{readme}, mtime); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return b
	}
	tgz := build(false)
	os.Chtimes(readme, time.Now(), time.Now())
	if !bytes.Equal(tgz, build(false)) {
		t.Error("two tar.gz archives of the same files differ")
	}
	zr, _ := gzip.NewReader(bytes.NewReader(tgz))
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(mtime) || h.Uid != 0 || h.Gid != 0 || (h.Typeflag == tar.TypeReg && strings.HasPrefix(filepath.Base(h.Name), "cgt") && h.Mode != 0o755) {
			t.Errorf("%s: mtime %v uid %d mode %o", h.Name, h.ModTime, h.Uid, h.Mode)
		}
		names = append(names, h.Name)
	}
	want := "cgt_1.2.3_linux_amd64/ cgt_1.2.3_linux_amd64/README.md cgt_1.2.3_linux_amd64/cgt cgt_1.2.3_linux_amd64/cgt-gen cgt_1.2.3_linux_amd64/cgt-mcp cgt_1.2.3_linux_amd64/cgt-serve cgt_1.2.3_linux_amd64/tool-cli"
	if strings.Join(names, " ") != want {
		t.Errorf("entries %v", names)
	}

	zipped := build(true)
	if !bytes.Equal(zipped, build(true)) {
		t.Error("two zip archives of the same files differ")
	}
	zr2, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr2.File) != len(Programs)+1 || zr2.File[1].Name != "cgt_1.2.3_windows_amd64/cgt-gen.exe" {
		t.Errorf("zip entries: %d, second %s", len(zr2.File), zr2.File[1].Name)
	}
}

func TestChecksumsFile(t *testing.T) {
	got := string(checksums(map[string]string{"b.zip": "22", "a.tar.gz": "11"}))
	if got != "11  a.tar.gz\n22  b.zip\n" {
		t.Errorf("%q", got)
	}
}
