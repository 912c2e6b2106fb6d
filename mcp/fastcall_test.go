package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A response the transport writes itself must decode to what the library would have sent
// for the same reply.
func TestResultLineDecodesAsTheLibrarysResponse(t *testing.T) {
	for _, r := range []Reply{
		{Text: `{"ok":true,"data":{"s":"<&> \" \\ \n é \u2028"},"error":null,"warnings":[]}`, OK: true},
		{Text: "error|usage_error|bad", OK: false},
		{Text: "calculate_report: ok", Structured: json.RawMessage(" {\"ok\":true,\"data\":[1,2]}\n"), OK: true},
		{Text: "", OK: true},
	} {
		for _, id := range []string{`1`, `"abc"`, `-2.5`} {
			got := resultLine(json.RawMessage(id), r)
			var idv any
			_ = json.Unmarshal([]byte(id), &idv)
			want, err := json.Marshal(mcpgo.NewJSONRPCResultResponse(mcpgo.NewRequestId(idv), toolResult(r)))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(got), "}\n") || strings.Count(string(got), "\n") != 1 {
				t.Fatalf("not one line: %q", got)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("%v: %s", err, got)
			}
			_ = json.Unmarshal(want, &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("id %s:\ngot  %s\nwant %s", id, got, want)
			}
		}
	}
}

// blockingRunner answers "slow" only when its context ends, and panics for "boom".
type blockingRunner struct{}

func (blockingRunner) Run(ctx context.Context, t Tool, args json.RawMessage) Reply {
	switch t.Name {
	case "slow":
		select {
		case <-ctx.Done():
			return Reply{Text: "cancelled: " + ctx.Err().Error()}
		case <-time.After(10 * time.Second):
			return Reply{Text: "not cancelled"}
		}
	case "boom":
		panic("kaboom")
	}
	return Reply{Text: "args " + string(args), OK: true}
}

// The transport's own tools/call path: arguments handed over as sent, a cancellation
// reaches the running call, a panic is an internal error, and what it does not serve (an
// unknown tool) is left to the library.
func TestDirectToolCalls(t *testing.T) {
	schema := json.RawMessage(`{"type":"object"}`)
	tools := []Tool{{Name: "echo", InputSchema: schema}, {Name: "slow", InputSchema: schema}, {Name: "boom", InputSchema: schema}}
	s := newMCPServer("test", "1", "", tools, blockingRunner{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeCalls(ctx, s, inR, outW, io.Discard, 5) }()
	defer func() { cancel(); inW.Close(); outR.Close(); <-done }()
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	out := bufio.NewReader(outR)
	answers := map[string]string{}
	read := func(n int) {
		for range n {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			var m struct{ ID json.RawMessage }
			_ = json.Unmarshal([]byte(line), &m)
			answers[string(m.ID)] = line
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	read(1)
	send(`{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"n": 12345678901234567890}}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"boom","arguments":{}}}`)
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"missing","arguments":{}}}`)
	read(4)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s"}}`)
	send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	read(1) // the ping's: a cancelled call is not answered
	if _, answered := answers[`"s"`]; answered {
		t.Errorf("the cancelled call was answered: %s", answers[`"s"`])
	}
	for id, want := range map[string]string{
		`5`: `"result":{}`,
		`1`: `"text":"args {\"n\": 12345678901234567890}"`,
		`2`: `"text":"args {}"`,
		`3`: `"error":{"code":-32603,"message":"panic recovered in boom tool handler: kaboom"}`,
		`4`: `"error":{"code":-32602`,
	} {
		if !strings.Contains(answers[id], want) {
			t.Errorf("id %s: %s, want it to contain %s", id, answers[id], want)
		}
	}
}
