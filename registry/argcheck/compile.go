// Package argcheck validates arguments objects against the JSON Schemas reflected from the
// commands' argument structs. It implements exactly the subset of JSON Schema draft 2020-12
// those schemas use, and Compile rejects any other keyword, so that a schema cannot go
// partly unchecked. Failure messages read as those of santhosh-tekuri/jsonschema in English,
// which cgt used before.
package argcheck

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
)

// Schema is a compiled schema. A nil *Schema accepts everything.
type Schema struct {
	reject bool // the false schema

	types    []string // from the `type` keyword; nil means any type
	constVal any
	hasConst bool
	enum     []any
	format   string

	properties map[string]*Schema
	required   []string
	noExtra    bool    // additionalProperties: false
	extra      *Schema // additionalProperties as a schema

	items              *Schema
	minItems, maxItems int // -1 when absent

	minLength, maxLength int // -1 when absent
	pattern              *pattern

	minimum, maximum, exclusiveMinimum, exclusiveMaximum *number
	ints                                                 *intBounds // the bounds as int64, when all are whole

	oneOf, anyOf []*Schema
}

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// annotation reports whether a keyword never affects validity.
func annotation(k string) bool {
	switch k {
	case "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return false
}

// Compile compiles a schema given as decoded JSON: a map[string]any or a bool, with numbers
// as json.Number or float64. It fails on any keyword outside the supported subset.
func Compile(doc any) (*Schema, error) {
	return compile(doc, "#")
}

func compile(doc any, at string) (*Schema, error) {
	switch d := doc.(type) {
	case bool:
		if d {
			return &Schema{minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}, nil
		}
		return &Schema{reject: true}, nil
	case map[string]any:
		return compileObject(d, at)
	}
	return nil, fmt.Errorf("%s: a schema must be an object or a boolean, got %T", at, doc)
}

func compileObject(d map[string]any, at string) (*Schema, error) {
	s := &Schema{minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	order.Ascending(keys)
	var err error
	for _, k := range keys {
		v := d[k]
		kat := at + "/" + k
		switch k {
		case "$schema":
			if v != draft2020 {
				return nil, fmt.Errorf("%s: only draft 2020-12 is supported, got %v", kat, v)
			}
		case "type":
			s.types, err = compileTypes(v, kat)
		case "const":
			s.constVal, s.hasConst = v, true
		case "enum":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				return nil, fmt.Errorf("%s: want a non-empty array", kat)
			}
			s.enum = arr
		case "format":
			f, _ := v.(string)
			if f != "date" {
				return nil, fmt.Errorf("%s: unsupported format %v", kat, v)
			}
			s.format = f
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: want an object", kat)
			}
			s.properties = make(map[string]*Schema, len(props))
			for name, p := range props {
				if s.properties[name], err = compile(p, kat+"/"+name); err != nil {
					return nil, err
				}
			}
		case "required":
			s.required, err = compileStrings(v, kat)
		case "additionalProperties":
			if b, ok := v.(bool); ok && !b {
				s.noExtra = true
			} else if !ok {
				s.extra, err = compile(v, kat)
			}
		case "items":
			s.items, err = compile(v, kat)
		case "minItems":
			s.minItems, err = compileCount(v, kat)
		case "maxItems":
			s.maxItems, err = compileCount(v, kat)
		case "minLength":
			s.minLength, err = compileCount(v, kat)
		case "maxLength":
			s.maxLength, err = compileCount(v, kat)
		case "pattern":
			p, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%s: want a string", kat)
			}
			if s.pattern, err = compilePattern(p); err != nil {
				return nil, fmt.Errorf("%s: %w", kat, err)
			}
		case "minimum":
			s.minimum, err = compileNumber(v, kat)
		case "maximum":
			s.maximum, err = compileNumber(v, kat)
		case "exclusiveMinimum":
			s.exclusiveMinimum, err = compileNumber(v, kat)
		case "exclusiveMaximum":
			s.exclusiveMaximum, err = compileNumber(v, kat)
		case "oneOf":
			s.oneOf, err = compileList(v, kat)
		case "anyOf":
			s.anyOf, err = compileList(v, kat)
		default:
			if !annotation(k) {
				return nil, fmt.Errorf("%s: keyword %q is not supported by the argument validator", at, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	s.ints = wholeBounds(s)
	return s, nil
}

// intBounds are a schema's numeric bounds as int64, for checking whole numbers (a year, a
// month) without comparing digits; a bound not given is the extreme of its side.
type intBounds struct{ min, max int64 }

// wholeBounds gives the bounds of s as inclusive int64 limits, or nil when there are none or
// any is not a whole number that fits (those values are compared as numbers).
func wholeBounds(s *Schema) *intBounds {
	if s.minimum == nil && s.maximum == nil && s.exclusiveMinimum == nil && s.exclusiveMaximum == nil {
		return nil
	}
	b := &intBounds{min: math.MinInt64, max: math.MaxInt64}
	for _, c := range []struct {
		r         *number
		lower     bool
		exclusive int64
	}{{s.minimum, true, 0}, {s.exclusiveMinimum, true, 1}, {s.maximum, false, 0}, {s.exclusiveMaximum, false, -1}} {
		if c.r == nil {
			continue
		}
		// a bound a step inside the int64 range, so that the exclusive form cannot overflow
		i, ok := c.r.int64()
		if !ok || i <= math.MinInt64+1 || i >= math.MaxInt64-1 {
			return nil
		}
		v := i + c.exclusive
		if c.lower {
			b.min = max(b.min, v)
		} else {
			b.max = min(b.max, v)
		}
	}
	return b
}

// wholeNumber is v as an int64 when it is a whole number in int64's range written as one
// (json.Number "2024", a Go integer, or a float64 holding a whole number of at most 2⁵³);
// ok is false for anything else, which is compared as a number.
func wholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 64)
		return i, err == nil
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case int16:
		return int64(n), true
	case int8:
		return int64(n), true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) <= 1<<53 {
			return int64(n), true
		}
	}
	return 0, false
}

