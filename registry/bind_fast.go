//go:build !js

package registry

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/internal/jsontext"
)

// plainObject is DecodeObject's result for an object whose members are all plain (a string
// without escapes, a number, true, false or null), read without reflection, as a tool
// server's calls mostly are; ok is false for any other input, which encoding/json reads.
func plainObject(raw []byte) (map[string]any, bool) {
	obj := map[string]any{}
	ok := jsontext.Object(raw, func(key, value []byte) bool {
		if !utf8.Valid(key) {
			return false // encoding/json writes the key with U+FFFD
		}
		var v any
		switch c := value[0]; {
		case c == '"':
			s, plain := jsontext.PlainString(value)
			if !plain {
				return false
			}
			v = s
		case c == 't':
			v = true
		case c == 'f':
			v = false
		case c == 'n':
			v = nil
		case c == '-' || c >= '0' && c <= '9':
			v = json.Number(value)
		default:
			return false
		}
		obj[string(key)] = v
		return true
	})
	return obj, ok
}
