// Command release builds cgt's release files (`make release`): for Linux, macOS and Windows on
// amd64 and arm64, an archive with every program (tar.gz; zip for Windows) and an MCP bundle
// (.mcpb) holding cgt-mcp; the registry's server.json naming the bundles; and SHA256SUMS.
//
//	go run ./cmd/cgt-release [-version 0.1.0] [-out dist]
//
// Builds are plain `go build` with CGO_ENABLED=0, -trimpath and the version stamped with
// -ldflags -X; archive entries are sorted, owned by root and dated at SOURCE_DATE_EPOCH (or
// the last commit), so the same commit and Go version give the same bytes.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/internal/version"
)

func main() {
	ver := flag.String("version", version.Release, "the version to stamp and to name the files with")
	out := flag.String("out", "dist", "the directory to write the release files to: a new or empty one, or one holding only an earlier release (emptied first); never the source tree or a folder containing it")
	only := flag.String("targets", "", "build only these targets, e.g. linux/amd64,darwin/arm64 (server.json needs all)")
	flag.Parse()
	if *only != "" {
		var picked []Target
		for _, name := range strings.Split(*only, ",") {
			found := false
			for _, t := range Targets {
				if t.String() == strings.TrimSpace(name) {
					picked, found = append(picked, t), true
				}
			}
			if !found {
				fmt.Fprintf(os.Stderr, "release: unknown target %q (the targets: %v)\n", name, Targets)
				os.Exit(2)
			}
		}
		Targets = picked
	}
	if err := run(*ver, *out); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

// allTargets are the targets of a full release, whatever -targets picks.
var allTargets = append([]Target(nil), Targets...)

func run(ver, out string) error {
	start := time.Now()
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tools, err := readTools(filepath.Join(root, "tools.json"))
	if err != nil {
		return err
	}
	if err := prepareOutput(root, out); err != nil {
		return err
	}
	stage, err := os.MkdirTemp("", "cgt-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	mtime := sourceDate(root)

	var files []string
	bundles := map[Target]string{}
	for _, t := range Targets {
		dir := filepath.Join(stage, t.String())
		if err := Build(root, t, ver, dir); err != nil {
			return err
		}
		docs, err := releaseDocs(root, t, dir)
		if err != nil {
			return err
		}
		archive := filepath.Join(out, ArchiveName(ver, t))
		if err := writeArchive(archive, t, ver, dir, docs, mtime); err != nil {
			return err
		}
		manifest, err := Manifest(ver, t, tools)
		if err != nil {
			return err
		}
		bundle := filepath.Join(out, BundleName(ver, t))
		if err := writeBundle(bundle, t, dir, manifest, bundleDocs(docs), mtime); err != nil {
			return err
		}
		files = append(files, archive, bundle)
		bundles[t] = bundle
		fmt.Fprintf(os.Stderr, "release: %s (%s)\n", t, time.Since(start).Round(time.Second))
	}
	sums := map[string]string{}
	for _, f := range files {
		sum, err := fileSHA256(f)
		if err != nil {
			return err
		}
		sums[filepath.Base(f)] = sum
	}
	if len(Targets) == len(allTargets) {
		server, err := ServerJSON(ver, sums)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, "server.json"), server, 0o644); err != nil {
			return err
		}
		sums["server.json"] = sha256Hex(server)
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), checksums(sums), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "release: %d files in %s in %s\n", len(sums)+1, out, time.Since(start).Round(time.Second))
	return nil
}
