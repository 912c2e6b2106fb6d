//go:build !js

package envelope

import (
	"reflect"

	"github.com/cgt-tools/cgt/internal/jsontext"
)

// The browser module leaves lists of strings to encoding/json (strings_js.go): its reports
// are small, and the writer below is about 1 KB of its gzipped size.

// plainStrings reports whether t is a slice of strings that encoding/json writes as they
// are (neither the slice nor its elements encode themselves).
func plainStrings(t reflect.Type) bool {
	return t.Elem().Kind() == reflect.String && !marshals(t) && !marshals(t.Elem())
}

// appendStrings appends a list of plain strings (the warnings run to thousands of lines) as
// encoding/json writes it at level, without its encoder and indenter passing over it.
func (s *streamer) appendStrings(b []byte, v reflect.Value, level int) []byte {
	switch {
	case v.IsNil():
		return append(b, "null"...)
	case v.Len() == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i := range v.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		if s.indent {
			b = append(b, newlineIndent(level+1)...)
		}
		b = jsontext.AppendString(b, v.Index(i).String(), false)
	}
	if s.indent {
		b = append(b, newlineIndent(level)...)
	}
	return append(b, ']')
}
