// Package golden is the one golden-file helper of the project's tests: a whole output compared
// with a committed file, rewritten with UPDATE_GOLDEN=1, a unified diff on a mismatch.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

// Update reports whether the golden files are being rewritten (UPDATE_GOLDEN=1).
func Update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

// Check compares got with the golden file at path. With UPDATE_GOLDEN=1 it writes got there
// instead. A missing golden file fails, in CI and on a developer's machine alike.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file %s; create it with: UPDATE_GOLDEN=1 go test ./%s", path, pkgDir())
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs; if the change is intended, accept it with: UPDATE_GOLDEN=1 go test ./%s\n%s",
			path, pkgDir(), diff.Diff("want "+path, want, "got", got))
	}
}

// Orphans fails on files under dir ending in suffix that no case used (used holds slash
// paths); with UPDATE_GOLDEN=1 it deletes them.
func Orphans(t testing.TB, dir, suffix string, used map[string]bool) {
	t.Helper()
	var orphans []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, suffix) && !used[filepath.ToSlash(p)] {
			orphans = append(orphans, p)
		}
		return nil
	})
	sort.Strings(orphans)
	for _, p := range orphans {
		if Update() {
			_ = os.Remove(p)
			continue
		}
		t.Errorf("orphan golden file %s: no case produces it (delete it, or run UPDATE_GOLDEN=1 go test ./%s)", p, pkgDir())
	}
}

// pkgDir names the package under test relative to the module root, for the fix commands.
func pkgDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "..."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, _ := filepath.Rel(dir, wd)
			return filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return "..."
		}
	}
}
