package registry

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/internal/order"
)

// ArgSpec describes one argument as every front end and the contract publish it.
type ArgSpec struct {
	Name        string   `json:"-"`
	Type        string   `json:"type"` // JSON Schema type; "integer|string" when either is accepted
	Required    bool     `json:"required"`
	Default     any      `json:"default,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
	Positional  *int     `json:"positional,omitempty"` // index among the positionals
	Variadic    bool     `json:"variadic,omitempty"`   // takes every remaining positional
	Description string   `json:"description"`
}

// argSpecs reads the arguments struct: names and descriptions from the reflected schema,
// positionals and aliases from `cgt:"pos=N,alias=x,alias=y"` tags.
func argSpecs(t reflect.Type, schema map[string]any) []ArgSpec {
	props, _ := schema["properties"].(map[string]any)
	required := map[string]bool{}
	if rq, ok := schema["required"].([]any); ok {
		for _, r := range rq {
			required[r.(string)] = true
		}
	}
	var specs []ArgSpec
	for _, f := range structFields(t) {
		name := jsonName(f)
		if name == "" {
			continue
		}
		p, _ := props[name].(map[string]any)
		s := ArgSpec{Name: name, Type: schemaType(p), Required: required[name], Default: p["default"],
			Description: str(p["description"])}
		if e, ok := p["enum"].([]any); ok {
			s.Enum = e
		}
		applyCGTTag(&s, f)
		specs = append(specs, s)
	}
	return specs
}

func structFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			out = append(out, structFields(f.Type)...)
			continue
		}
		if f.IsExported() {
			out = append(out, f)
		}
	}
	return out
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return ""
	}
	if n, _, _ := strings.Cut(tag, ","); n != "" {
		return n
	}
	return f.Name
}

func applyCGTTag(s *ArgSpec, f reflect.StructField) {
	for _, part := range strings.Split(f.Tag.Get("cgt"), ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "pos":
			n, err := strconv.Atoi(v)
			if err != nil {
				panic("registry: bad pos tag on " + f.Name)
			}
			s.Positional = &n
			s.Variadic = f.Type.Kind() == reflect.Slice
		case "alias":
			s.Aliases = append(s.Aliases, v)
		}
	}
}

func schemaType(p map[string]any) string {
	if t, ok := p["type"].(string); ok {
		return t
	}
	var types []string
	for _, key := range []string{"oneOf", "anyOf"} {
		alts, _ := p[key].([]any)
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				if t, ok := m["type"].(string); ok {
					types = append(types, t)
				}
			}
		}
	}
	if len(types) == 0 {
		return "any"
	}
	order.Ascending(types)
	return strings.Join(types, "|")
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// lookupArg finds an argument by name or alias, case-insensitively on the alias.
func lookupArg(specs []ArgSpec, key string) (*ArgSpec, bool) {
	for i := range specs {
		if specs[i].Name == key {
			return &specs[i], true
		}
	}
	for i := range specs {
		for _, a := range specs[i].Aliases {
			if a == key {
				return &specs[i], true
			}
		}
	}
	return nil, false
}

func argNames(specs []ArgSpec) []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

func unknownArg(cmd, key string, specs []ArgSpec) *envelope.Error {
	e := envelope.Errorf(envelope.UsageError, "Arguments of "+cmd+": "+strings.Join(argNames(specs), ", ")+". Run `cgt help "+cmd+"`.",
		"unknown argument %q for %s", key, cmd)
	return e.With("argument", key).With("available", argNames(specs))
}

// plainStringFields are the arguments struct's fields of type string (not a named type, which
// may decode itself; not tagged ",string"), by JSON name, with their index paths: the fields
// encoding/json would fill by plain assignment. Fields of embedded structs count as
// structFields flattens them (untagged, not through a pointer); a name given twice is left out.
func plainStringFields(t reflect.Type) map[string][]int {
	return plainFields(t, reflect.TypeFor[string]())
}

// plainIntFields are plainStringFields for fields of type int.
func plainIntFields(t reflect.Type) map[string][]int {
	return plainFields(t, reflect.TypeFor[int]())
}

func plainFields(t reflect.Type, want reflect.Type) map[string][]int {
	out := map[string][]int{}
	if t.Kind() != reflect.Struct {
		return out // arguments that are not a struct all go through encoding/json
	}
	count := map[string]int{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() || !flattened(t, f.Index) {
			continue
		}
		name := jsonName(f)
		if name == "" {
			continue
		}
		count[name]++
		if _, opts, _ := strings.Cut(f.Tag.Get("json"), ","); f.Type == want && !strings.Contains(opts, "string") {
			out[name] = f.Index
		}
	}
	for name, n := range count {
		if n > 1 {
			delete(out, name)
		}
	}
	return out
}

// flattened reports whether every struct a field is reached through is embedded as
// structFields flattens it: anonymous, a struct (not a pointer to one), without a json tag.
func flattened(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		f := t.Field(i)
		if !f.Anonymous || f.Type.Kind() != reflect.Struct || f.Tag.Get("json") != "" {
			return false
		}
		t = f.Type
	}
	return true
}
