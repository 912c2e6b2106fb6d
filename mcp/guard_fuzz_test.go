package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// referenceClassify reads a message the plain way, into a map of its members, and says what
// the guard must conclude from it: the problem (and the id to answer with), the request id,
// and the tools/call it names (tool and arguments) when it is one the transport may answer.
func referenceClassify(b []byte) (ok bool, problem, answerID, requestID, tool, args string) {
	var m map[string]json.RawMessage
	if b[0] != '{' || json.Unmarshal(b, &m) != nil {
		return false, "", "", "", "", ""
	}
	id, hasID := m["id"]
	method, hasMethod := m["method"]
	switch {
	case hasID && !validID(id):
		problem = "id"
	case !hasMethod:
		if !(hasID && (m["result"] != nil || m["error"] != nil)) {
			problem, answerID = "method missing", string(id)
		}
	default:
		var name string
		if json.Unmarshal(method, &name) != nil || name == "" {
			problem, answerID = "method", string(id)
		} else if p, ok := m["params"]; ok && !isObject(p) {
			problem, answerID = "params", string(id)
		}
	}
	if hasMethod && len(id) > 0 && string(id) != "null" {
		requestID = canonicalID(id)
	}
	var p callParams
	if string(method) == `"tools/call"` && json.Unmarshal(m["params"], &p) == nil && len(p.Task) == 0 {
		tool, args = p.Name, string(p.Arguments)
	}
	return true, problem, answerID, requestID, tool, args
}

// foldedMember reports whether a member name differs only in case from one the guard reads:
// encoding/json (and so the guard, like the library behind it) takes "Id" for "id", where the
// map of the reference reading keeps it apart.
func foldedMember(b []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	for k := range m {
		for _, name := range []string{"id", "method", "params", "result", "error"} {
			if k != name && strings.EqualFold(k, name) {
				return true
			}
		}
	}
	return false
}

// FuzzDecodeMessage checks the guard's one-pass reading of a message against the plain
// reading: same verdict on its shape, same request id, same tools/call. Member names that
// differ only in case are matched as encoding/json matches them, and left out of the
// comparison.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_report","arguments":{"cgt_content":"x"}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":7}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":null}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`,
		`{"jsonrpc":"2.0","id":6}`,
		`{"jsonrpc":"2.0","id":7,"method":""}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"x","task":{"ttl":1}}}`,
		`[1,2]`, `{`, `{"id":null,"method":"ping"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return
		}
		if foldedMember(b) {
			return
		}
		m, ok := decodeMessage(b)
		wantOK, wantProblem, wantAnswerID, wantRequestID, wantTool, wantArgs := referenceClassify(b)
		if ok != wantOK {
			t.Fatalf("%q: decoded = %v, want %v", b, ok, wantOK)
		}
		if !ok {
			return
		}
		id, problem := messageProblem(m)
		if (problem != "") != (wantProblem != "") || (problem != "" && string(id) != wantAnswerID) {
			t.Fatalf("%q: problem %q (id %s), want %q (id %s)", b, problem, id, wantProblem, wantAnswerID)
		}
		if got := requestIDOf(m); got != wantRequestID {
			t.Fatalf("%q: request id %q, want %q", b, got, wantRequestID)
		}
		var tool, args string
		if string(m.Method) == `"tools/call"` && m.call != nil && len(m.call.Task) == 0 {
			tool, args = m.call.Name, string(m.call.Arguments)
		}
		if tool != wantTool || args != wantArgs {
			t.Fatalf("%q: tools/call %q %s, want %q %s", b, tool, args, wantTool, wantArgs)
		}
	})
}
