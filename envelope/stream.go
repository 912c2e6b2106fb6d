package envelope

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
)

// WriteIndent writes a result exactly as MarshalIndent renders it, without holding the whole
// text in memory: the envelope and the outer levels of its data are written field by field and
// element by element, and only values nested deeper (one disposal, one pool) are encoded whole.
// A report of a million-line ledger is about a gigabyte of JSON; written this way its output
// needs memory for a few elements at a time. The elements of a long list are encoded by
// one goroutine per processor, a round of them at a time, and written in order.
//
// If a value fails to encode, WriteIndent stops and returns the error; what was written before
// stays written. Callers that must not emit a partial document write to a buffer or a
// temporary file first.
func WriteIndent(w io.Writer, r Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := newStreamer(bw)
	s.value(reflect.ValueOf(r), 0, 0)
	if s.err == nil {
		s.write("\n")
	}
	if err := bw.Flush(); s.err == nil {
		s.err = err
	}
	return s.err
}

// walkDepth is how many levels of structs are written field by field; values below it are
// encoded whole. Three levels reach the envelope, the command's data and its per-year or
// per-ticker entries, so the large lists (disposals, pool history) are written one element
// at a time.
const walkDepth = 3

type streamer struct {
	w   output
	buf bytes.Buffer
	enc *json.Encoder
	err error
}

// output is where a streamer writes: the caller's buffered writer, or a worker's buffer.
type output interface {
	io.Writer
	io.StringWriter
}

func newStreamer(w output) *streamer {
	s := &streamer{w: w}
	s.enc = NewEncoder(&s.buf)
	return s
}

func (s *streamer) write(str string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(str)
	}
}

// value writes v at nesting level (indentation) level; depth counts the structs walked.
func (s *streamer) value(v reflect.Value, level, depth int) {
	for s.err == nil {
		switch {
		case !v.IsValid():
			s.write("null")
		case (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && !marshals(v.Type()):
			if v.IsNil() {
				s.write("null")
				return
			}
			v = v.Elem()
			continue
		case v.Kind() == reflect.Struct && depth < walkDepth && walkable(v.Type()):
			s.object(v, level, depth)
		case v.Kind() == reflect.Slice && !v.IsNil() && walkable(v.Type().Elem()):
			s.array(v, level, depth)
		default:
			s.whole(v, level)
		}
		return
	}
}

// object writes a struct's fields as encoding/json would: exported fields in order, named by
// their json tag, omitempty honoured.
func (s *streamer) object(v reflect.Value, level, depth int) {
	t := v.Type()
	inner := indent(level + 1)
	first := true
	for i := 0; i < t.NumField() && s.err == nil; i++ {
		name, omitEmpty, ok := fieldName(t.Field(i))
		fv := v.Field(i)
		if !ok || omitEmpty && isEmpty(fv) {
			continue
		}
		if first {
			s.write("{\n")
			first = false
		} else {
			s.write(",\n")
		}
		s.write(inner)
		s.whole(reflect.ValueOf(name), level+1)
		s.write(": ")
		s.value(fv, level+1, depth+1)
	}
	if first {
		s.write("{}")
		return
	}
	s.write("\n" + indent(level) + "}")
}

func (s *streamer) array(v reflect.Value, level, depth int) {
	if v.Len() == 0 {
		s.write("[]")
		return
	}
	s.write("[\n")
	if workers := runtime.GOMAXPROCS(0); workers > 1 && v.Len() >= parallelElems && encodedWhole(v.Type().Elem(), depth) {
		s.elementsAtOnce(v, level, depth, workers)
	} else {
		for i := 0; i < v.Len() && s.err == nil; i++ {
			s.element(v, i, level, depth)
		}
	}
	s.write("\n" + indent(level) + "]")
}

// element writes the i-th element of array v, after the separator if it is not the first.
func (s *streamer) element(v reflect.Value, i, level, depth int) {
	if i > 0 {
		s.write(",\n")
	}
	s.write(indent(level + 1))
	s.value(v.Index(i), level+1, depth)
}

// parallelElems is the length from which an array's elements are encoded by several
// goroutines; perWorker is how many each encodes in one round.
const (
	parallelElems = 256
	perWorker     = 128
)

// elementsAtOnce writes the elements of a long array, encoding them in rounds of perWorker
// elements per worker, each worker into its own buffer, and writing the buffers in order.
// Each element is written exactly as element writes it, so the output is the same as the
// one-by-one loop's; an element that fails to encode stops the output where the loop would
// have stopped.
func (s *streamer) elementsAtOnce(v reflect.Value, level, depth, workers int) {
	ws := make([]*streamer, workers)
	for w := range ws {
		ws[w] = newStreamer(&bytes.Buffer{})
	}
	for lo := 0; lo < v.Len() && s.err == nil; lo += workers * perWorker {
		var wg sync.WaitGroup
		for w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ws[w].encodeRange(v, lo+w*perWorker, min(lo+(w+1)*perWorker, v.Len()), level, depth)
			}()
		}
		wg.Wait()
		for w := range ws {
			buf := ws[w].w.(*bytes.Buffer)
			s.writeBytes(buf.Bytes())
			if ws[w].err != nil && s.err == nil {
				s.err = ws[w].err
			}
		}
	}
}

