package jsoncodec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Unmarshal decodes data into v as encoding/json.Unmarshal does.
func Unmarshal(data []byte, v any) error {
	if err := (&validator{data: data}).whole(); err != nil {
		return err
	}
	d := decoder{data: data}
	return d.unmarshal(v)
}

// decoder fills Go values from JSON text already validated. A value of the wrong type is
// noted and skipped, and decoding goes on; the first such error is returned at the end.
type decoder struct {
	data      []byte
	useNumber bool
	saved     error
	// where names the struct and field path being decoded, for type errors; nil until the
	// first struct field.
	where *location
}

type location struct {
	typ  reflect.Type
	path []string
}

var numberType = reflect.TypeFor[json.Number]()

func (d *decoder) unmarshal(v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &json.InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	if _, err := d.value(skipSpace(d.data, 0), rv); err != nil {
		return d.located(err)
	}
	return d.saved
}

func (d *decoder) save(err error) {
	if d.saved == nil {
		d.saved = d.located(err)
	}
}

// located adds the struct and field path to a type error.
func (d *decoder) located(err error) error {
	te, ok := err.(*json.UnmarshalTypeError)
	if !ok || d.where == nil || d.where.typ == nil && len(d.where.path) == 0 {
		return err
	}
	te.Struct = d.where.typ.Name()
	path := d.where.path
	if te.Field != "" {
		path = append(path[:len(path):len(path)], te.Field)
	}
	te.Field = strings.Join(path, ".")
	return err
}

func typeError(value string, t reflect.Type, offset int) error {
	return &json.UnmarshalTypeError{Value: value, Type: t, Offset: int64(offset)}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// valueEnd returns where the valid value starting at i ends.
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch data[i] {
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			case '"':
				i = valueEnd(data, i) - 1
			}
		}
	case '"':
		for i++; data[i] != '"'; i++ {
			if data[i] == '\\' {
				i++
			}
		}
		return i + 1
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	}
	for i++; i < len(data) && (isDigit(data[i]) || strings.IndexByte(".eE+-", data[i]) >= 0); i++ {
	}
	return i
}

// value decodes the value at i into v (an invalid v skips it) and returns where it ends. An
// error returned stops decoding; a type mismatch is saved instead.
func (d *decoder) value(i int, v reflect.Value) (int, error) {
	end := valueEnd(d.data, i)
	if !v.IsValid() {
		return end, nil
	}
	switch d.data[i] {
	case '[':
		return end, d.array(i, end, v)
	case '{':
		return end, d.object(i, end, v)
	}
	return end, d.literal(d.data[i:end], v, end)
}

// indirect walks down pointers (allocating nil ones) and interfaces holding pointers to the
// value to fill, stopping at an UnmarshalJSON method; decoding null stops at the last
// settable pointer so that it can be set to nil. (UnmarshalText is not consulted: see the
// package comment.)
func indirect(v reflect.Value, null bool) (json.Unmarshaler, reflect.Value) {
	orig, viaAddr := v, false
	if v.Kind() != reflect.Pointer && v.Type().Name() != "" && v.CanAddr() {
		v, viaAddr = v.Addr(), true
	}
	for {
		if v.Kind() == reflect.Interface && !v.IsNil() {
			if e := v.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() && (!null || e.Elem().Kind() == reflect.Pointer) {
				v, viaAddr = e, false
				continue
			}
		}
		if v.Kind() != reflect.Pointer || null && v.CanSet() {
			return nil, v
		}
		if e := v.Elem(); e.Kind() == reflect.Interface {
			// A pointer to an interface holding that same pointer: stop rather than loop.
			if ee := e.Elem(); ee.Kind() == reflect.Pointer && ee.Type() == v.Type() && ee.Pointer() == v.Pointer() {
				return nil, e
			}
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Type().NumMethod() > 0 && v.CanInterface() {
			if m, ok := v.Interface().(json.Unmarshaler); ok {
				return m, reflect.Value{}
			}
		}
		if viaAddr {
			v, viaAddr = orig, false
		} else {
			v = v.Elem()
		}
	}
}

func (d *decoder) array(i, end int, v reflect.Value) error {
	u, v := indirect(v, false)
	if u != nil {
		return u.UnmarshalJSON(d.data[i:end])
	}
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
	case reflect.Interface:
		if v.NumMethod() == 0 {
			// An interface gets a []any, filled as any slice is.
			s := reflect.ValueOf(new([]any)).Elem()
			err := d.array(i, end, s)
			v.Set(s)
			return err
		}
		fallthrough
	default:
		d.save(typeError("array", v.Type(), i+1))
		return nil
	}
	n, slice := 0, v.Kind() == reflect.Slice
	for j := skipSpace(d.data, i+1); d.data[j] != ']'; n++ {
		if slice && n >= v.Len() {
			if n >= v.Cap() {
				v.Grow(1)
			}
			v.SetLen(n + 1)
		}
		el := reflect.Value{}
		if n < v.Len() {
			el = v.Index(n)
		}
		var err error
		if j, err = d.value(j, el); err != nil {
			return err
		}
		if j = skipSpace(d.data, j); d.data[j] == ',' {
			j = skipSpace(d.data, j+1)
		}
	}
	switch {
	case n == 0 && slice:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	case slice:
		v.SetLen(n)
	default:
		for ; n < v.Len(); n++ {
			v.Index(n).SetZero()
		}
	}
	return nil
}

