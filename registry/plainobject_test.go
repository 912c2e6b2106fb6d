//go:build !js

package registry

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

var plainObjectCases = []string{
	`{"currency":"USD","year":2024,"month":3}`, ` {"a":-1.5e3,"b":true,"c":false,"d":null,"e":""} `,
	`{"a":"x","a":"y"}`, `{"é":"ü"}`, `{}`,
	// left to encoding/json
	`{"a":"x\ny"}`, `{"a\u0041":1}`, "{\"\xff\":1}", "{\"a\":\"\xff\"}", `{"a":[1]}`, `{"a":{}}`,
	`[]`, `1`, `{"a":1}{}`, `{"a":01}`, `{"a":}`, `{`,
}

// TestPlainObjectAsDecoder: whenever the fast path reads arguments, it reads what the
// decoder does.
func TestPlainObjectAsDecoder(t *testing.T) {
	for _, c := range plainObjectCases {
		checkPlainObject(t, []byte(c))
	}
	if _, ok := plainObject([]byte(plainObjectCases[0])); !ok {
		t.Error("plain arguments are not read by the fast path")
	}
}

func FuzzPlainObjectAsDecoder(f *testing.F) {
	for _, c := range plainObjectCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkPlainObject)
}

func checkPlainObject(t *testing.T, raw []byte) {
	got, ok := plainObject(raw)
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("plainObject(%q) read it, the decoder: %v", raw, err)
	}
	if rest := bytes.TrimSpace(raw[dec.InputOffset():]); len(rest) > 0 {
		t.Fatalf("plainObject(%q) read it, the decoder leaves %q", raw, rest)
	}
	if !reflect.DeepEqual(any(got), want) {
		t.Fatalf("plainObject(%q) = %#v, the decoder %#v", raw, got, want)
	}
}
