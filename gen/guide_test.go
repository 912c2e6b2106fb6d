package gen_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// guideExts are the endings of the files CONTRIBUTING.md names; a span whose last part has
// another ending (internal/version.Release) is a Go name, not a file.
var guideExts = map[string]bool{".go": true, ".md": true, ".mjs": true, ".js": true, ".json": true, ".csv": true, ".txt": true, ".cgt": true}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// "`loadInput` in `commands/ledger.go`" and "`cli.Run` (`cli/run.go`)": a name and its file.
	nameInFile = regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_.]*)`,? (?:in |\\()`([A-Za-z0-9_/.-]+\\.go)`")
)

// CONTRIBUTING.md is followed by people who have read nothing else: every file and folder it
// names must exist, and every Go name it places in a file must be in that file, so that moving
// code without updating the guide fails here rather than misleading the next contributor.
func TestContributingNamesFilesThatExist(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	ignored := gitignoredPrefixes(t)
	paths, names := 0, 0
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		p, ok := guidePath(m[1], ignored)
		if !ok {
			continue
		}
		paths++
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("CONTRIBUTING.md names `%s`, which does not exist: update the guide where the file moved", m[1])
		}
	}
	flat := strings.Join(strings.Fields(text), " ") // names and files split across lines
	for _, m := range nameInFile.FindAllStringSubmatch(flat, -1) {
		name, file := m[1], m[2]
		names++
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			continue // reported above
		}
		last := name[strings.LastIndex(name, ".")+1:]
		if !strings.Contains(string(src), last) {
			t.Errorf("CONTRIBUTING.md places `%s` in `%s`, which has no %s: update the guide where it moved", name, file, last)
		}
	}
	if paths < 20 || names < 5 {
		t.Fatalf("found %d paths and %d names in CONTRIBUTING.md: the patterns no longer match how it cites files", paths, names)
	}
	t.Logf("%d paths and %d names checked", paths, names)
}

// guidePath reports whether a code span is a path in the tree: no spaces or placeholders, its
// first part a top-level folder, a file ending the guide uses or a folder, and not a build
// output the tree ignores (web/dist/). A path outside the tree (../shared, which a clone may
// not have beside it) is not the tree's to check.
func guidePath(span string, ignored []string) (string, bool) {
	if strings.ContainsAny(span, " <>*{}$") || strings.Contains(span, "...") || !strings.Contains(span, "/") ||
		strings.HasPrefix(span, "../") {
		return "", false
	}
	first, _, _ := strings.Cut(span, "/")
	if fi, err := os.Stat(filepath.Join(root, first)); err != nil || !fi.IsDir() {
		return "", false
	}
	if ext := filepath.Ext(strings.TrimSuffix(span, "/")); ext != "" && !guideExts[ext] {
		return "", false
	}
	for _, pre := range ignored {
		if strings.HasPrefix(span, pre) {
			return "", false
		}
	}
	return strings.TrimSuffix(span, "/"), true
}

// gitignoredPrefixes are the tree's ignored top-level paths (/web/dist/ → web/dist/).
func gitignoredPrefixes(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "/") {
			out = append(out, strings.TrimPrefix(strings.TrimSpace(line), "/"))
		}
	}
	return out
}
