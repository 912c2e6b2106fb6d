package gen_test

import (
	"testing"

	"github.com/cgt-tools/cgt/registry"
)

// checkArgs: every argument described, positionals exist in the schema and are numbered
// 0..n-1 without gaps, aliases unambiguous.
func checkArgs(t *testing.T, cmd string, args []registry.ArgSpec, schema map[string]any) {
	props, _ := schema["properties"].(map[string]any)
	names := map[string]string{}
	positions := map[int]string{}
	for _, a := range args {
		if a.Description == "" {
			t.Errorf("%s: argument %s has no description", cmd, a.Name)
		}
		if _, ok := props[a.Name]; !ok {
			t.Errorf("%s: argument %s is not in the input schema", cmd, a.Name)
		}
		for _, n := range append([]string{a.Name}, a.Aliases...) {
			if other, dup := names[n]; dup {
				t.Errorf("%s: %q names both %s and %s", cmd, n, other, a.Name)
			}
			names[n] = a.Name
		}
		if a.Positional != nil {
			if other, dup := positions[*a.Positional]; dup {
				t.Errorf("%s: positional %d is both %s and %s", cmd, *a.Positional, other, a.Name)
			}
			positions[*a.Positional] = a.Name
		}
	}
	for i := range len(positions) {
		if _, ok := positions[i]; !ok {
			t.Errorf("%s: positionals skip index %d", cmd, i)
		}
	}
}
