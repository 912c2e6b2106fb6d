package envelope

import (
	"io"

	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// NewEncoder is the one JSON encoder of the project: it writes `<`, `>` and `&` as they are
// (encoding/json escapes them for HTML by default, which makes schemas, hints and ledger text
// harder to read and is no protection for a JSON document).
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Marshal is json.Marshal without HTML escaping: one line, no trailing newline.
func Marshal(v any) ([]byte, error) {
	b, err := marshal(v, "")
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
}

// MarshalValueIndent is Marshal indented with indent, ending in a newline.
func MarshalValueIndent(v any, indent string) ([]byte, error) { return marshal(v, indent) }
