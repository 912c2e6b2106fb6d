package mcp_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// proc is the server binary running over pipes.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *strings.Builder
	done   chan error
}

func startProc(t testing.TB, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(serverBinary, args...)
	p := &proc{t: t, cmd: cmd, stderr: &strings.Builder{}, done: make(chan error, 1)}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdout = bufio.NewReaderSize(out, 1<<20)
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
		p.done <- nil
	})
	return p
}

func (p *proc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// response is one JSON-RPC message from the server.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (p *proc) read() response {
	p.t.Helper()
	line, err := p.stdout.ReadBytes('\n')
	if err != nil {
		p.t.Fatalf("reading stdout: %v (stderr: %s)", err, p.stderr)
	}
	var r response
	if err := json.Unmarshal(line, &r); err != nil {
		p.t.Fatalf("stdout line is not JSON-RPC: %v\n%s", err, line)
	}
	return r
}

func (p *proc) initialize() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if r := p.read(); r.Error != nil {
		p.t.Fatalf("initialize: %+v", r.Error)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// waitExit asserts that the process exits with status 0 within the limit.
func (p *proc) waitExit(limit time.Duration) {
	p.t.Helper()
	start := time.Now()
	select {
	case err := <-p.done:
		p.done <- err
		if err != nil {
			p.t.Fatalf("exit after %v: %v (stderr: %s)", time.Since(start), err, p.stderr)
		}
	case <-time.After(limit):
		p.t.Fatalf("still running %v later (stderr: %s)", limit, p.stderr)
	}
}

func TestProtocolFaultsAreJSONRPCErrors(t *testing.T) {
	p := startProc(t)
	p.initialize()
	for _, tc := range []struct {
		name, line string
		code       int
	}{
		{"malformed_json", `{"jsonrpc":"2.0","id":1,"method":`, -32700},
		{"not_an_object", `[1,2]`, -32600},
		{"no_method", `{"jsonrpc":"2.0","id":2}`, -32600},
		{"method_not_a_string", `{"jsonrpc":"2.0","id":3,"method":7}`, -32600},
		{"wrong_version", `{"jsonrpc":"1.0","id":4,"method":"ping"}`, -32600},
		{"unknown_method", `{"jsonrpc":"2.0","id":5,"method":"tools/nope"}`, -32601},
		{"unknown_tool", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, -32602},
		// params that are not a tools/call's shape are read in the second pass
		{"params_not_an_object", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[1]}`, -32600},
		{"tool_name_not_a_string", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":7}}`, -32600},
		{"id_not_a_string_or_number", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600},
		{"oversize_message", `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"` + strings.Repeat("x", 9<<20) + `"}}`, -32600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.send(tc.line)
			r := p.read()
			if r.Error == nil || r.Error.Code != tc.code {
				t.Fatalf("got %+v (error %+v), want error %d", r, r.Error, tc.code)
			}
		})
	}
	t.Run("still_serving", func(t *testing.T) {
		p.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
		if r := p.read(); r.Error != nil || string(r.ID) != "8" {
			t.Fatalf("got %+v", r)
		}
	})
}

func TestToolCallOverPipes(t *testing.T) {
	p := startProc(t)
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_fx_rate","arguments":{"currency":"USD","year":2024,"month":3}}}`)
	var res struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	r := p.read()
	if err := json.Unmarshal(r.Result, &res); err != nil || res.IsError || res.StructuredContent != nil ||
		len(res.Content) != 1 || !strings.HasPrefix(res.Content[0].Text, "USD|fx_rate|") {
		t.Fatalf("got %s, want the compact record and no structuredContent", r.Result)
	}
}

func TestAnswersEveryRequestBeforeExitingAtEndOfInput(t *testing.T) {
	p := startProc(t)
	p.initialize()
	for i := 1; i <= 20; i++ {
		p.send(`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"get_fx_rate","arguments":{"currency":"EUR","year":2023,"month":12}}}`)
	}
	p.stdin.Close()
	seen := map[string]bool{}
	for range 20 {
		seen[string(p.read().ID)] = true
	}
	if len(seen) != 20 {
		t.Errorf("%d distinct answers, want 20", len(seen))
	}
	p.waitExit(time.Second)
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestExitsCleanlyWhenStdinCloses(t *testing.T) {
	p := startProc(t)
	p.initialize()
	p.stdin.Close()
	p.waitExit(time.Second)
	if rest, _ := io.ReadAll(p.stdout); len(strings.TrimSpace(string(rest))) != 0 {
		t.Errorf("unexpected output after the last answer: %q", rest)
	}
}

func TestExitsCleanlyOnSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startProc(t)
			p.initialize()
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			p.waitExit(time.Second)
		})
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"--exec", "x"}, {"--catalog", "x"}, {"stray"}} {
		err := exec.Command(serverBinary, args...).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%v: %v, want exit status 2", args, err)
		}
	}
	err := exec.Command(serverBinary, "--root", "/does/not/exist").Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("missing root: %v, want exit status 1", err)
	}
	out, err := exec.Command(serverBinary, "--help").Output()
	if err != nil || !strings.Contains(string(out), "--root DIR") {
		t.Errorf("--help: %v\n%s", err, out)
	}
}

func TestNothingButJSONRPCOnStdout(t *testing.T) {
	p := startProc(t, "--root", os.TempDir())
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`)
	p.stdin.Close()
	for range 2 {
		p.read() // fails on any line that is not JSON-RPC
	}
	p.waitExit(time.Second)
}
