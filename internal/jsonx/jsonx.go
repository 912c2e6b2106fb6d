// Package jsonx is the JSON codec cgt's packages call: encoding/json in native programs, and
// in the browser module (or with the cgt_jsoncodec build tag, which runs the tests through
// it) internal/jsoncodec, which behaves the same in a fraction of the module's bytes. The
// types are encoding/json's in both, except SyntaxError, whose message encoding/json keeps
// unexported.
package jsonx

import "encoding/json"

type (
	RawMessage         = json.RawMessage
	Number             = json.Number
	Delim              = json.Delim
	Token              = json.Token
	Marshaler          = json.Marshaler
	Unmarshaler        = json.Unmarshaler
	UnmarshalTypeError = json.UnmarshalTypeError
)
