//go:build !js

package registry

import (
	"reflect"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/records"
)

// fieldNames are the field names a result type's records can carry (records.FieldNames),
// listed in the fields argument's schema: the command's key fields first, then the plain
// fields, then those within a group (sa108.box24), so that a list cut short keeps the names
// most asked for. A key field the records cannot carry is left out (the commands' invariant
// test refuses one).
func fieldNames(t reflect.Type, key []string) []string {
	all := records.FieldNames(t)
	out := make([]string, 0, len(all))
	for _, k := range key {
		if slices.Contains(all, k) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	keys := len(out)
	for _, grouped := range []bool{false, true} {
		for _, n := range all {
			if strings.Contains(n, ".") == grouped && !slices.Contains(out[:keys], n) {
				out = append(out, n)
			}
		}
	}
	return out
}
