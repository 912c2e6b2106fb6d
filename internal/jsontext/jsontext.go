// Package jsontext writes JSON strings exactly as encoding/json does, for the writers that
// build JSON by hand (the report's rows, the MCP server's responses) without reflection, and
// reads a plain JSON object's members as encoding/json does, for the servers' requests.
package jsontext

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s quoted s as encoding/json does: ", \ and control characters escaped (\b,
// \f, \n, \r, \t by name, the rest as \u00XX), invalid UTF-8 as \ufffd, U+2028 and U+2029
// escaped, and with html also <, > and &.
func AppendString[S []byte | string](dst []byte, s S, html bool) []byte {
	dst = append(dst, '"')
	start := 0
	safe := &safeSet
	if html {
		safe = &htmlSafeSet
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// safeSet holds the ASCII bytes written as they are; htmlSafeSet also leaves out <, > and &.
var safeSet, htmlSafeSet = func() (plain, html [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
		html[c] = plain[c] && c != '<' && c != '>' && c != '&'
	}
	return plain, html
}()
