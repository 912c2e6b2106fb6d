package model

import "fmt"

// Error codes the domain produces. They are the same strings as the envelope's stable codes.
const (
	CodeParse           = "parse_error"
	CodeValidation      = "validation_error"
	CodeNotFound        = "not_found"
	CodeFXUnavailable   = "fx_rate_unavailable"
	CodeInvalidArgument = "invalid_argument"
)

// Error is a domain failure with everything a user (or an agent) needs to fix the input: a
// stable code, a message naming what was given, a hint, a valid example and the position.
type Error struct {
	Code     string
	Message  string
	Hint     string
	Examples []string
	File     string // ledger file, when known
	Line     int    // 1-based ledger line, 0 when not applicable
	Column   int    // 1-based column, 0 when not applicable
	Value    string // the offending text
	Context  map[string]any
}

func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	return e.Message
}
