package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	inputs := []string{"", "plain", `"quoted" \ back`, "<a & b>", "\b\f\n\r\t\x00\x01\x1f\x7f", "£ × ÷ − é 中",
		"\u2028\u2029", "bad \xff utf8 \xc3", "end\xe2\x80"}
	for b := 0; b < 256; b++ {
		inputs = append(inputs, string([]byte{'a', byte(b), 'z'}))
	}
	for _, s := range inputs {
		for _, html := range []bool{false, true} {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if !strings.Contains(s, "\uFFFD") {
				// Go 1.27's encoding/json writes a byte of invalid UTF-8 as a literal U+FFFD,
				// 1.26's as \ufffd (AppendString's choice): the same JSON string.
				want = bytes.ReplaceAll(want, []byte("\uFFFD"), []byte(`\ufffd`))
			}
			if got := AppendString(nil, s, html); !bytes.Equal(got, want) {
				t.Errorf("%q (html %v): %s, want %s", s, html, got, want)
			}
			if got := AppendString(nil, []byte(s), html); !bytes.Equal(got, want) {
				t.Errorf("%q as bytes (html %v): %s, want %s", s, html, got, want)
			}
		}
	}
}
