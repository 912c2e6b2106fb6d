package jsontext

import (
	"bytes"
	"unicode/utf8"
)

// maxDepth is how deeply Object follows nested arrays and objects; deeper input is left to
// encoding/json (whose own limit is 10,000).
const maxDepth = 100

// Object reads data, JSON whitespace around it allowed, as one JSON object and calls member
// with each member's key, as written between its quotes, and its value's bytes, in order.
// It reports whether data is such an object, valid as encoding/json reads it, and every
// call returned true. A key written with a backslash escape, or values nested more than
// maxDepth deep, also make it false. It is the fast path of the servers' request reading:
// on false the caller decodes the general way, which also says what is wrong.
func Object(data []byte, member func(key, value []byte) bool) bool {
	end, ok := object(data, skipSpace(data, 0), 1, member)
	return ok && skipSpace(data, end) == len(data)
}

// PlainString is the text of the JSON string value v when it needs no unescaping and is
// valid UTF-8, so that it is exactly what encoding/json decodes; ok is false otherwise (not
// a string, an escape, invalid UTF-8).
func PlainString(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	in := v[1 : len(v)-1]
	if bytes.IndexByte(in, '\\') >= 0 || !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value returns the end of the JSON value starting at data[i].
func value(data []byte, i, depth int) (int, bool) {
	if i >= len(data) {
		return i, false
	}
	switch c := data[i]; {
	case c == '{':
		return object(data, i, depth+1, nil)
	case c == '[':
		return array(data, i, depth+1)
	case c == '"':
		return stringEnd(data, i)
	case c == 't':
		return literal(data, i, "true")
	case c == 'f':
		return literal(data, i, "false")
	case c == 'n':
		return literal(data, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return number(data, i)
	}
	return i, false
}

func object(data []byte, i, depth int, member func(key, value []byte) bool) (int, bool) {
	if depth > maxDepth || i >= len(data) || data[i] != '{' {
		return i, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for {
		ke, ok := stringEnd(data, i)
		if !ok {
			return i, false
		}
		key := data[i+1 : ke-1]
		i = skipSpace(data, ke)
		if i >= len(data) || data[i] != ':' {
			return i, false
		}
		vs := skipSpace(data, i+1)
		ve, ok := value(data, vs, depth)
		if !ok {
			return i, false
		}
		if member != nil && (bytes.IndexByte(key, '\\') >= 0 || !member(key, data[vs:ve])) {
			return i, false
		}
		i = skipSpace(data, ve)
		if i >= len(data) {
			return i, false
		}
		switch data[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipSpace(data, i+1)
		default:
			return i, false
		}
	}
}

func array(data []byte, i, depth int) (int, bool) {
	if depth > maxDepth {
		return i, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1, true
	}
	for {
		ve, ok := value(data, i, depth)
		if !ok {
			return i, false
		}
		i = skipSpace(data, ve)
		if i >= len(data) {
			return i, false
		}
		switch data[i] {
		case ']':
			return i + 1, true
		case ',':
			i = skipSpace(data, i+1)
		default:
			return i, false
		}
	}
}

// stringEnd returns the end of the string starting at data[i] (its opening quote). As in
// encoding/json, any byte from 0x20 up is allowed inside, invalid UTF-8 included.
func stringEnd(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return i, false
	}
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(data) {
				return i, false
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) || !isHex(data[i+1]) || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) {
					return i, false
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number returns the end of the number starting at data[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func number(data []byte, i int) (int, bool) {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && isDigit(data[i]):
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return i, false
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return i, false
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	return i, true
}

func literal(data []byte, i int, word string) (int, bool) {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}
