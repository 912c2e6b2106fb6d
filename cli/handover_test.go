package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInSourceTree(t *testing.T) {
	for _, tc := range []struct {
		name, gomod string
		want        bool
	}{
		{"cgt_module", "module github.com/cgt-tools/cgt\n\ngo 1.26\n", true},
		{"another_module", "module example.com/other\n", false},
		{"a_module_inside_cgt", "module github.com/cgt-tools/cgt/tools\n", false},
		{"no_go_mod", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.gomod != "" {
				if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(tc.gomod), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := inSourceTree(dir); got != tc.want {
				t.Errorf("inSourceTree = %v, want %v", got, tc.want)
			}
		})
	}
}
