package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// cancelledCalls keeps the spec's rule over HTTP that a request cancelled by
// notifications/cancelled gets no response. The MCP library (mcp-go v1.2.1) stops the
// request's work but still writes its answer (an error) on the request's POST. Here each
// request's answer is held until the request ends; when a notifications/cancelled for it
// arrived in the meantime, the POST is answered 202 Accepted with no body instead, as a
// notification is. Holding the answer means a POST is never upgraded to an event stream,
// which this server never needs (it sends nothing but the answer).
type cancelledCalls struct {
	next     http.Handler
	mu       sync.Mutex
	inflight map[string]*inflightCall // session id and request id: the requests being answered
}

// inflightCall is a request being answered: cancelled once a notifications/cancelled named it.
type inflightCall struct{ cancelled bool }

func newCancelledCalls(next http.Handler) *cancelledCalls {
	return &cancelledCalls{next: next, inflight: map[string]*inflightCall{}}
}

// cancelMessage is what cancelledCalls reads of a POST body.
type cancelMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

func (c *cancelledCalls) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		c.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body) // at most MaxMessageSize: the guard bounds it
	if err != nil {
		refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a message is at most %d bytes", MaxMessageSize))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m cancelMessage
	if json.Unmarshal(body, &m) != nil || m.Method == "" {
		c.next.ServeHTTP(w, r) // a batch, a response or no JSON: the library answers it
		return
	}
	session := r.Header.Get(server.HeaderKeySessionID)
	if len(m.ID) == 0 {
		if m.Method == string(mcpgo.MethodNotificationCancelled) && len(m.Params.RequestID) > 0 {
			c.cancel(callKey(session, m.Params.RequestID)) // before the library stops the work
		}
		c.next.ServeHTTP(w, r)
		return
	}
	key := callKey(session, m.ID)
	call, tracked := c.start(key)
	if !tracked {
		c.next.ServeHTTP(w, r) // the same id already in flight: not the client's to cancel apart
		return
	}
	held := &heldResponse{w: w, header: http.Header{}}
	c.next.ServeHTTP(held, r)
	c.mu.Lock()
	delete(c.inflight, key)
	cancelled := call.cancelled
	c.mu.Unlock()
	if cancelled {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	held.send()
}

// start records a request being answered; false when one with its key already is.
func (c *cancelledCalls) start(key string) (*inflightCall, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, busy := c.inflight[key]; busy {
		return nil, false
	}
	call := &inflightCall{}
	c.inflight[key] = call
	return call, true
}

// cancel marks the request with key cancelled, if it is being answered (a cancel for a request
// already answered, or never made, changes nothing).
func (c *cancelledCalls) cancel(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if call, ok := c.inflight[key]; ok {
		call.cancelled = true
	}
}

// callKey names a request within its session by its id's JSON (compacted).
func callKey(session string, id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return session + "\x00" + string(id)
	}
	return session + "\x00" + b.String()
}

// heldResponse holds a response until send writes it. It is no http.Flusher, so the library
// answers in JSON rather than upgrading to an event stream.
type heldResponse struct {
	w      http.ResponseWriter
	header http.Header
	status int
	body   bytes.Buffer
}

func (h *heldResponse) Header() http.Header { return h.header }

func (h *heldResponse) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *heldResponse) Write(p []byte) (int, error) {
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(p)
}

// Unwrap gives http.ResponseController the connection's writer (for its deadlines).
func (h *heldResponse) Unwrap() http.ResponseWriter { return h.w }

// send writes the held response.
func (h *heldResponse) send() {
	dst := h.w.Header()
	for k, v := range h.header {
		dst[k] = v
	}
	if h.status == 0 {
		h.status = http.StatusOK
	}
	h.w.WriteHeader(h.status)
	h.w.Write(h.body.Bytes())
}
