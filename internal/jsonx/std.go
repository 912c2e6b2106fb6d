//go:build !js && !cgt_jsoncodec

package jsonx

import (
	"encoding/json"
	"io"
)

type (
	Decoder     = json.Decoder
	Encoder     = json.Encoder
	SyntaxError = json.SyntaxError
)

func Marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
func NewDecoder(r io.Reader) *Decoder    { return json.NewDecoder(r) }
func NewEncoder(w io.Writer) *Encoder    { return json.NewEncoder(w) }
