package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Sessions over Streamable HTTP follow the MCP specification: initialize starts a session and
// answers with its id in Mcp-Session-Id; every later request must carry it (400 when it does
// not, 404 when it names no session: unknown, ended, expired or evicted), and DELETE ends it.
// The library's own session-id manager accepts any id, so cgt keeps its own (sessions) and
// checks the header before the library sees the request (sessionRules).

// MaxSessions is how many HTTP sessions the server keeps; an initialize beyond it ends the
// session idle the longest.
const MaxSessions = 100

// SessionIdleTimeout ends an HTTP session nobody has used for this long.
const SessionIdleTimeout = time.Hour

// sessions are the live HTTP session ids and when each was last used. It implements the
// library's server.SessionIdManager.
type sessions struct {
	mu    sync.Mutex
	last  map[string]time.Time
	max   int
	idle  time.Duration
	now   func() time.Time
	ended func(id string) // frees what the library holds for a session ended here
}

func newSessions(maxSessions int, idle time.Duration) *sessions {
	return &sessions{last: map[string]time.Time{}, max: maxSessions, idle: idle, now: time.Now, ended: func(string) {}}
}

var errNoSession = errors.New("no such session")

// Generate starts a session; when the server holds MaxSessions already, the one idle the
// longest is ended to make room.
func (s *sessions) Generate() string {
	b := make([]byte, 24)
	rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	s.mu.Lock()
	var evicted []string
	for len(s.last) >= s.max {
		evicted = append(evicted, s.oldestLocked())
		delete(s.last, evicted[len(evicted)-1])
	}
	s.last[id] = s.now()
	s.mu.Unlock()
	for _, old := range evicted {
		go s.ended(old) // not within the library's handling of this initialize
	}
	return id
}

func (s *sessions) oldestLocked() string {
	var id string
	var at time.Time
	for k, t := range s.last {
		if id == "" || t.Before(at) {
			id, at = k, t
		}
	}
	return id
}

// Validate accepts a live session and marks it used; any other id is an error (404).
func (s *sessions) Validate(id string) (bool, error) {
	if !s.use(id) {
		return false, errNoSession
	}
	return false, nil
}

// use reports whether id names a live session, marking it used; an expired one is ended.
func (s *sessions) use(id string) bool {
	s.mu.Lock()
	at, ok := s.last[id]
	now := s.now()
	expired := ok && now.Sub(at) > s.idle
	switch {
	case expired:
		delete(s.last, id)
	case ok:
		s.last[id] = now
	}
	s.mu.Unlock()
	if expired {
		go s.ended(id)
	}
	return ok && !expired
}

// Terminate ends a session (DELETE, the library's idle sweep, shutdown).
func (s *sessions) Terminate(id string) (bool, error) {
	s.mu.Lock()
	delete(s.last, id)
	s.mu.Unlock()
	return false, nil
}

// live is how many sessions are held.
func (s *sessions) live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.last)
}

// endIn returns the function that frees the library's state of a session cgt ended itself
// (evicted or expired): a DELETE for it, handled by the library as a client's would be.
func endIn(h http.Handler) func(id string) {
	return func(id string) {
		r, err := http.NewRequest(http.MethodDelete, HTTPPath, nil)
		if err != nil {
			return
		}
		r.Header.Set(server.HeaderKeySessionID, id)
		h.ServeHTTP(&discardResponse{h: http.Header{}}, r)
	}
}

// discardResponse is a ResponseWriter that keeps nothing.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}

// sessionRules answers what the library would answer wrongly: a request other than
// initialize without Mcp-Session-Id is 400 (the library says 404), and DELETE of a session
// that does not exist is 404 (the library says 200). Requests of the sessionless protocol
// (2026-07-28 and later) carry no session and pass on.
type sessionRules struct {
	next     http.Handler
	sessions *sessions
}

func (h sessionRules) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if modernHeader(r) {
		h.next.ServeHTTP(w, r)
		return
	}
	id := r.Header.Get(server.HeaderKeySessionID)
	switch r.Method {
	case http.MethodDelete:
		if id == "" {
			sessionError(w, http.StatusBadRequest, nil, "DELETE needs the Mcp-Session-Id header of the session to end")
			return
		}
		if !h.sessions.use(id) {
			sessionError(w, http.StatusNotFound, nil, "no session "+quoteID(id)+": it has ended or never existed")
			return
		}
	case http.MethodPost:
		if id != "" {
			break
		}
		body, err := io.ReadAll(r.Body) // at most MaxMessageSize: the guard bounds it
		if err != nil {
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a message is at most %d bytes", MaxMessageSize))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if m, ok := needsSession(body); ok {
			sessionError(w, http.StatusBadRequest, m.ID, "the Mcp-Session-Id header is missing: send the id the initialize response gave in Mcp-Session-Id with every later request, or initialize again")
			return
		}
	}
	h.next.ServeHTTP(w, r)
}

// modernHeader: the request says it speaks a protocol without sessions.
func modernHeader(r *http.Request) bool {
	return mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion))
}

// postedMessage is what sessionRules reads of a POST body.
type postedMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta *mcpgo.Meta `json:"_meta"`
	} `json:"params"`
}

// needsSession reports whether a POST body is a message that must carry a session id: one
// with a method other than initialize, of a protocol with sessions. A body that is no such
// message is left to the library to answer.
func needsSession(body []byte) (postedMessage, bool) {
	var m postedMessage
	if json.Unmarshal(body, &m) != nil || m.Method == "" || m.Method == string(mcpgo.MethodInitialize) {
		return m, false
	}
	return m, !mcpgo.IsModernProtocol(m.Params.Meta.ProtocolVersion())
}

// sessionError answers with a status and a JSON-RPC error body, as the library answers its own
// transport errors.
func sessionError(w http.ResponseWriter, status int, id json.RawMessage, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": codeInvalidRequest, "message": http.StatusText(status) + ": " + msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// quoteID quotes a session id for a message, cut to a sensible length.
func quoteID(id string) string {
	if len(id) > 64 {
		id = id[:64] + "…"
	}
	return fmt.Sprintf("%q", id)
}

// errShuttingDown answers a call stopped because the server is shutting down.
var errShuttingDown = errors.New("the server is shutting down: the call was stopped before it finished; send it again once the server is back")

// stoppedByShutdown is a tool middleware: a call still running when shutdown ends the calls
// in flight (shutdown cancelled) is cancelled, and answered with a JSON-RPC error saying so
// rather than losing its connection.
func stoppedByShutdown(shutdown context.Context) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(shutdown, cancel)()
			res, err := next(ctx, req)
			if shutdown.Err() != nil {
				return nil, errShuttingDown
			}
			return res, err
		}
	}
}
