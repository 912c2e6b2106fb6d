package engine

import (
	"cmp"
	"strconv"
)

// String writes the reference as it is cited: file:line, or file[index] for a JSON array
// (input or transactions without a file).
func (s SourceRef) String() string {
	return string(s.AppendCite(nil))
}

// AppendCite appends String's text to b (records.Citer): a report's records write millions
// of them without a string each. It is not AppendText (encoding.TextAppender), which
// encoding/json/v2, and so Go 1.27's encoding/json, would write in place of the fields.
func (s SourceRef) AppendCite(b []byte) []byte {
	switch {
	case s.Line > 0:
		b = append(b, cmp.Or(s.File, "input")...)
		b = append(b, ':')
		return strconv.AppendInt(b, int64(s.Line), 10)
	case s.Index != nil:
		b = append(b, cmp.Or(s.File, "transactions")...)
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(*s.Index), 10)
		return append(b, ']')
	}
	return append(b, s.File...)
}