func (d *decoder) object(i, end int, v reflect.Value) error {
	u, v := indirect(v, false)
	if u != nil {
		return u.UnmarshalJSON(d.data[i:end])
	}
	if v.Kind() == reflect.Interface && v.NumMethod() == 0 {
		// An interface gets a map[string]any, filled as any map is.
		m := reflect.ValueOf(map[string]any{})
		err := d.object(i, end, m)
		v.Set(m)
		return err
	}
	t := v.Type()
	var si *structInfo
	switch v.Kind() {
	case reflect.Map:
		if !keyKind(t.Key().Kind()) {
			d.save(typeError("object", t, i+1))
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
	case reflect.Struct:
		si = structOf(t)
	default:
		d.save(typeError("object", t, i+1))
		return nil
	}
	var outer location
	if d.where != nil {
		outer = *d.where
	}
	var elem reflect.Value
	for j := skipSpace(d.data, i+1); d.data[j] != '}'; {
		keyAt, keyEnd := j, valueEnd(d.data, j)
		key := unquote(d.data[j:keyEnd])
		var sub reflect.Value
		if si == nil {
			if !elem.IsValid() {
				elem = reflect.New(t.Elem()).Elem()
			} else {
				elem.SetZero()
			}
			sub = elem
		} else if f := si.lookup(key); f != nil {
			if f.quoted {
				return fmt.Errorf("jsoncodec: decoding field %s.%s, with the \",string\" option, is not supported", t, f.name)
			}
			sub = d.enter(v, t, f)
		}
		var err error
		if j, err = d.value(skipSpace(d.data, skipSpace(d.data, keyEnd)+1), sub); err != nil {
			return err
		}
		if si == nil {
			d.setMapIndex(v, key, sub, keyAt+1)
		}
		if d.where != nil {
			d.where.path = d.where.path[:len(outer.path)]
			d.where.typ = outer.typ
		}
		if j = skipSpace(d.data, j); d.data[j] == ',' {
			j = skipSpace(d.data, j+1)
		}
	}
	return nil
}

func keyKind(k reflect.Kind) bool {
	return k == reflect.String || k >= reflect.Int && k <= reflect.Uintptr
}

// enter finds struct field f of v, allocating embedded pointers on the way, and records its
// path for type errors. It returns an invalid value when an embedded pointer to an unexported
// struct is nil, as that cannot be set.
func (d *decoder) enter(v reflect.Value, t reflect.Type, f *field) reflect.Value {
	if d.where == nil {
		d.where = &location{}
	}
	sub := v
	for k, ix := range f.index {
		if sub.Kind() == reflect.Pointer {
			if sub.IsNil() {
				if !sub.CanSet() {
					d.save(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %v", sub.Type().Elem()))
					sub = reflect.Value{}
					break
				}
				sub.Set(reflect.New(sub.Type().Elem()))
			}
			sub = sub.Elem()
		}
		if k < len(f.index)-1 {
			d.where.path = append(d.where.path, sub.Type().Field(ix).Name)
		}
		sub = sub.Field(ix)
	}
	d.where.typ = t
	d.where.path = append(d.where.path, f.name)
	return sub
}

// setMapIndex stores a decoded member in map m under its key, converted to the key type (a
// string, or a whole number in decimal). offset is just after the key's opening quote.
func (d *decoder) setMapIndex(m reflect.Value, key []byte, elem reflect.Value, offset int) {
	kt := m.Type().Key()
	kv := reflect.New(kt).Elem()
	s := string(key)
	switch k := kt.Kind(); {
	case k == reflect.String:
		kv.SetString(s)
	case k <= reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || kt.OverflowInt(n) {
			d.save(typeError("number "+s, kt, offset))
			return
		}
		kv.SetInt(n)
	default:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || kt.OverflowUint(n) {
			d.save(typeError("number "+s, kt, offset))
			return
		}
		kv.SetUint(n)
	}
	m.SetMapIndex(kv, elem)
}

// literal stores a string, number, true, false or null in v; end is the offset after it.
func (d *decoder) literal(item []byte, v reflect.Value, end int) error {
	u, v := indirect(v, item[0] == 'n')
	if u != nil {
		return u.UnmarshalJSON(item)
	}
	k := v.Kind()
	switch c := item[0]; {
	case c == 'n':
		if k == reflect.Interface || k == reflect.Pointer || k == reflect.Map || k == reflect.Slice {
			v.SetZero()
		}
	case c == 't' || c == 'f':
		switch {
		case k == reflect.Bool:
			v.SetBool(c == 't')
		case k == reflect.Interface && v.NumMethod() == 0:
			v.Set(reflect.ValueOf(c == 't'))
		default:
			d.save(typeError("bool", v.Type(), end))
		}
	case c == '"':
		s := unquote(item)
		switch {
		case k == reflect.String:
			if v.Type() == numberType && !validNumber(string(s)) {
				return fmt.Errorf("json: invalid number literal, trying to unmarshal %q into Number", item)
			}
			v.SetString(string(s))
		case k == reflect.Interface && v.NumMethod() == 0:
			v.Set(reflect.ValueOf(string(s)))
		case k == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
			return fmt.Errorf("jsoncodec: decoding base64 into %v is not supported", v.Type())
		default:
			d.save(typeError("string", v.Type(), end))
		}
	default:
		d.number(string(item), v, end)
	}
	return nil
}

func (d *decoder) number(s string, v reflect.Value, end int) {
	switch k := v.Kind(); {
	case k == reflect.Interface:
		n, err := d.anyNumber(s, end)
		switch {
		case err != nil:
			d.save(err)
		case v.NumMethod() != 0:
			d.save(typeError("number", v.Type(), end))
		default:
			v.Set(reflect.ValueOf(n))
		}
	case k >= reflect.Int && k <= reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v.OverflowInt(n) {
			d.save(typeError("number "+s, v.Type(), end))
			return
		}
		v.SetInt(n)
	case k >= reflect.Uint && k <= reflect.Uintptr:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v.OverflowUint(n) {
			d.save(typeError("number "+s, v.Type(), end))
			return
		}
		v.SetUint(n)
	case k == reflect.Float32 || k == reflect.Float64:
		n, err := strconv.ParseFloat(s, v.Type().Bits())
		if err != nil || v.OverflowFloat(n) {
			d.save(typeError("number "+s, v.Type(), end))
			return
		}
		v.SetFloat(n)
	case k == reflect.String && v.Type() == numberType:
		v.SetString(s)
	default:
		d.save(typeError("number", v.Type(), end))
	}
}

// anyNumber is a number as an interface holds it: json.Number with UseNumber, else float64.
func (d *decoder) anyNumber(s string, end int) (any, error) {
	if d.useNumber {
		return json.Number(s), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, typeError("number "+s, reflect.TypeFor[float64](), end+1)
	}
	return f, nil
}

// unquote decodes a valid JSON string literal: escapes resolved, a lone surrogate or an
// invalid UTF-8 byte replaced by U+FFFD.
func unquote(q []byte) []byte {
	s := q[1 : len(q)-1]
	plain := true
	for i := 0; i < len(s) && plain; {
		c := s[i]
		if c == '\\' {
			plain = false
			break
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		plain = !(r == utf8.RuneError && n == 1)
		i += n
	}
	if plain {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			c = s[i+1]
			i += 2
			switch c {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(s[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				out = append(out, c)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			out = utf8.AppendRune(out, r)
			i += n
		}
	}
	return out
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// validNumber reports whether s is a number in JSON's grammar.
func validNumber(s string) bool {
	v := validator{data: []byte(s)}
	if s == "" || !(s[0] == '-' || isDigit(s[0])) {
		return false
	}
	end, err := v.number(0)
	return err == nil && end == len(s)
}
