package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// markerName is the file cgt-release leaves in every output directory it prepares, so that a
// later run knows the directory is its own.
const markerName = ".cgt-release-output"

const markerText = "This directory holds release files written by cgt-release (make release).\n" +
	"cgt-release empties it on its next run; it refuses a directory holding anything else.\n"

// isOwnOutput reports whether name is a file cgt-release writes into its output directory:
// the marker, the archives, the MCP bundles, server.json and SHA256SUMS.
func isOwnOutput(name string) bool {
	switch {
	case name == markerName, name == "server.json", name == "SHA256SUMS":
		return true
	case strings.HasPrefix(name, "cgt_"):
		return strings.HasSuffix(name, ".tar.gz") || strings.HasSuffix(name, ".zip")
	case strings.HasPrefix(name, "cgt-mcp_"):
		return strings.HasSuffix(name, ".mcpb")
	}
	return false
}

// prepareOutput makes out an empty directory for the release files, refusing what it must not
// touch: out is refused when it is the checkout (root) or contains it, and an existing
// directory is emptied only when it is empty or holds only cgt-release's own earlier output
// (the marker and release files, all regular). Anything else is left as it is, and named.
func prepareOutput(root, out string) error {
	abs, err := realPath(out)
	if err != nil {
		return err
	}
	rootAbs, err := realPath(root)
	if err != nil {
		return err
	}
	if within(rootAbs, abs) {
		return fmt.Errorf("-out %s is the source tree or contains it (%s): name a directory of its own, such as dist", out, rootAbs)
	}
	entries, err := os.ReadDir(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("-out %s: %v", out, err)
	default:
		if err := emptyOwnOutput(out, entries); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(out, markerName), []byte(markerText), 0o644)
}

// emptyOwnOutput removes the entries of out, which must all be cgt-release's own regular files
// under a marker; otherwise it removes nothing and names what is not its own.
func emptyOwnOutput(out string, entries []fs.DirEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var foreign []string
	marked := false
	for _, e := range entries {
		marked = marked || e.Name() == markerName
		if !e.Type().IsRegular() || !isOwnOutput(e.Name()) {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 || !marked {
		what := "no " + markerName + " marker"
		if len(foreign) > 0 {
			what = "files cgt-release did not write: " + listSome(foreign, 5)
		}
		return fmt.Errorf("-out %s is not empty and holds %s; it empties only its own earlier output: name a new or empty directory, or remove it yourself", out, what)
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// realPath is p made absolute with its symbolic links resolved; for a path that does not
// exist yet, its nearest existing parent is resolved and the rest appended.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", err
		}
		rest = filepath.Join(filepath.Base(abs), rest)
		abs = parent
	}
}

// within reports whether path is dir or lies inside it (both absolute and clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// listSome is the first n names, and how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
