package toolcli

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

var fastReadCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"cgt","tool":"get_fx_rate","arguments":{"currency":"USD","year":2024,"month":3}}}`,
	` {"jsonrpc":"2.0","id":"a","method":"listTools","params":{"server":"cgt"}} `,
	`{"jsonrpc":"2.0","id":null,"method":"listServers"}`,
	`{"jsonrpc":"2.0","method":"listServers","params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"describeTool","params":{"server":"cgt","tool":"x","includeOutputSchema":true,"other":[1,2]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","extra":{"a":[{}]},"params":{"server":null,"tool":1,"arguments":"x"}}`,
	// left to encoding/json
	`{"JSONRPC":"2.0","id":1,"method":"m"}`, `{"jsonrpc":"2.0","ID":1,"method":"m"}`, `{"jſonrpc":"2.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","method":"n"}`, `{"jsonrpc":"2.0","id":1,"method":"m","params":{"tool":"a","tool":"b"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"Tool":"a"}}`, `{"jsonrpc":"2.0","id":1,"method":"m","params":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[]}`, `{"jsonrpc":"2.0","id":1,"method":"m\u0041"}`,
	`{"jsonrpc":2,"id":1,"method":"m"}`, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", `{"jsonrpc":"2.0","id":1,"meth\u006fd":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m"`, `[{"jsonrpc":"2.0"}]`, ``, `null`, "\f{}",
}

// TestReadFastAsEncodingJSON: whenever readFast reads a request, it reads what
// json.Unmarshal does.
func TestReadFastAsEncodingJSON(t *testing.T) {
	for _, c := range fastReadCases {
		checkReadFast(t, []byte(c))
	}
	if _, ok := readFast([]byte(fastReadCases[0])); !ok {
		t.Error("the common callTool request is not read by the fast path")
	}
}

func FuzzReadFastAsEncodingJSON(f *testing.F) {
	for _, c := range fastReadCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkReadFast)
}

func checkReadFast(t *testing.T, body []byte) {
	got, ok := readFast(body)
	if !ok {
		return
	}
	var want wellFormed
	if err := json.Unmarshal(bytes.TrimSpace(body), &want); err != nil {
		t.Fatalf("readFast(%q) read it, encoding/json: %v", body, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("readFast(%q) = %+v, encoding/json %+v", body, got, want)
	}
}