// typeOrder is the order in which failure messages list the wanted types.
var typeOrder = []string{"null", "boolean", "number", "integer", "string", "array", "object"}

func compileTypes(v any, at string) ([]string, error) {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, e := range t {
			n, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s: want type names", at)
			}
			names = append(names, n)
		}
	default:
		return nil, fmt.Errorf("%s: want a type name or an array of them", at)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: want at least one type", at)
	}
	var out []string
	for _, t := range typeOrder {
		for _, n := range names {
			if n == t {
				out = append(out, t)
				break
			}
		}
	}
	for _, n := range names {
		if !contains(typeOrder, n) {
			return nil, fmt.Errorf("%s: unknown type %q", at, n)
		}
	}
	return out, nil
}

func compileStrings(v any, at string) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an array of strings", at)
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		if out[i], ok = e.(string); !ok {
			return nil, fmt.Errorf("%s: want an array of strings", at)
		}
	}
	return out, nil
}

func compileList(v any, at string) ([]*Schema, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, fmt.Errorf("%s: want a non-empty array of schemas", at)
	}
	out := make([]*Schema, len(arr))
	for i, e := range arr {
		var err error
		if out[i], err = compile(e, fmt.Sprintf("%s/%d", at, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func compileNumber(v any, at string) (*number, error) {
	n, ok := toNumber(v)
	if !ok {
		return nil, fmt.Errorf("%s: want a number", at)
	}
	return &n, nil
}

func compileCount(v any, at string) (int, error) {
	n, ok := toNumber(v)
	i, whole := n.int64()
	if !ok || !whole || i < 0 || i > math.MaxInt32 {
		return 0, fmt.Errorf("%s: want a non-negative integer", at)
	}
	return int(i), nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// quote is how messages show a string: single quotes, Go escapes.
func quote(s string) string {
	s = fmt.Sprintf("%q", s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}
