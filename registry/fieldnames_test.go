//go:build !js

package registry

import (
	"reflect"
	"slices"
	"testing"
)

// The fields argument lists a command's key fields first, in their order (a grouped one
// too), then the plain fields, then the grouped ones; a key field the records cannot carry
// is left out.
func TestFieldNamesPutKeyFieldsFirst(t *testing.T) {
	type inner struct {
		Box int `json:"box"`
	}
	type row struct {
		Group inner  `json:"group"`
		Gain  string `json:"gain"`
		Tax   string `json:"tax"`
	}
	type result struct {
		Rows []row `json:"rows" record:"rows=row"`
	}
	typ := reflect.TypeFor[result]()
	if got, want := fieldNames(typ, nil), []string{"gain", "tax", "group.box"}; !slices.Equal(got, want) {
		t.Errorf("no key fields: got %q, want %q", got, want)
	}
	if got, want := fieldNames(typ, []string{"group.box", "missing", "tax"}), []string{"group.box", "tax", "gain"}; !slices.Equal(got, want) {
		t.Errorf("key fields: got %q, want %q", got, want)
	}
}
