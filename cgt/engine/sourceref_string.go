package engine

import (
	"cmp"
	"strconv"
)

// String writes the reference as it is cited: file:line, or file[index] for a JSON array
// (input or transactions without a file).
func (s SourceRef) String() string {
	b, _ := s.AppendText(nil)
	return string(b)
}

// AppendText appends String's text to b (encoding.TextAppender): a report's records write
// millions of them without a string each.
func (s SourceRef) AppendText(b []byte) ([]byte, error) {
	switch {
	case s.Line > 0:
		b = append(b, cmp.Or(s.File, "input")...)
		b = append(b, ':')
		return strconv.AppendInt(b, int64(s.Line), 10), nil
	case s.Index != nil:
		b = append(b, cmp.Or(s.File, "transactions")...)
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(*s.Index), 10)
		return append(b, ']'), nil
	}
	return append(b, s.File...), nil
}
