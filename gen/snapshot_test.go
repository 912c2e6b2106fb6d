package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/gen"
)

const snapshotDir = "testdata/commands"

// Each command's catalog entry is snapshotted so a change to its surface shows in review.
// UPDATE_GOLDEN=1 rewrites the snapshots and removes orphans.
func TestCommandSnapshots(t *testing.T) {
	update := os.Getenv("UPDATE_GOLDEN") != ""
	want := map[string]bool{}
	for _, c := range builtCatalog(t).Commands {
		name := c.Name + ".json"
		want[name] = true
		got, err := gen.CanonicalJSON(c)
		if err != nil {
			t.Fatal(err)
		}
		checkSnapshot(t, filepath.Join(snapshotDir, name), got, update)
	}
	entries, _ := os.ReadDir(snapshotDir)
	for _, e := range entries {
		if want[e.Name()] {
			continue
		}
		path := filepath.Join(snapshotDir, e.Name())
		if update {
			os.Remove(path)
			continue
		}
		t.Errorf("orphan snapshot %s: no command has that name; run: UPDATE_GOLDEN=1 go test ./gen/", path)
	}
}

func checkSnapshot(t *testing.T, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("missing snapshot %s; run: UPDATE_GOLDEN=1 go test ./gen/", path)
		return
	}
	if !bytes.Equal(old, got) {
		t.Errorf("%s changed (%s); review the surface change, then run: UPDATE_GOLDEN=1 go test ./gen/",
			path, firstDifference(string(old), string(got)))
	}
}

func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ": was " + strings.TrimSpace(al[i]) + ", now " + strings.TrimSpace(bl[i])
		}
	}
	return "length differs"
}
