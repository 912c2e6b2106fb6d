package gen_test

import (
	"path/filepath"
	"testing"

	"github.com/cgt-tools/cgt/gen"
	"github.com/cgt-tools/cgt/internal/golden"
)

const snapshotDir = "testdata/commands"

// Each command's catalog entry is snapshotted so a change to its surface shows in review.
// UPDATE_GOLDEN=1 rewrites the snapshots and removes orphans.
func TestCommandSnapshots(t *testing.T) {
	used := map[string]bool{}
	for _, c := range builtCatalog(t).Commands {
		path := filepath.Join(snapshotDir, c.Name+".json")
		used[filepath.ToSlash(path)] = true
		got, err := gen.CanonicalJSON(c)
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, path, got)
	}
	golden.Orphans(t, snapshotDir, ".json", used)
}
