package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/internal/loadaware"
)

// httpSession drives ServeHTTP with plain HTTP requests.
type httpSession struct {
	t   *testing.T
	url string
}

const testToken = "a-test-token-of-enough-length"

func (h httpSession) do(method, sid, body string) (int, string, string) {
	h.t.Helper()
	r, err := http.NewRequest(method, h.url, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	r.Header.Set("Authorization", "Bearer "+testToken)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		r.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
}

const (
	initializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	pingBody       = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
)

func serveHTTPForTest(t *testing.T, run Runner) (httpSession, context.CancelFunc, chan error) {
	t.Helper()
	schema := json.RawMessage(`{"type":"object"}`)
	s := newMCPServer("test", "1", "", []Tool{{Name: "hold", InputSchema: schema}, {Name: "quick", InputSchema: schema}}, run)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- ServeHTTP(ctx, s, HTTPOptions{Addr: "127.0.0.1:0", Token: testToken, Ready: func(u string) { ready <- u }}, io.Discard)
	}()
	t.Cleanup(func() { cancel(); <-done; done <- nil })
	return httpSession{t: t, url: <-ready}, cancel, done
}

// TestHTTPSessionsFollowTheSpecification guards the session rules of Streamable HTTP: a
// request without Mcp-Session-Id is 400, an unknown id 404, DELETE ends the session (its id is
// 404 afterwards, and so is a second DELETE).
func TestHTTPSessionsFollowTheSpecification(t *testing.T) {
	h, _, _ := serveHTTPForTest(t, newSlowToStop())
	status, sid, _ := h.do(http.MethodPost, "", initializeBody)
	if status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q", status, sid)
	}
	steps := []struct {
		what, method, sid, body string
		want                    int
	}{
		{"a request without a session id", http.MethodPost, "", pingBody, http.StatusBadRequest},
		{"a request with an unknown session id", http.MethodPost, "not-a-session", pingBody, http.StatusNotFound},
		{"a request in the session", http.MethodPost, sid, pingBody, http.StatusOK},
		{"DELETE without a session id", http.MethodDelete, "", "", http.StatusBadRequest},
		{"DELETE of the session", http.MethodDelete, sid, "", http.StatusOK},
		{"a request in the ended session", http.MethodPost, sid, pingBody, http.StatusNotFound},
		{"DELETE of the ended session", http.MethodDelete, sid, "", http.StatusNotFound},
	}
	for _, s := range steps {
		if status, _, body := h.do(s.method, s.sid, s.body); status != s.want {
			t.Errorf("%s: %d, want %d: %s", s.what, status, s.want, body)
		}
	}
}

// TestHTTPSessionsBounded guards the bound on sessions: past MaxSessions initializes, the
// session idle the longest is ended (404) while the newest works, and the server holds no
// more than MaxSessions.
func TestHTTPSessionsBounded(t *testing.T) {
	h, _, _ := serveHTTPForTest(t, newSlowToStop())
	ids := make([]string, 0, MaxSessions+20)
	for range MaxSessions + 20 {
		_, sid, _ := h.do(http.MethodPost, "", initializeBody)
		ids = append(ids, sid)
	}
	if status, _, _ := h.do(http.MethodPost, ids[0], pingBody); status != http.StatusNotFound {
		t.Errorf("the oldest session: %d, want 404 (ended to make room)", status)
	}
	if status, _, body := h.do(http.MethodPost, ids[len(ids)-1], pingBody); status != http.StatusOK {
		t.Errorf("the newest session: %d: %s", status, body)
	}
}

func TestSessionsExpireWhenIdle(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := newSessions(3, time.Hour)
	s.now = func() time.Time { return now }
	ended := make(chan string, 4)
	s.ended = func(id string) { ended <- id }
	a := s.Generate()
	now = now.Add(59 * time.Minute)
	if _, err := s.Validate(a); err != nil {
		t.Fatalf("a session used within the hour: %v", err)
	}
	now = now.Add(61 * time.Minute)
	if _, err := s.Validate(a); err == nil {
		t.Fatal("a session idle for more than an hour is still accepted")
	}
	if got := <-ended; got != a || s.live() != 0 {
		t.Errorf("ended %q, %d live; want %q and none", got, s.live(), a)
	}
}

// TestHTTPCallCutByShutdownIsAnswered guards the end of an HTTP server: a call still running
// when the server is told to stop is stopped after callGrace and answered with a JSON-RPC
// error, not a dropped connection.
func TestHTTPCallCutByShutdownIsAnswered(t *testing.T) {
	run := untilCancelled{started: make(chan struct{}, 1)}
	h, stop, done := serveHTTPForTest(t, run)
	_, sid, _ := h.do(http.MethodPost, "", initializeBody)
	answered := make(chan string, 1)
	go func() {
		status, _, body := h.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
		answered <- http.StatusText(status) + " " + body
	}()
	<-run.started
	stop()
	if got := <-answered; !strings.Contains(got, `"id":7`) || !strings.Contains(got, "shutting down") {
		t.Errorf("the call cut by shutdown got %s", got)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	done <- nil
}

// untilCancelled's calls run until their context ends.
type untilCancelled struct{ started chan struct{} }

func (b untilCancelled) Run(ctx context.Context, _ Tool, _ json.RawMessage) Reply {
	b.started <- struct{}{}
	<-ctx.Done()
	return Reply{Text: "stopped", OK: true}
}

// TestHTTPCancelledCallIsNotAnswered guards the cancellation rule over Streamable HTTP, with
// raw JSON-RPC: a call named by notifications/cancelled stops, and its POST gets 202 Accepted
// with no JSON-RPC response; a cancel for a call already answered changes nothing, and the
// session's next calls (the same id again too) are answered as usual.
func TestHTTPCancelledCallIsNotAnswered(t *testing.T) {
	run := untilCancelled{started: make(chan struct{}, 1)}
	h, _, _ := serveHTTPForTest(t, run)
	_, sid, _ := h.do(http.MethodPost, "", initializeBody)
	h.do(http.MethodPost, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	type answer struct {
		status int
		body   string
	}
	answered := make(chan answer, 1)
	go func() {
		status, _, body := h.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
		answered <- answer{status, body}
	}()
	<-run.started
	if status, _, body := h.do(http.MethodPost, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`); status != http.StatusAccepted {
		t.Errorf("the cancel: %d %s", status, body)
	}
	select {
	case got := <-answered:
		if got.status != http.StatusAccepted || strings.TrimSpace(got.body) != "" {
			t.Errorf("the cancelled call was answered: %d %s", got.status, got.body)
		}
	case <-time.After(loadaware.Bound(5 * time.Second)):
		t.Fatal("the cancelled call's POST did not end: its work did not stop")
	}
	status, _, body := h.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	if status != http.StatusOK || !strings.Contains(body, `"id":5`) || !strings.Contains(body, `"result"`) {
		t.Errorf("the same id again, after the cancel: %d %s", status, body)
	}
	h.do(http.MethodPost, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)
	if status, _, body := h.do(http.MethodPost, sid, pingBody); status != http.StatusOK || !strings.Contains(body, `"result"`) {
		t.Errorf("a call after a cancel of an answered call: %d %s", status, body)
	}
}
