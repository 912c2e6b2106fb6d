// Package envelope defines the one result shape every command returns in every front end:
// {"ok","data","error","warnings"}, and the stable list of error codes.
package envelope

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Result is the envelope. Data is nil when OK is false; Error is nil when OK is true;
// Warnings is never nil, so it always marshals as an array.
type Result struct {
	OK       bool     `json:"ok"`
	Data     any      `json:"data"`
	Error    *Error   `json:"error"`
	Warnings []string `json:"warnings"`
}

// Error is the error object of a failed result.
type Error struct {
	Code     Code           `json:"code"`
	Message  string         `json:"message"`
	Hint     string         `json:"hint,omitempty"`
	Examples []string       `json:"examples,omitempty"`
	Context  map[string]any `json:"context,omitempty"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Success wraps data and warnings.
func Success(data any, warnings []string) Result {
	return Result{OK: true, Data: data, Warnings: nonNil(warnings)}
}

// Failure wraps an error; warnings gathered before the failure are kept.
func Failure(err error, warnings []string) Result {
	return Result{OK: false, Error: FromError(err), Warnings: nonNil(warnings)}
}

func nonNil(w []string) []string {
	if w == nil {
		return []string{}
	}
	return w
}

// New builds an error object.
func New(code Code, message, hint string, examples ...string) *Error {
	return &Error{Code: code, Message: message, Hint: hint, Examples: examples}
}

// With returns e with one context key set.
func (e *Error) With(key string, value any) *Error {
	if e.Context == nil {
		e.Context = map[string]any{}
	}
	e.Context[key] = value
	return e
}

// FromError converts any error into an envelope error: envelope errors pass through, domain
// errors keep their code and position, anything else is an internal_error.
func FromError(err error) *Error {
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	var me *model.Error
	if errors.As(err, &me) {
		return fromModel(me)
	}
	return New(InternalError, err.Error(), "This is a fault in cgt, not in your input; please report it with the input that caused it.")
}

func fromModel(me *model.Error) *Error {
	e := &Error{Code: Code(me.Code), Message: me.Error(), Hint: me.Hint, Examples: me.Examples}
	if !e.Code.Valid() {
		e.Code = InternalError
	}
	for k, v := range me.Context {
		e.With(k, v)
	}
	if me.File != "" {
		e.With("file", me.File)
	}
	if me.Line > 0 {
		e.With("line", me.Line)
	}
	if me.Column > 0 {
		e.With("column", me.Column)
	}
	if me.Value != "" {
		e.With("value", me.Value)
	}
	return e
}

// Errorf is a shorthand for New with a formatted message.
func Errorf(code Code, hint string, format string, args ...any) *Error {
	return New(code, fmt.Sprintf(format, args...), hint)
}

// MarshalIndent renders a result the way every front end prints it: 2-space indent, no HTML
// escaping, trailing newline.
func MarshalIndent(r Result) []byte {
	var b bytes.Buffer
	if err := WriteIndent(&b, r); err != nil {
		b.Reset()
		_ = WriteIndent(&b, Failure(err, r.Warnings))
	}
	return b.Bytes()
}

// MarshalCompact renders a result on one line (for JSON-RPC text content and logs).
func MarshalCompact(r Result) []byte { return AppendCompact(nil, r) }

// AppendCompact is MarshalCompact writing after dst's bytes, in dst's spare capacity when it
// is enough (a server answering many calls reuses one buffer).
func AppendCompact(dst []byte, r Result) []byte {
	b := bytes.NewBuffer(dst)
	if err := WriteCompact(b, r); err != nil {
		b.Truncate(len(dst))
		_ = WriteCompact(b, Failure(err, r.Warnings))
	}
	return b.Bytes()
}

func marshal(v any, indent string) ([]byte, error) {
	var buf jsonBuffer
	enc := NewEncoder(&buf)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.b, nil
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }
