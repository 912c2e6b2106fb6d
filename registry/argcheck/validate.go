package argcheck

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
)

// Failure is one way a value breaks its schema.
type Failure struct {
	// Location is the path to the failing value: property names and array indexes.
	Location []string
	// Keyword is the schema keyword that failed, such as "type" or "required".
	Keyword string
	// Missing lists the absent properties, in the schema's order, for "required".
	Missing []string
	// Message says what is wrong, e.g. "maximum: got 13, want 12".
	Message string
}

// Error is a failed validation: every failure, in a stable order.
type Error struct {
	Failures []Failure
}

func (e *Error) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		parts[i] = "at /" + strings.Join(f.Location, "/") + ": " + f.Message
	}
	return strings.Join(parts, "; ")
}

// Validate checks a decoded JSON value (objects as map[string]any, arrays as []any, numbers
// as json.Number, float64 or an integer type) and returns nil or an *Error.
//
// The order of failures follows the schema: for a value, the first of type, const, enum and
// format that fails stops the check there; otherwise required, then each property in name
// order, then additional properties; array length, then items; string length, then pattern;
// the numeric bounds; and last anyOf and oneOf, whose failures are those of each alternative.
func (s *Schema) Validate(v any) error {
	var fs []Failure
	s.validate(v, nil, &fs)
	if len(fs) == 0 {
		return nil
	}
	return &Error{Failures: fs}
}

func (s *Schema) validate(v any, loc []string, out *[]Failure) {
	if s == nil {
		return
	}
	fail := func(keyword, msg string) {
		*out = append(*out, Failure{Location: clone(loc), Keyword: keyword, Message: msg})
	}
	if s.reject {
		fail("false", "false schema")
		return
	}
	t := typeOf(v)
	if t == "" {
		fail("type", fmt.Sprintf("invalid jsonType %T", v))
		return
	}
	if s.types != nil && !s.typeMatches(t, v) {
		if n, ok := v.(json.Number); ok && t == "number" && beyondChecked(n) {
			fail("type", beyondMessage(n))
			return
		}
		fail("type", "got "+t+", want "+strings.Join(s.types, " or "))
		return
	}
	if s.hasConst && !equal(v, s.constVal) {
		fail("const", valueMust([]any{s.constVal}, "'const' failed"))
		return
	}
	if s.enum != nil && !inEnum(v, s.enum) {
		fail("enum", valueMust(s.enum, "'enum' failed"))
		return
	}
	if s.format == "date" {
		if str, ok := v.(string); ok {
			if _, err := time.Parse(time.DateOnly, str); err != nil {
				fail("format", display(v)+" is not valid date: "+err.Error())
				return
			}
		}
	}
	switch val := v.(type) {
	case map[string]any:
		s.validateObject(val, loc, out, fail)
	case []any:
		s.validateArray(val, loc, out, fail)
	case string:
		s.validateString(val, fail)
	case nil, bool:
	default:
		s.validateNumber(v, fail)
	}
	if s.anyOf != nil {
		var branches []Failure
		matched := false
		for _, alt := range s.anyOf {
			n := len(branches)
			alt.validate(v, loc, &branches)
			if len(branches) == n {
				matched = true
				break
			}
		}
		if !matched {
			*out = append(*out, branches...)
		}
	}
	if s.oneOf != nil {
		var branches []Failure
		var matched []int
		for i, alt := range s.oneOf {
			var fs []Failure
			alt.validate(v, loc, &fs)
			if len(fs) == 0 {
				if matched = append(matched, i); len(matched) == 2 {
					break
				}
			} else if len(matched) == 0 {
				branches = append(branches, fs...)
			}
		}
		switch len(matched) {
		case 0:
			*out = append(*out, branches...)
		case 2:
			fail("oneOf", fmt.Sprintf("'oneOf' failed, subschemas %s, %s matched", groupInt(matched[0]), groupInt(matched[1])))
		}
	}
}

