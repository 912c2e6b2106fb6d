package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// MaxMessageSize is the largest JSON-RPC message (one line) the server accepts.
const MaxMessageSize = 8 << 20

// JSON-RPC error codes the guard answers with itself.
const (
	codeInvalidRequest = -32600
)

// guard sits between standard input and the MCP library. It passes each well-formed message
// line through unchanged and answers, itself, what the library would mishandle: a line over
// the size limit (which would otherwise be buffered without bound) and valid JSON that is not
// a JSON-RPC message object (which the library would call a parse error). Malformed JSON is
// passed on: the library answers it with -32700.
//
// At the end of input it waits a moment (endGrace) for the answers to requests already
// received, so that `printf '...' | cgt mcp` gets the quick ones, then cancels the calls still
// running, which are not answered (closing stdin is how an MCP client ends a stdio server).
type guard struct {
	calls    *caller // answers tools/call of the server's own tools; nil: the library does
	in       *bufio.Reader
	out      *lockedWriter
	limit    int
	pending  []byte
	err      error
	inflight *inflight
}

// endGrace is how long the server waits, once input has ended, for the answers to the
// requests already received before it cancels the calls still running and exits.
const endGrace = time.Second

// endOfInput waits up to endGrace for the answers to the requests received, then cancels the
// calls still running: they are not answered, and the server exits.
func (g *guard) endOfInput() {
	if g.inflight.drain(endGrace) {
		return
	}
	// The library's own requests are cancelled when Read returns io.EOF.
	for _, id := range g.calls.cancelAll() {
		g.inflight.forget(id)
	}
}

// newGuard reads from in and answers on out; out's answers settle the requests the guard
// passes on.
func newGuard(in io.Reader, out *lockedWriter, limit int) *guard {
	g := &guard{in: bufio.NewReaderSize(in, 64<<10), out: out, limit: limit, inflight: &inflight{ids: map[string]int{}}}
	out.written = g.inflight.settle
	return g
}

// Read returns the bytes of accepted lines.
func (g *guard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			if g.err == io.EOF {
				g.endOfInput()
			}
			return 0, g.err
		}
		line, err := g.readLine()
		g.err = err
		if line != nil && g.accept(line) {
			g.pending = line
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// readLine reads one line, newline included. A line longer than the limit is consumed and
// answered with an error, and nil is returned in its place.
func (g *guard) readLine() ([]byte, error) {
	var line []byte
	over := false
	for {
		chunk, err := g.in.ReadSlice('\n')
		if !over && len(line)+len(chunk) > g.limit {
			over, line = true, nil
		}
		if !over {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if over {
			g.reply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: message larger than the %d MiB limit; send ledgers of this size as files under the server's --root", g.limit>>20))
			return nil, err
		}
		if len(line) == 0 {
			return nil, err
		}
		return line, err
	}
}

// accept checks the shape of a message that is valid JSON; anything not JSON is accepted so
// that the library reports the parse error. The message is decoded once, here, with the
// params of a tools/call read as such; a tools/call of the server's own tools is answered by
// g.calls and not passed on.
func (g *guard) accept(line []byte) bool {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return false // blank lines between messages are ignored
	}
	m, ok := decodeMessage(trimmed)
	if !ok {
		if !json.Valid(trimmed) {
			return true
		}
		g.reply(nil, codeInvalidRequest, "Invalid Request: a message must be a JSON object (batches are not supported)")
		return false
	}
	id, problem := messageProblem(m)
	if problem != "" {
		g.reply(id, codeInvalidRequest, "Invalid Request: "+problem)
		return false
	}
	rid := requestIDOf(m)
	if id := g.calls.cancel(m); id != "" {
		g.inflight.forget(id) // a cancelled request is not answered
	}
	g.inflight.add(rid)
	return !g.calls.take(m, rid)
}

// message is a JSON-RPC message's members, each nil when absent. Params are read as a
// tools/call's (call) when they can be; otherwise params holds them as they came. Member names
// are matched as encoding/json matches them ("Id" is read as "id"), as the library behind the
// guard reads them.
type message struct {
	ID, Method, Result, Error json.RawMessage
	call                      *callParams
	params                    json.RawMessage
}

// decodeMessage reads a message object in one pass when its params (if any) have the shape of
// a tools/call's, and in a second pass, keeping the params as text, when they do not; ok is
// false when the text is not a JSON object.
func decodeMessage(b []byte) (message, bool) {
	if b[0] != '{' {
		return message{}, false
	}
	var c struct {
		ID, Method, Result, Error json.RawMessage
		Params                    *callParams
	}
	if json.Unmarshal(b, &c) == nil {
		return message{ID: c.ID, Method: c.Method, Result: c.Result, Error: c.Error, call: c.Params}, true
	}
	var r struct {
		ID, Method, Result, Error, Params json.RawMessage
	}
	if json.Unmarshal(b, &r) != nil {
		return message{}, false
	}
	return message{ID: r.ID, Method: r.Method, Result: r.Result, Error: r.Error, params: r.Params}, true
}

// messageProblem says what makes a JSON object an invalid JSON-RPC message, and the id to
// answer with when one could be read.
func messageProblem(m message) (json.RawMessage, string) {
	hasID := m.ID != nil
	if hasID && !validID(m.ID) {
		return nil, "id must be a string or a number"
	}
	if m.Method == nil {
		if hasID && (m.Result != nil || m.Error != nil) {
			return nil, "" // a response to a request the server sent
		}
		return m.ID, "method is missing"
	}
	var name string
	if json.Unmarshal(m.Method, &name) != nil || name == "" {
		return m.ID, "method must be a non-empty string"
	}
	if m.params != nil && !isObject(m.params) {
		return m.ID, "params must be an object"
	}
	return nil, ""
}

func validID(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && (t[0] == '{' || string(t) == "null")
}

// reply writes a JSON-RPC error response.
func (g *guard) reply(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id}
	resp.Error.Code, resp.Error.Message = code, message
	b, _ := json.Marshal(resp)
	g.out.Write(append(b, '\n'))
}

