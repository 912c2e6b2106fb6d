package jsoncodec

import "strconv"

// SyntaxError is a JSON syntax error, worded as encoding/json words it. (encoding/json's own
// type keeps its message unexported, so it cannot be built here.)
type SyntaxError struct {
	msg    string
	Offset int64 // the error occurred after reading Offset bytes
}

func (e *SyntaxError) Error() string { return e.msg }

// maxDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxDepth = 10000

// validator checks one JSON text and reports the first error as encoding/json's scanner
// words it: the character (a space when the text ends early inside a number, literal or
// escape), what was expected, and the offset just after it.
type validator struct {
	data []byte
	// atEOF is set when the error arose from the end of the text rather than from a byte in
	// it; a stream reports those as io.ErrUnexpectedEOF.
	atEOF bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (s *validator) at(i int) byte {
	if i < len(s.data) {
		return s.data[i]
	}
	return ' '
}

func (s *validator) skip(i int) int { return skipSpace(s.data, i) }

func (s *validator) fail(i int, context string) error {
	s.atEOF = i >= len(s.data)
	return &SyntaxError{"invalid character " + quoteChar(s.at(i)) + " " + context, int64(min(i+1, len(s.data)))}
}

func (s *validator) eof() error {
	s.atEOF = true
	return &SyntaxError{"unexpected end of JSON input", int64(len(s.data))}
}

// whole validates data as one JSON value with nothing but space after it.
func (s *validator) whole() error {
	i, err := s.value(s.skip(0), 0)
	if err != nil {
		return err
	}
	if i = s.skip(i); i < len(s.data) {
		return s.fail(i, "after top-level value")
	}
	return nil
}

// value validates the value starting at i (no space before it) and returns where it ends.
func (s *validator) value(i, depth int) (int, error) {
	if i >= len(s.data) {
		return i, s.eof()
	}
	switch c := s.data[i]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return i, s.fail(i, "exceeded max depth")
		}
		if c == '{' {
			return s.object(i+1, depth+1)
		}
		return s.array(i+1, depth+1)
	case c == '"':
		return s.str(i + 1)
	case c == '-' || c >= '0' && c <= '9':
		return s.number(i)
	case c == 't':
		return s.word(i, "true")
	case c == 'f':
		return s.word(i, "false")
	case c == 'n':
		return s.word(i, "null")
	}
	return i, s.fail(i, "looking for beginning of value")
}

func (s *validator) object(i, depth int) (int, error) {
	var err error
	if i = s.skip(i); i < len(s.data) && s.data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(s.data) {
			return i, s.eof()
		}
		if s.data[i] != '"' {
			return i, s.fail(i, "looking for beginning of object key string")
		}
		if i, err = s.str(i + 1); err != nil {
			return i, err
		}
		if i = s.skip(i); i >= len(s.data) {
			return i, s.eof()
		}
		if s.data[i] != ':' {
			return i, s.fail(i, "after object key")
		}
		if i, err = s.value(s.skip(i+1), depth); err != nil {
			return i, err
		}
		if i = s.skip(i); i >= len(s.data) {
			return i, s.eof()
		}
		switch s.data[i] {
		case '}':
			return i + 1, nil
		case ',':
			i = s.skip(i + 1)
		default:
			return i, s.fail(i, "after object key:value pair")
		}
	}
}

func (s *validator) array(i, depth int) (int, error) {
	if i = s.skip(i); i < len(s.data) && s.data[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = s.value(i, depth); err != nil {
			return i, err
		}
		if i = s.skip(i); i >= len(s.data) {
			return i, s.eof()
		}
		switch s.data[i] {
		case ']':
			return i + 1, nil
		case ',':
			i = s.skip(i + 1)
		default:
			return i, s.fail(i, "after array element")
		}
	}
}

// str validates a string's body from i (after the opening quote) and returns the index after
// the closing quote.
func (s *validator) str(i int) (int, error) {
	for ; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return i, s.fail(i, "in string literal")
		case c == '\\':
			i++
			switch s.at(i) {
			case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
			case 'u':
				for k := 0; k < 4; k++ {
					if i++; !isHex(s.at(i)) {
						return i, s.fail(i, `in \u hexadecimal character escape`)
					}
				}
			default:
				return i, s.fail(i, "in string escape code")
			}
		}
	}
	return i, s.eof()
}

func isHex(c byte) bool   { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (s *validator) digits(i int) int {
	for i < len(s.data) && isDigit(s.data[i]) {
		i++
	}
	return i
}

func (s *validator) number(i int) (int, error) {
	if s.data[i] == '-' {
		if i++; !isDigit(s.at(i)) {
			return i, s.fail(i, "in numeric literal")
		}
	}
	if s.data[i] == '0' {
		i++
	} else {
		i = s.digits(i)
	}
	if s.at(i) == '.' {
		if i++; !isDigit(s.at(i)) {
			return i, s.fail(i, "after decimal point in numeric literal")
		}
		i = s.digits(i)
	}
	if c := s.at(i); c == 'e' || c == 'E' {
		if i++; s.at(i) == '+' || s.at(i) == '-' {
			i++
		}
		if !isDigit(s.at(i)) {
			return i, s.fail(i, "in exponent of numeric literal")
		}
		i = s.digits(i)
	}
	return i, nil
}

func (s *validator) word(i int, w string) (int, error) {
	for k := 1; k < len(w); k++ {
		if s.at(i+k) != w[k] {
			return i + k, s.fail(i+k, "in literal "+w+" (expecting "+quoteChar(w[k])+")")
		}
	}
	return i + len(w), nil
}

// quoteChar writes c as encoding/json's messages do: in single quotes, escaped as Go would.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}