func (s *Schema) validateObject(obj map[string]any, loc []string, out *[]Failure, fail func(keyword, msg string)) {
	var missing []string
	for _, name := range s.required {
		if _, ok := obj[name]; !ok {
			missing = append(missing, name)
		}
	}
	if missing != nil {
		*out = append(*out, Failure{Location: clone(loc), Keyword: "required", Missing: missing, Message: requiredMessage(missing)})
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	order.Ascending(names)
	var extra []string
	at := child(loc)
	for _, name := range names {
		at[len(loc)] = name
		if p, ok := s.properties[name]; ok {
			p.validate(obj[name], at, out)
		} else if s.noExtra {
			extra = append(extra, name)
		} else if s.extra != nil {
			s.extra.validate(obj[name], at, out)
		}
	}
	if extra != nil {
		quoted := make([]string, len(extra))
		for i, e := range extra {
			quoted[i] = quote(e)
		}
		fail("additionalProperties", "additional properties "+strings.Join(quoted, ", ")+" not allowed")
	}
}

func requiredMessage(missing []string) string {
	if len(missing) == 1 {
		return "missing property " + quote(missing[0])
	}
	quoted := make([]string, len(missing))
	for i, m := range missing {
		quoted[i] = quote(m)
	}
	return "missing properties " + strings.Join(quoted, ", ")
}

func (s *Schema) validateArray(arr []any, loc []string, out *[]Failure, fail func(keyword, msg string)) {
	if s.minItems >= 0 && len(arr) < s.minItems {
		fail("minItems", "minItems: got "+groupInt(len(arr))+", want "+groupInt(s.minItems))
	}
	if s.maxItems >= 0 && len(arr) > s.maxItems {
		fail("maxItems", "maxItems: got "+groupInt(len(arr))+", want "+groupInt(s.maxItems))
	}
	if s.items != nil {
		at := child(loc)
		for i, item := range arr {
			at[len(loc)] = strconv.Itoa(i)
			s.items.validate(item, at, out)
		}
	}
}

// child is loc with room for one more step, which the members' or items' checks fill in
// turn: one slice for all of them, as a failure keeps a copy of its location (clone).
func child(loc []string) []string {
	at := make([]string, len(loc)+1)
	copy(at, loc)
	return at
}

func (s *Schema) validateString(str string, fail func(keyword, msg string)) {
	if s.minLength >= 0 || s.maxLength >= 0 {
		n := utf8.RuneCountInString(str)
		if s.minLength >= 0 && n < s.minLength {
			fail("minLength", "minLength: got "+groupInt(n)+", want "+groupInt(s.minLength))
		}
		if s.maxLength >= 0 && n > s.maxLength {
			fail("maxLength", "maxLength: got "+groupInt(n)+", want "+groupInt(s.maxLength))
		}
	}
	if s.pattern != nil && !s.pattern.match(str) {
		fail("pattern", quote(str)+" does not match pattern "+quote(s.pattern.expr))
	}
}

func (s *Schema) validateNumber(v any, fail func(keyword, msg string)) {
	if s.minimum == nil && s.maximum == nil && s.exclusiveMinimum == nil && s.exclusiveMaximum == nil {
		return
	}
	if s.ints != nil {
		if i, ok := wholeNumber(v); ok && i >= s.ints.min && i <= s.ints.max {
			return // within every bound; a value outside is described below, exactly
		}
	}
	n, ok := toNumber(v)
	if !ok {
		if n, isJSON := v.(json.Number); isJSON {
			fail("type", beyondMessage(n)) // a JSON number all the same: its power of ten is beyond maxExp
			return
		}
		fail("type", fmt.Sprintf("%v is not a number", v))
		return
	}
	bound := func(keyword string, want *number, bad func(c int) bool) {
		if want != nil && bad(n.cmp(*want)) {
			fail(keyword, keyword+": got "+groupFloat(n)+", want "+groupFloat(*want))
		}
	}
	bound("minimum", s.minimum, func(c int) bool { return c < 0 })
	bound("maximum", s.maximum, func(c int) bool { return c > 0 })
	bound("exclusiveMinimum", s.exclusiveMinimum, func(c int) bool { return c <= 0 })
	bound("exclusiveMaximum", s.exclusiveMaximum, func(c int) bool { return c >= 0 })
}

func (s *Schema) typeMatches(t string, v any) bool {
	for _, want := range s.types {
		if want == t || want == "integer" && t == "number" && isInteger(v) {
			return true
		}
	}
	return false
}

// typeOf names the JSON type of a decoded value; "" when it is not a JSON value.
func typeOf(v any) string {
	switch n := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return ""
		}
		return "number"
	case float32:
		if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
			return ""
		}
		return "number"
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "number"
	}
	return ""
}