// lockedWriter makes each Write atomic, so the guard's answers and the library's (one Write
// per message) never interleave. written, when set, sees each message after it is written.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	written func(msg []byte)
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	if l.written != nil {
		l.written(p)
	}
	return n, err
}

// inflight counts the requests passed on and not yet answered, by id.
type inflight struct {
	mu  sync.Mutex
	ids map[string]int
	n   int
}

func (f *inflight) add(id string) {
	if id == "" {
		return // a notification: no answer comes
	}
	f.mu.Lock()
	f.ids[id]++
	f.n++
	f.mu.Unlock()
}

// settle removes the request a written response answers.
func (f *inflight) settle(msg []byte) {
	id := responseID(msg)
	if id == "" {
		return
	}
	f.mu.Lock()
	if f.ids[id] > 0 {
		f.ids[id]--
		f.n--
		if f.ids[id] == 0 {
			delete(f.ids, id)
		}
	}
	f.mu.Unlock()
}

// forget removes a request that will not be answered (it was cancelled).
func (f *inflight) forget(id string) {
	f.mu.Lock()
	f.n -= f.ids[id]
	delete(f.ids, id)
	f.mu.Unlock()
}

// drain waits until every request has been answered, or the timeout passes; it reports
// whether every one was.
func (f *inflight) drain(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		f.mu.Lock()
		n := f.n
		f.mu.Unlock()
		if n == 0 {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// requestIDOf is the id of a request message (its members) as canonical JSON text, or ""
// for a notification or a response.
func requestIDOf(m message) string {
	if m.Method == nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	return canonicalID(m.ID)
}

// responseID reads the id of a response without decoding the rest of it: responses begin
// {"jsonrpc":"2.0","id":...}, while notifications carry a method where the id would be.
func responseID(msg []byte) string {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	for _, want := range []string{"{", "jsonrpc", "2.0", "id"} {
		tok, err := dec.Token()
		if err != nil || fmt.Sprint(tok) != want {
			return ""
		}
	}
	var id json.RawMessage
	if dec.Decode(&id) != nil {
		return ""
	}
	return canonicalID(id)
}

// canonicalID makes 1 and 1.0, or "a" with different escapes, compare equal.
func canonicalID(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return ""
	}
	switch t := v.(type) {
	case string:
		return "s:" + t
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return ""
}
