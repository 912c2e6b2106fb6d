package jsoncodec

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/internal/jsontext"
	"github.com/cgt-tools/cgt/internal/order"
)

// Marshal encodes v as encoding/json.Marshal does, <, > and & escaped.
func Marshal(v any) ([]byte, error) {
	e := encoder{html: true}
	if err := e.value(reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return e.buf, nil
}

type encoder struct {
	buf  []byte
	html bool
	// depth counts the pointers, maps and slices entered; past cycleCheckDepth each is
	// remembered so that a cycle is reported rather than followed for ever.
	depth int
	seen  map[visit]struct{}
	// quoted writes the bool, number or string being written inside a JSON string, for a
	// field with the ",string" option.
	quoted bool
}

const cycleCheckDepth = 1000

type visit struct {
	typ reflect.Type
	ptr uintptr
	n   int
}

// methods says whether a type has MarshalJSON, on the value or only on a pointer to it.
// (MarshalText is not consulted: see the package comment.)
type methods uint8

const (
	ptrJSON methods = 1 << iota
	valueJSON
)

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	methodCache   sync.Map // reflect.Type -> methods
)

func methodsOf(t reflect.Type) methods {
	if m, ok := methodCache.Load(t); ok {
		return m.(methods)
	}
	var m methods
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(marshalerType) {
		m |= ptrJSON
	}
	if t.Implements(marshalerType) {
		m |= valueJSON
	}
	methodCache.Store(t, m)
	return m
}

func (e *encoder) null() { e.buf = append(e.buf, "null"...) }

func (e *encoder) value(v reflect.Value) error {
	if !v.IsValid() {
		e.null()
		return nil
	}
	return e.typed(v, methodsOf(v.Type()))
}

// typed writes v, whose type's MarshalJSON methods m the caller has looked up already (a
// struct field's, a slice's or a map's element type).
func (e *encoder) typed(v reflect.Value, m methods) error {
	t := v.Type()
	switch {
	case m&ptrJSON != 0 && v.CanAddr():
		return e.marshalJSON(v.Addr(), t)
	case m&valueJSON != 0:
		return e.marshalJSON(v, t)
	}
	switch k := v.Kind(); {
	case k == reflect.Bool || k >= reflect.Int && k <= reflect.Float64 || k == reflect.String:
		return e.scalar(v)
	case k == reflect.Interface:
		if v.IsNil() {
			e.null()
			return nil
		}
		return e.value(v.Elem())
	case k == reflect.Struct:
		return e.structure(v)
	case k == reflect.Map:
		return e.mapping(v)
	case k == reflect.Slice || k == reflect.Array || k == reflect.Pointer:
		return e.sequence(v)
	default:
		return &json.UnsupportedTypeError{Type: t}
	}
}

// marshalJSON writes what v's MarshalJSON returns, validated and compacted.
func (e *encoder) marshalJSON(v reflect.Value, t reflect.Type) error {
	m, ok := asInterface(v).(json.Marshaler)
	if !ok {
		e.null()
		return nil
	}
	b, err := m.MarshalJSON()
	if err == nil {
		e.buf, err = appendCompact(e.buf, b, e.html)
	}
	if err != nil {
		return &json.MarshalerError{Type: t, Err: err}
	}
	return nil
}

// asInterface is v as an interface, nil for a nil pointer or interface.
func asInterface(v reflect.Value) any {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return nil
	}
	return v.Interface()
}

// scalar writes a bool, number or string, inside a JSON string for a ",string" field.
func (e *encoder) scalar(v reflect.Value) error {
	if e.quoted && v.Kind() == reflect.String && v.Type() != numberType {
		e.buf = jsontext.AppendString(e.buf, jsontext.AppendString(nil, v.String(), e.html), false)
		return nil
	}
	if e.quoted {
		e.buf = append(e.buf, '"')
	}
	var err error
	switch k := v.Kind(); {
	case k == reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case k >= reflect.Int && k <= reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case k >= reflect.Uint && k <= reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case k == reflect.String:
		err = e.string(v)
	default:
		err = e.float(v)
	}
	if e.quoted {
		e.buf = append(e.buf, '"')
	}
	return err
}

