package envelope

import (
	"bufio"
	"bytes"
	"encoding"
	"io"
	"reflect"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/internal/jsontext"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// WriteIndent writes a result exactly as MarshalIndent renders it, without holding the whole
// text in memory: the envelope and the outer levels of its data are written field by field and
// element by element, and only values nested deeper (one disposal, one pool) are encoded whole.
// A report of a million-line ledger is about a gigabyte of JSON; written this way its output
// needs memory for a few elements at a time. The elements of a long list are encoded by
// one goroutine per processor, a chunk at a time, while the chunks already encoded are
// written in order, so writing overlaps encoding. A value that writes its own JSON
// (Appender) is not reflected over.
//
// If a value fails to encode, WriteIndent stops and returns the error; what was written before
// stays written. Callers that must not emit a partial document write to a buffer or a
// temporary file first.
func WriteIndent(w io.Writer, r Result) error { return write(w, r, true) }

// WriteCompact writes a result on one line, as encoding/json's Encoder renders it (with its
// trailing newline), in the same way as WriteIndent.
func WriteCompact(w io.Writer, r Result) error { return write(w, r, false) }

func write(w io.Writer, r Result, indent bool) error {
	var out output
	var flush func() error
	if b, ok := w.(*bytes.Buffer); ok {
		out = b
	} else if m, ok := w.(MemoryWriter); ok {
		out = m
	} else {
		b := bufio.NewWriterSize(w, 64<<10)
		out, flush = b, b.Flush
	}
	s := newStreamer(out, indent)
	s.value(reflect.ValueOf(r), 0, 0)
	if s.err == nil {
		s.write("\n")
	}
	if flush != nil {
		if err := flush(); s.err == nil {
			s.err = err
		}
	}
	return s.err
}

// MemoryWriter is a writer that keeps what it is given in memory (as a bytes.Buffer does), or
// checks and counts it: WriteIndent and WriteCompact write to it directly, in small pieces,
// rather than through a buffer of their own. A Write or WriteString error stops the writing.
type MemoryWriter interface {
	io.Writer
	io.StringWriter
	InMemory()
}

// Appender is a value that writes its own JSON, byte for byte as encoding/json (without HTML
// escaping) would write it: indented by two spaces a level from level, its first line not
// indented, or on one line when indent is false. The report's per-row types implement it.
type Appender interface {
	AppendJSON(b []byte, level int, indent bool) []byte
}

// walkDepth is how many levels of structs are written field by field; values below it are
// encoded whole. Three levels reach the envelope, the command's data and its per-year or
// per-ticker entries, so the large lists (disposals, pool history) are written one element
// at a time.
const walkDepth = 3

type streamer struct {
	w       output
	indent  bool
	scratch []byte // an Appender's output, reused
	buf     bytes.Buffer
	enc     *json.Encoder
	err     error
	// workers are the streamers of the last array written at once (atonce.go), kept with
	// their grown buffers for the next: a report writes one such array a tax year.
	workers []*streamer
	serial  bool // a worker's streamer: its own arrays are written one by one
}

// output is where a streamer writes: the caller's buffered writer, or a worker's buffer.
type output interface {
	io.Writer
	io.StringWriter
}

func newStreamer(w output, indent bool) *streamer {
	s := &streamer{w: w, indent: indent}
	s.enc = NewEncoder(&s.buf)
	return s
}

func (s *streamer) write(str string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(str)
	}
}

// newline starts a line at the given level (nothing when compact).
func (s *streamer) newline(level int) {
	if s.indent {
		s.write(newlineIndent(level))
	}
}

// newlineIndents is a new line and the spaces of the levels a report reaches, sliced for each
// level rather than built for every line.
const newlineIndents = "\n                                "

// newlineIndent is a new line followed by the indentation of level.
func newlineIndent(level int) string {
	if n := 1 + 2*level; n <= len(newlineIndents) {
		return newlineIndents[:n]
	}
	return "\n" + indent(level)
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
		case v.Kind() == reflect.Slice && !v.IsNil() && (walkable(v.Type().Elem()) || appends(v.Type().Elem())):
			s.array(v, level, depth)
		default:
			s.whole(v, level)
		}
		return
	}
}

// object writes a struct's fields as encoding/json would: exported fields in order (those of
// embedded structs in their place), named by their json tag, omitempty honoured.
func (s *streamer) object(v reflect.Value, level, depth int) {
	first := true
	for _, f := range fieldsOf(v.Type()) {
		if s.err != nil {
			return
		}
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil || f.omitEmpty && jsontext.Empty(fv) { // err: a nil embedded pointer
			continue
		}
		if first {
			s.write("{")
			first = false
		} else {
			s.write(",")
		}
		s.newline(level + 1)
		s.write(f.key)
		if s.indent {
			s.write(" ")
		}
		s.value(fv, level+1, depth+1)
	}
	if first {
		s.write("{}")
		return
	}
	s.newline(level)
	s.write("}")
}

func (s *streamer) array(v reflect.Value, level, depth int) {
	if v.Len() == 0 {
		s.write("[]")
		return
	}
	s.write("[")
	if !s.elementsAtOnce(v, level, depth) {
		for i := 0; i < v.Len() && s.err == nil; i++ {
			s.element(v, i, level, depth)
		}
	}
	s.newline(level)
	s.write("]")
}

