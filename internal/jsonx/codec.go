//go:build js || cgt_jsoncodec

package jsonx

import (
	"io"

	"github.com/cgt-tools/cgt/internal/jsoncodec"
)

type (
	Decoder     = jsoncodec.Decoder
	Encoder     = jsoncodec.Encoder
	SyntaxError = jsoncodec.SyntaxError
)

func Marshal(v any) ([]byte, error)      { return jsoncodec.Marshal(v) }
func Unmarshal(data []byte, v any) error { return jsoncodec.Unmarshal(data, v) }
func NewDecoder(r io.Reader) *Decoder    { return jsoncodec.NewDecoder(r) }
func NewEncoder(w io.Writer) *Encoder    { return jsoncodec.NewEncoder(w) }
