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
	walked := map[textWalk]bool{}
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
		checkTextForms(t, m.Name+" arguments", cmd.ArgsType(), textUse{encode: true, decode: true}, walked)
		checkTextForms(t, m.Name+" result", cmd.ResultType(), textUse{encode: true, decode: true}, walked)
		checkArgs(t, m.Name, cmd.Args(), cmd.InputSchema())
	}
	if len(walked) < 50 {
		t.Fatalf("the text-form check walked only %d types", len(walked))
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

// checkTextForms refuses a type in a command's arguments or result with a text method but not
// the JSON method that would be used in its place:
//   - a text form (AppendText or MarshalText) without MarshalJSON, where the value is
//     encoded by reflection: encoding/json/v2, which Go 1.27's encoding/json follows, writes
//     such a value as its text, so the result's shape would depend on the Go that built cgt
//     (a source reference once became "file:line" in place of {file, line}); and the
//     browser module's JSON codec (internal/jsoncodec) does not consult MarshalText, so the
//     page would write it differently;
//   - UnmarshalText without UnmarshalJSON, where the value is decoded by reflection: the
//     codec does not consult UnmarshalText either, so the page would read it differently.
//
// use says whether typ is still encoded, and decoded, by reflection (no type around it has
// the JSON method); walked holds what has been checked.
func checkTextForms(t *testing.T, path string, typ reflect.Type, use textUse, walked map[textWalk]bool) {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array || typ.Kind() == reflect.Map {
		if typ.Kind() == reflect.Map {
			checkTextForms(t, path+"{key}", typ.Key(), use, walked)
			path += "{}"
		} else {
			path += "[]"
		}
		typ = typ.Elem()
	}
	if walked[textWalk{typ, use}] {
		return
	}
	walked[textWalk{typ, use}] = true
	ptr := reflect.PointerTo(typ)
	marshals, unmarshals := ptr.Implements(reflect.TypeFor[json.Marshaler]()), ptr.Implements(reflect.TypeFor[json.Unmarshaler]())
	texts := ptr.Implements(reflect.TypeFor[encoding.TextAppender]()) || ptr.Implements(reflect.TypeFor[encoding.TextMarshaler]())
	if use.encode && texts && !marshals {
		t.Errorf("%s: %s has a text form but no MarshalJSON, so its JSON depends on the Go version, and the page would write it differently", path, typ)
	}
	if use.decode && ptr.Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) && !unmarshals {
		t.Errorf("%s: %s has UnmarshalText but no UnmarshalJSON, so the page would read it differently", path, typ)
	}
	use = textUse{encode: use.encode && !marshals, decode: use.decode && !unmarshals}
	if typ.Kind() == reflect.Struct && (use.encode || use.decode) {
		for i := range typ.NumField() {
			if f := typ.Field(i); f.IsExported() || f.Anonymous {
				checkTextForms(t, path+"."+f.Name, f.Type, use, walked)
			}
		}
	}
}

// textUse says whether a value is encoded, and decoded, by reflection rather than by a JSON
// method of a type around it.
type textUse struct{ encode, decode bool }

// textWalk is a type checked under a use.
type textWalk struct {
	typ reflect.Type
	use textUse
}
