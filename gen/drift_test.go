package gen_test

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/gen"
)

// The committed generated files must be exactly what the registry produces now.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	_, files := generated(t)
	if stale := gen.Check(root, files); len(stale) > 0 {
		t.Fatalf("generated files are stale:\n  %s\nrun: %s", strings.Join(stale, "\n  "), gen.FixCommand)
	}
}
