package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

var objectCases = []string{
	`{}`, ` {} `, "\t{\r\n}\n", `{"a":1}`, `{"a":-0.5e+10,"b":[1,{"c":null}],"d":"x\"y\\u00e9\n"}`,
	`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"cgt","tool":"get_fx_rate","arguments":{"currency":"USD","year":2024,"month":3}}}`,
	`{"a":1,"a":2}`, `{"a\u0062":1}`, `{"a\\":1}`, `{"\xff":"\xfe"}`, `{"a":"é"}`,
	`{"a":true,"b":false,"c":null,"d":[],"e":{},"f":[[]]}`,
	// not an object, or not valid JSON
	``, ` `, `[]`, `1`, `"a"`, `null`, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,"a":1}`,
	`{"a":1}x`, `{"a":1}{}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`,
	`{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `{"a":"\x01"}`, `{"a":"\q"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`,
	`{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`, `{"a" 1}`, `{a:1}`, `{'a':1}`, "\f{}", `{"a":1}` + "\v",
	`{"a":"unterminated}`, `{"a":[1,2}`, `{"a":{"b":1]}`, `{"a":1`, `{"a"`, `{"a":1 ,"b":2 }`,
	strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100),
	`{"x":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}`,
	`{"x":` + strings.Repeat(`[`, 101) + strings.Repeat(`]`, 101) + `}`,
}

func TestObjectAsEncodingJSON(t *testing.T) {
	for _, c := range objectCases {
		checkObject(t, []byte(c))
	}
}

func FuzzObjectAsEncodingJSON(f *testing.F) {
	for _, c := range objectCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkObject)
}

// checkObject holds Object to encoding/json: true exactly for a valid object whose keys
// have no escapes and whose nesting is within maxDepth, with the members as written.
func checkObject(t *testing.T, data []byte) {
	var keys, values []string
	got := Object(data, func(k, v []byte) bool {
		keys, values = append(keys, string(k)), append(values, string(v))
		return true
	})
	want := json.Valid(data) && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) &&
		!escapedKey(data) && depthOf(data) <= maxDepth
	if got != want {
		t.Fatalf("Object(%q) = %v, want %v (valid %v, depth %d)", data, got, want, json.Valid(data), depthOf(data))
	}
	if !got {
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("Object(%q) = true, encoding/json: %v", data, err)
	}
	last := map[string]string{}
	for i, k := range keys {
		if !utf8.ValidString(k) {
			return // encoding/json writes such a key with U+FFFD
		}
		last[k] = values[i]
	}
	if len(last) != len(m) {
		t.Fatalf("Object(%q): keys %q, encoding/json %d", data, keys, len(m))
	}
	for k, v := range last {
		if string(m[k]) != v {
			t.Fatalf("Object(%q): %q = %s, encoding/json %s", data, k, v, m[k])
		}
	}
}

// escapedKey reports whether a key of the top-level object is written with an escape.
func escapedKey(data []byte) bool {
	d := json.NewDecoder(bytes.NewReader(data))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for d.More() {
		start := d.InputOffset()
		if _, err := d.Token(); err != nil {
			return false
		}
		if bytes.IndexByte(data[start:d.InputOffset()], '\\') >= 0 {
			return true
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return false
		}
	}
	return false
}

// depthOf is the deepest nesting of arrays and objects in data (1 for a flat object).
func depthOf(data []byte) int {
	d := json.NewDecoder(bytes.NewReader(data))
	depth, deepest := 0, 0
	for {
		tok, err := d.Token()
		if err != nil { // io.EOF at the end
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

func TestPlainString(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"abc"`, "abc", true}, {`""`, "", true}, {`"é"`, "é", true},
		{`"a\"b"`, "", false}, {`"\u0041"`, "", false}, {"\"\xff\"", "", false},
		{`1`, "", false}, {`"`, "", false}, {`null`, "", false},
	} {
		s, ok := PlainString([]byte(c.in))
		if s != c.want || ok != c.ok {
			t.Errorf("PlainString(%s) = %q, %v; want %q, %v", c.in, s, ok, c.want, c.ok)
		}
		if ok {
			var dec string
			if err := json.Unmarshal([]byte(c.in), &dec); err != nil || dec != s {
				t.Errorf("PlainString(%s) = %q, encoding/json %q (%v)", c.in, s, dec, err)
			}
		}
	}
}