func isInteger(v any) bool {
	if _, ok := wholeNumber(v); ok {
		return true // the common case
	}
	if f, ok := v.(float64); ok {
		return !math.IsInf(f, 0) && f == math.Trunc(f) // NaN fails the comparison
	}
	n, ok := toNumber(v)
	return ok && n.isInt()
}

// equal is JSON equality: numbers by value, whatever their Go type.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	if typeOf(a) != "number" || typeOf(b) != "number" {
		return false
	}
	x, ok1 := toNumber(a)
	y, ok2 := toNumber(b)
	return ok1 && ok2 && x.cmp(y) == 0
}

func inEnum(v any, enum []any) bool {
	for _, e := range enum {
		if equal(v, e) {
			return true
		}
	}
	return false
}

// valueMust is the message for a value outside a const or an enum.
func valueMust(want []any, composite string) string {
	shown := make([]string, len(want))
	for i, w := range want {
		switch w.(type) {
		case []any, map[string]any:
			return composite
		}
		shown[i] = display(w)
	}
	if len(shown) == 1 {
		return "value must be " + shown[0]
	}
	return "value must be one of " + strings.Join(shown, ", ")
}

// display shows a scalar in a message: strings quoted, anything else as Go prints it.
func display(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return fmt.Sprintf("%v", v)
}

func clone(loc []string) []string {
	if len(loc) == 0 {
		return nil
	}
	return append([]string(nil), loc...)
}

// groupInt writes an integer with thousands separators: 12,345.
func groupInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	return sign(neg) + group(strings.TrimPrefix(s, "-"))
}

// groupFloat writes a number as English prose does: 21,010 and 3.5, and 1.5 × 10²¹ where Go
// would use an exponent.
func groupFloat(n number) string {
	f := n.float64()
	if math.IsInf(f, 0) {
		return sign(f < 0) + "∞"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, sci := strings.Cut(s, "e")
	if !sci {
		ip, fp, frac := strings.Cut(mant, ".")
		if frac {
			return sign(neg) + group(ip) + "." + fp
		}
		return sign(neg) + group(ip)
	}
	var b strings.Builder
	b.WriteString(sign(neg) + mant + "\u202f×\u202f10")
	for _, c := range exp {
		switch {
		case c == '-':
			b.WriteString("⁻")
		case c >= '0' && c <= '9':
			b.WriteString(superscripts[c-'0'])
		}
	}
	return b.String()
}

var superscripts = [10]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func sign(neg bool) string {
	if neg {
		return "-"
	}
	return ""
}

func group(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// beyondChecked reports whether n, a JSON number, is one whose power of ten is beyond those
// the checker reads (maxExp), so that whether it is whole, or within a bound, is not worked out.
func beyondChecked(n json.Number) bool {
	_, ok := toNumber(n)
	return !ok
}

func beyondMessage(n json.Number) string {
	return fmt.Sprintf("%s is beyond the numbers checked (powers of ten up to %s either way)", n, groupInt(maxExp))
}
