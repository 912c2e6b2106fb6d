package gen_test

import (
	"encoding"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/cgt-tools/cgt/records"
)

var mcpName = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

func TestRegistryInvariants(t *testing.T) {
	reg, _ := generated(t)
	seen := map[string]string{}
	for _, cmd := range reg.Commands() {
		m := cmd.Meta()
		for _, n := range []string{m.Name, m.MCPName} {
			if other, dup := seen[n]; dup {
				t.Errorf("name %q used by %s and %s", n, other, m.Name)
			}
			seen[n] = m.Name
		}
		if !mcpName.MatchString(m.MCPName) {
			t.Errorf("%s: MCP name %q does not match %s", m.Name, m.MCPName, mcpName)
		}
		for _, field := range []struct{ name, value string }{{"summary", m.Summary}, {"description", m.Description}, {"usage", m.Usage}} {
			if field.value == "" {
				t.Errorf("%s: no %s", m.Name, field.name)
			}
		}
		checkInputSchema(t, m.Name, cmd.InputSchema())
		checkKeyFields(t, m.Name, m.KeyFields, records.FieldNames(cmd.ResultType()))
		checkTextForms(t, m.Name, cmd.ResultType(), map[reflect.Type]bool{})
		checkArgs(t, m.Name, cmd.Args(), cmd.InputSchema())
	}
}

func checkInputSchema(t *testing.T, name string, s map[string]any) {
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if _, ok := s[k]; ok {
			t.Errorf("%s: input schema has a top-level %s, which some MCP clients reject", name, k)
		}
	}
	if s["type"] != "object" {
		t.Errorf("%s: input schema type %v, want object", name, s["type"])
	}
}

// checkKeyFields refuses a key field the command's records cannot carry: it would be left out
// of the fields argument's names without a word.
func checkKeyFields(t *testing.T, name string, key, names []string) {
	for i, k := range key {
		if !slices.Contains(names, k) {
			t.Errorf("%s: key field %q is not a field its records carry", name, k)
		}
		if slices.Contains(key[:i], k) {
			t.Errorf("%s: key field %q given twice", name, k)
		}
	}
}

// checkTextForms refuses a type in a command's result that has a text form (AppendText or
// MarshalText) but does not say its own JSON (MarshalJSON): encoding/json/v2, which Go
// 1.27's encoding/json follows, writes such a value as its text, so the result's shape would
// depend on the Go that built cgt (a source reference once became "file:line" in place of
// {file, line}).
func checkTextForms(t *testing.T, name string, typ reflect.Type, seen map[reflect.Type]bool) {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array || typ.Kind() == reflect.Map {
		if typ.Kind() == reflect.Map {
			checkTextForms(t, name, typ.Key(), seen)
		}
		typ = typ.Elem()
	}
	if seen[typ] {
		return
	}
	seen[typ] = true
	ptr := reflect.PointerTo(typ)
	texts := ptr.Implements(reflect.TypeFor[encoding.TextAppender]()) || ptr.Implements(reflect.TypeFor[encoding.TextMarshaler]())
	if texts && !ptr.Implements(reflect.TypeFor[json.Marshaler]()) {
		t.Errorf("%s: %s has a text form but no MarshalJSON, so its JSON depends on the Go version", name, typ)
	}
	if typ.Kind() == reflect.Struct && !ptr.Implements(reflect.TypeFor[json.Marshaler]()) {
		for i := range typ.NumField() {
			if f := typ.Field(i); f.IsExported() {
				checkTextForms(t, name, f.Type, seen)
			}
		}
	}
}
