package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// slowToStopRunner's "hold" tool works until release is closed whatever its context says (work
// that takes a while to notice a cancel) and reports on cancelled whether its context ended;
// every other tool answers at once.
type slowToStopRunner struct {
	release   chan struct{}
	started   chan struct{}
	cancelled chan bool
}

func (r slowToStopRunner) Run(ctx context.Context, t Tool, _ json.RawMessage) Reply {
	if t.Name != "hold" {
		return Reply{Text: "quick", OK: true}
	}
	r.started <- struct{}{}
	<-r.release
	r.cancelled <- ctx.Err() != nil
	return Reply{Text: "held", OK: true}
}

func newSlowToStop() slowToStopRunner {
	return slowToStopRunner{release: make(chan struct{}), started: make(chan struct{}, 4), cancelled: make(chan bool, 4)}
}

func serveTwoTools(t *testing.T, run Runner, maxCalls int) (in *io.PipeWriter, out *bufio.Reader, done chan error) {
	t.Helper()
	schema := json.RawMessage(`{"type":"object"}`)
	s := newMCPServer("test", "1", "", []Tool{{Name: "hold", InputSchema: schema}, {Name: "quick", InputSchema: schema}}, run)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done = make(chan error, 1)
	go func() { done <- ServeCalls(context.Background(), s, inR, outW, io.Discard, maxCalls); outW.Close() }()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return inW, bufio.NewReader(outR), done
}

func sendLine(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// TestCancelledCallIsNotAnsweredAndFreesItsSlot guards the cancellation rule of MCP: a call
// named by notifications/cancelled gets no response, its context is cancelled, and with one
// call slot the next call runs at once, while the cancelled work is still stopping.
func TestCancelledCallIsNotAnsweredAndFreesItsSlot(t *testing.T) {
	run := newSlowToStop()
	in, out, _ := serveTwoTools(t, run, 1)
	sendLine(t, in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
	<-run.started
	sendLine(t, in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	sendLine(t, in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{}}}`)
	if line, err := out.ReadString('\n'); err != nil || !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":2,`) {
		t.Fatalf("first answer %q (%v), want call 2's while call 1 is still stopping", line, err)
	}
	close(run.release)
	if !<-run.cancelled {
		t.Error("the cancelled call's context was not cancelled")
	}
	sendLine(t, in, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if line, err := out.ReadString('\n'); err != nil || !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":3,`) {
		t.Fatalf("next answer %q (%v), want the ping's: the cancelled call must not be answered", line, err)
	}
}

// TestEndOfInputCancelsRunningCalls guards the stdio shutdown of MCP: when the client closes
// standard input, a call still running (past a short grace) is cancelled, gets no answer, and
// the server returns; a quick call sent just before the close is answered.
func TestEndOfInputCancelsRunningCalls(t *testing.T) {
	run := newSlowToStop()
	in, out, done := serveTwoTools(t, run, 2)
	sendLine(t, in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
	<-run.started
	sendLine(t, in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{}}}`)
	in.Close()
	if line, err := out.ReadString('\n'); err != nil || !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":2,`) {
		t.Fatalf("answer %q (%v), want the quick call's", line, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the server did not return after its input ended")
	}
	close(run.release)
	if !<-run.cancelled {
		t.Error("the running call was not cancelled when input ended")
	}
	if rest, _ := io.ReadAll(out); len(rest) != 0 {
		t.Errorf("output after the end of input: %s", rest)
	}
}