// element writes the i-th element of array v, after the separator if it is not the first.
func (s *streamer) element(v reflect.Value, i, level, depth int) {
	if i > 0 {
		s.write(",")
	}
	s.newline(level + 1)
	s.value(v.Index(i), level+1, depth)
}

// parallelElems is the length from which an array's elements are encoded by several
// goroutines (atonce.go); perChunk is how many one goroutine encodes at a time.
const (
	parallelElems = 256
	perChunk      = 128
)

// chunk is a worker's output in elementsAtOnce: the bytes of the elements it encoded, to
// which an Appender appends directly.
type chunk struct{ b []byte }

func (c *chunk) Write(p []byte) (int, error) { c.b = append(c.b, p...); return len(p), nil }

func (c *chunk) WriteString(s string) (int, error) { c.b = append(c.b, s...); return len(s), nil }

func (s *streamer) writeBytes(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

// whole encodes v as one value, indented to sit at the given level: through its own
// AppendJSON when it has one, otherwise with encoding/json. An addressable value is passed
// by pointer so that pointer-receiver methods apply, as they would have for the same value
// inside a whole-document encoding.
func (s *streamer) whole(v reflect.Value, level int) {
	if s.err != nil {
		return
	}
	var x any
	switch {
	case !v.IsValid():
	case v.CanAddr():
		x = v.Addr().Interface()
	default:
		x = v.Interface()
	}
	if a, ok := x.(Appender); ok {
		if c, ok := s.w.(*chunk); ok { // appended in place, not copied from scratch
			c.b = a.AppendJSON(c.b, level, s.indent)
			return
		}
		s.scratch = a.AppendJSON(s.scratch[:0], level, s.indent)
		s.writeBytes(s.scratch)
		return
	}
	if v.IsValid() && v.Kind() == reflect.Slice && plainStrings(v.Type()) {
		s.scratch = s.appendStrings(s.scratch[:0], v, level)
		s.writeBytes(s.scratch)
		return
	}
	if v.IsValid() && v.Kind() == reflect.String && !marshals(v.Type()) {
		// A plain string (an imported ledger's text runs to megabytes) is quoted as
		// encoding/json quotes it, without its encoder and indenter passing over it.
		s.scratch = jsontext.AppendString(s.scratch[:0], v.String(), false)
		s.writeBytes(s.scratch)
		return
	}
	s.buf.Reset()
	if s.indent {
		s.enc.SetIndent(indent(level), "  ")
	} else {
		s.enc.SetIndent("", "")
	}
	if s.err = s.enc.Encode(x); s.err == nil {
		_, s.err = s.w.Write(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
	}
}

func indent(level int) string { return strings.Repeat("  ", level) }

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	appender      = reflect.TypeFor[Appender]()
)

// marshals reports whether t (or *t) encodes itself.
func marshals(t reflect.Type) bool {
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(jsonMarshaler) || u.Implements(textMarshaler) || u.Implements(appender) {
			return true
		}
	}
	return false
}

// appends reports whether t or *t writes its own JSON (Appender).
func appends(t reflect.Type) bool {
	return t.Implements(appender) || t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(appender)
}

// walkable reports whether values of t (through pointers) are structs this writer can lay
// out field by field: no marshaler, no tag options it does not follow, and embedded structs
// whose fields it can place as encoding/json does (see fieldsOf). Anything else is left to
// encoding/json whole.
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
	return fieldsOf(t) != nil
}

// field is one member of a walked struct: where it is (through embedded structs), its key
// written as `"name": ` (or `"name":`), and whether omitempty applies.
type field struct {
	index     []int
	key       string
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type → []field (nil: not walkable)

// fieldsOf lists the members of struct type t in encoding/json's order, with the fields of
// untagged embedded structs in their place; nil when t has a field this writer does not
// follow (a string or omitzero option, a tagged embedded struct, an embedded non-struct, or
// two members of one name, which encoding/json resolves by rules not copied here).
func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	fs, ok := collectFields(t, nil, map[reflect.Type]bool{})
	if ok {
		seen := map[string]bool{}
		for _, f := range fs {
			if seen[f.key] {
				ok = false
			}
			seen[f.key] = true
		}
	}
	if !ok {
		fs = nil
	} else if fs == nil {
		fs = []field{}
	}
	fieldCache.Store(t, fs)
	return fs
}

func collectFields(t reflect.Type, at []int, visiting map[reflect.Type]bool) ([]field, bool) {
	if visiting[t] {
		return nil, false
	}
	visiting[t] = true
	defer delete(visiting, t)
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(opts, "string") || strings.Contains(opts, "omitzero") {
			return nil, false
		}
		index := append(append([]int(nil), at...), i)
		if f.Anonymous {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if name != "" || et.Kind() != reflect.Struct || marshals(f.Type) {
				if !f.IsExported() && et.Kind() != reflect.Struct {
					continue // encoding/json ignores embedded unexported non-structs
				}
				return nil, false
			}
			inner, ok := collectFields(et, index, visiting)
			if !ok {
				return nil, false
			}
			out = append(out, inner...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := false
		for _, o := range strings.Split(opts, ",") {
			omit = omit || o == "omitempty"
		}
		out = append(out, field{index: index, key: quotedKey(name), omitEmpty: omit})
	}
	return out, true
}

// quotedKey is the key as encoding/json writes it, followed by the colon (the indenting
// writer adds a space after it).
func quotedKey(name string) string {
	b, _ := Marshal(name)
	return string(b) + ":"
}