// encodeRange encodes elements [lo, hi) into the worker's buffer, from scratch, stopping at
// the first that fails.
func (s *streamer) encodeRange(v reflect.Value, lo, hi, level, depth int) {
	s.w.(*bytes.Buffer).Reset()
	s.err = nil
	for i := lo; i < hi && s.err == nil; i++ {
		s.element(v, i, level, depth)
	}
}

func (s *streamer) writeBytes(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

// encodedWhole reports whether every element of type t at this depth is handed to
// encoding/json whole (see value), which makes elements independent of one another.
func encodedWhole(t reflect.Type, depth int) bool {
	for t.Kind() == reflect.Pointer && !marshals(t) {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Interface:
		return false
	case t.Kind() == reflect.Struct && depth < walkDepth && walkable(t):
		return false
	case t.Kind() == reflect.Slice && walkable(t.Elem()):
		return false
	}
	return true
}

// whole encodes v with encoding/json, indented to sit at the given level. An addressable
// value is passed by pointer so that pointer-receiver marshalers apply, as they would have
// for the same value inside a whole-document encoding.
func (s *streamer) whole(v reflect.Value, level int) {
	if s.err != nil {
		return
	}
	s.buf.Reset()
	s.enc.SetIndent(indent(level), "  ")
	var x any
	switch {
	case !v.IsValid():
	case v.CanAddr():
		x = v.Addr().Interface()
	default:
		x = v.Interface()
	}
	if s.err = s.enc.Encode(x); s.err == nil {
		_, s.err = s.w.Write(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
	}
}

func indent(level int) string { return strings.Repeat("  ", level) }

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshals reports whether t (or *t) encodes itself.
func marshals(t reflect.Type) bool {
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(jsonMarshaler) || u.Implements(textMarshaler) {
			return true
		}
	}
	return false
}

// walkable reports whether values of t (through pointers) are structs this writer can lay
// out field by field: no marshaler, no embedded fields, no tag options it does not follow.
// Anything else is left to encoding/json whole.
func walkable(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		if marshals(t) {
			return false
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return t.NumMethod() == 0
	}
	if t.Kind() != reflect.Struct || marshals(t) {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return false
		}
		tag := f.Tag.Get("json")
		if _, opts, _ := strings.Cut(tag, ","); strings.Contains(opts, "string") || strings.Contains(opts, "omitzero") {
			return false
		}
	}
	return true
}

// fieldName gives the JSON name of an exported, non-skipped field.
func fieldName(f reflect.StructField) (name string, omitEmpty, ok bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	for _, o := range strings.Split(opts, ",") {
		omitEmpty = omitEmpty || o == "omitempty"
	}
	return name, omitEmpty, true
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