func (e *encoder) float(v reflect.Value) error {
	f, bits := v.Float(), v.Type().Bits()
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &json.UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	format, abs := byte('f'), math.Abs(f)
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	e.buf = strconv.AppendFloat(e.buf, f, format, -1, bits)
	if n := len(e.buf); format == 'e' && e.buf[n-4] == 'e' && e.buf[n-3] == '-' && e.buf[n-2] == '0' {
		// e-07 is written e-7.
		e.buf[n-2] = e.buf[n-1]
		e.buf = e.buf[:n-1]
	}
	return nil
}

func (e *encoder) string(v reflect.Value) error {
	if v.Type() != numberType {
		e.buf = jsontext.AppendString(e.buf, v.String(), e.html)
		return nil
	}
	n := v.String()
	if n == "" {
		n = "0"
	}
	if !validNumber(n) {
		return fmt.Errorf("json: invalid number literal %q", n)
	}
	e.buf = append(e.buf, n...)
	return nil
}

func (e *encoder) structure(v reflect.Value) error {
	si := structOf(v.Type())
	sep := byte('{')
next:
	for i := range si.fields {
		f := &si.fields[i]
		fv := v
		for _, ix := range f.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue next
				}
				fv = fv.Elem()
			}
			fv = fv.Field(ix)
		}
		if f.omitEmpty && jsontext.Empty(fv) || f.omitZero && zero(fv) {
			continue
		}
		e.buf = append(e.buf, sep)
		sep = ','
		if e.html {
			e.buf = append(e.buf, f.keyHTML...)
		} else {
			e.buf = append(e.buf, f.keyPlain...)
		}
		e.quoted = f.quoted
		err := e.typed(fv, f.methods)
		e.quoted = false
		if err != nil {
			return err
		}
	}
	if sep == '{' {
		e.buf = append(e.buf, '{')
	}
	e.buf = append(e.buf, '}')
	return nil
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zero is what omitzero leaves out: a value whose IsZero method says so (a nil pointer or
// interface too), else Go's zero value.
func zero(v reflect.Value) bool {
	t := v.Type()
	switch {
	case t.Implements(isZeroerType):
		if k := t.Kind(); (k == reflect.Pointer || k == reflect.Interface) && v.IsNil() ||
			k == reflect.Interface && v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() {
			return true
		}
		return v.Interface().(isZeroer).IsZero()
	case reflect.PointerTo(t).Implements(isZeroerType):
		if !v.CanAddr() {
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		return v.Addr().Interface().(isZeroer).IsZero()
	}
	return v.IsZero()
}

// enter counts one more pointer, map or slice entered and, deep down, checks for a cycle.
func (e *encoder) enter(v reflect.Value, n int) (visit, error) {
	e.depth++
	if e.depth <= cycleCheckDepth {
		return visit{}, nil
	}
	at := visit{v.Type(), v.Pointer(), n}
	if _, ok := e.seen[at]; ok {
		return at, &json.UnsupportedValueError{Value: v, Str: "encountered a cycle via " + v.Type().String()}
	}
	if e.seen == nil {
		e.seen = map[visit]struct{}{}
	}
	e.seen[at] = struct{}{}
	return at, nil
}

func (e *encoder) leave(at visit) {
	e.depth--
	if e.seen != nil {
		delete(e.seen, at)
	}
}

type member struct {
	_ [0]func()

	key string
	val reflect.Value
}

func (e *encoder) mapping(v reflect.Value) error {
	kt := v.Type().Key()
	if !keyKind(kt.Kind()) {
		return &json.UnsupportedTypeError{Type: v.Type()}
	}
	if v.IsNil() {
		e.null()
		return nil
	}
	at, err := e.enter(v, 0)
	if err != nil {
		return err
	}
	defer e.leave(at)
	members := make([]member, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k, err := keyName(it.Key())
		if err != nil {
			return fmt.Errorf("json: encoding error for type %q: %q", v.Type().String(), err.Error())
		}
		members = append(members, member{key: k, val: it.Value()})
	}
	order.Hot(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
	e.buf = append(e.buf, '{')
	em := methodsOf(v.Type().Elem())
	for i, m := range members {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(jsontext.AppendString(e.buf, m.key, e.html), ':')
		if err := e.typed(m.val, em); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// keyName is a map key as a member name: a string as it is, else a whole number in decimal.
func keyName(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if k.Kind() <= reflect.Int64 {
		return strconv.FormatInt(k.Int(), 10), nil
	}
	return strconv.FormatUint(k.Uint(), 10), nil
}

// sequence writes a pointer's target, a slice or an array.
func (e *encoder) sequence(v reflect.Value) error {
	kind := v.Kind()
	if kind != reflect.Array {
		if v.IsNil() {
			e.null()
			return nil
		}
		n := 0
		if kind == reflect.Slice {
			n = v.Len()
		}
		at, err := e.enter(v, n)
		if err != nil {
			return err
		}
		defer e.leave(at)
		if kind == reflect.Pointer {
			return e.value(v.Elem())
		}
		if et := v.Type().Elem(); et.Kind() == reflect.Uint8 && methodsOf(et) == 0 {
			e.buf = appendBase64(append(e.buf, '"'), v.Bytes())
			e.buf = append(e.buf, '"')
			return nil
		}
	}
	e.buf = append(e.buf, '[')
	em := methodsOf(v.Type().Elem())
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.typed(v.Index(i), em); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

// appendBase64 writes b in standard base64 with padding, as encoding/json writes a []byte.
func appendBase64(dst, b []byte) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(b); i += 3 {
		var n uint32
		k := min(3, len(b)-i)
		for j := 0; j < 3; j++ {
			n <<= 8
			if j < k {
				n |= uint32(b[i+j])
			}
		}
		for j := 0; j < 4; j++ {
			if j <= k {
				dst = append(dst, alphabet[n>>(18-6*j)&63])
			} else {
				dst = append(dst, '=')
			}
		}
	}
	return dst
}

// appendCompact appends the JSON text src without insignificant space, checking it as
// encoding/json checks what a MarshalJSON method returns (its errors carry no offset).
func appendCompact(dst, src []byte, html bool) ([]byte, error) {
	if err := (&validator{data: src}).whole(); err != nil {
		err.(*SyntaxError).Offset = 0
		return dst, err
	}
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case html && (c == '<' || c == '>' || c == '&'):
			dst = append(dst, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xF])
			continue
		case html && c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
			dst = append(dst, '\\', 'u', '2', '0', '2', "0123456789abcdef"[src[i+2]&0xF])
			i += 2
			continue
		case inString && c == '\\':
			dst = append(dst, c, src[i+1])
			i++
			continue
		case c == '"':
			inString = !inString
		case !inString && isSpace(c):
			continue
		}
		dst = append(dst, c)
	}
	return dst, nil
}

// indent lays out compact JSON as encoding/json's SetIndent does: a member or element per
// line, prefix and depth × indent after each line break, empty objects and arrays kept as {}
// and [].
func indent(dst, src []byte, prefix, step string) []byte {
	depth, opened := 0, false
	newline := func(depth int) {
		dst = append(append(dst, '\n'), prefix...)
		for i := 0; i < depth; i++ {
			dst = append(dst, step...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if opened && c != '}' && c != ']' {
			opened = false
			depth++
			newline(depth)
		}
		switch c {
		case '"':
			end := valueEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			opened = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline(depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if opened {
				opened = false
			} else {
				depth--
				newline(depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
