package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/internal/callgate"
	"github.com/cgt-tools/cgt/internal/jsontext"
)

// The stdio server answers tools/call for its own tools itself, before the MCP library sees
// the message: the request is decoded once (its arguments stay raw JSON, handed to the
// runner as they came) and the reply is written once, straight into the response line. The
// library would decode the message again five or six times, turn the arguments into a map,
// and marshal the whole result, a report's text of hundreds of kilobytes, a second time.
// Everything else (initialize, tools/list, resources, unknown tools, task-augmented calls)
// still goes to the library. Calls served this way run through a callgate.Gate (a fixed
// number at once, a bounded queue, "server busy" beyond it); notifications/cancelled cancels
// them (the call is not answered and its running slot is freed at once), a panic is an
// internal error.

// MaxQueue is how many tool calls may wait for their turn in the stdio server, beyond the
// calls running (one per CPU by default, Options.MaxCalls). A message is at most
// MaxMessageSize, so what waits is bounded; a call beyond both is answered at once with a
// CodeServerBusy error.
const MaxQueue = 16

// CodeServerBusy is the JSON-RPC error of a call refused because the server is running and
// queueing as many as it may; its message begins "server busy".
const CodeServerBusy = -32000

// directCalls is what the stdio transport needs to answer tools/call itself: the server's
// tools by name and how to run them.
type directCalls struct {
	tools map[string]Tool
	run   Runner
}

// direct holds the directCalls of each server built by newMCPServer, for Serve.
var direct sync.Map // *server.MCPServer → *directCalls

func registerDirect(s *server.MCPServer, tools []Tool, run Runner) {
	byName := make(map[string]Tool, len(tools))
	for _, t := range tools {
		byName[t.Name] = t
	}
	direct.Store(s, &directCalls{tools: byName, run: run})
}

// caller runs the tools/call requests the guard takes, writing each answer to out.
type caller struct {
	calls   *directCalls
	ctx     context.Context
	out     *lockedWriter
	gate    *callgate.Gate
	mu      sync.Mutex
	cancels map[string]context.CancelFunc // by canonical request id
}

func newCaller(ctx context.Context, s *server.MCPServer, out *lockedWriter, gate *callgate.Gate) *caller {
	d, ok := direct.Load(s)
	if !ok {
		return nil
	}
	return &caller{calls: d.(*directCalls), ctx: ctx, out: out, gate: gate, cancels: map[string]context.CancelFunc{}}
}

// callParams are the params of a tools/call request this transport answers itself.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Task      json.RawMessage `json:"task"`
	RequestID json.RawMessage `json:"requestId"` // of notifications/cancelled, read in the same pass
}

// take starts the call when m (decoded once, by the guard) is a tools/call of one of
// the server's tools, and reports whether it did; false leaves the message to the library.
func (c *caller) take(m message, id string) bool {
	if c == nil || id == "" || string(m.Method) != `"tools/call"` || m.call == nil || len(m.call.Task) > 0 {
		return false
	}
	p := *m.call
	t, ok := c.calls.tools[p.Name]
	if !ok {
		return false // the library answers an unknown tool
	}
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	rawID := m.ID
	if err := c.gate.Admit(); err != nil {
		c.out.Write(errorLine(rawID, CodeServerBusy, err.Error()))
		return true
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.cancels[id] = cancel
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			delete(c.cancels, id)
			c.mu.Unlock()
			cancel()
		}()
		// Waits here, not in the reading loop, while the gate's running calls work.
		if err := c.gate.Start(ctx); err != nil {
			return // cancelled before it started: a cancelled request is not answered
		}
		defer c.gate.Started(ctx)() // a cancel frees the slot at once, while the work stops
		line := buffers.get()
		line.b = c.answer(ctx, rawID, t, args, line.b[:0])
		// A cancelled call gets no answer (the MCP specification's cancellation rule):
		// neither one cancelled by notifications/cancelled nor one cut by end of input.
		if ctx.Err() == nil {
			c.out.Write(line.b)
		}
		buffers.put(line)
	}()
	return true
}

// cancel cancels the call a notifications/cancelled names, if it is one of ours, and returns
// its canonical id ("" when it names none of ours).
func (c *caller) cancel(m message) string {
	if c == nil || string(m.Method) != `"notifications/cancelled"` || m.call == nil {
		return ""
	}
	id := canonicalID(m.call.RequestID)
	c.mu.Lock()
	cancel := c.cancels[id]
	c.mu.Unlock()
	if cancel == nil {
		return ""
	}
	cancel()
	return id
}

// cancelAll cancels every call in flight (input has ended) and returns their ids.
func (c *caller) cancelAll() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ids := make([]string, 0, len(c.cancels))
	for id, cancel := range c.cancels {
		cancel()
		ids = append(ids, id)
	}
	return ids
}

// answer runs the tool and appends the response line to dst.
func (c *caller) answer(ctx context.Context, id json.RawMessage, t Tool, args json.RawMessage, dst []byte) (line []byte) {
	defer func() {
		if r := recover(); r != nil {
			line = append(dst, errorLine(id, -32603, fmt.Sprintf("panic recovered in %s tool handler: %v", t.Name, r))...)
		}
	}()
	return appendResultLine(dst, id, c.calls.run.Run(ctx, t, args))
}

// resultLine writes a CallToolResult response as the library would: one text content, the
// structured content when there is any, isError when the call failed; then a newline.
func resultLine(id json.RawMessage, r Reply) []byte { return appendResultLine(nil, id, r) }

// appendResultLine is resultLine appended to dst.
func appendResultLine(dst, id json.RawMessage, r Reply) []byte {
	b := slices.Grow(dst, len(r.Text)+len(r.Text)/4+len(r.Structured)+128) // room for the escapes of JSON text
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":{"content":[{"type":"text","text":`...)
	b = jsontext.AppendString(b, r.Text, false)
	b = append(b, "}]"...)
	if s := bytes.TrimSpace(r.Structured); len(s) > 0 {
		b = append(b, `,"structuredContent":`...)
		b = append(b, s...)
	}
	if !r.OK {
		b = append(b, `,"isError":true`...)
	}
	return append(b, "}}\n"...)
}

func errorLine(id json.RawMessage, code int, message string) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = jsontext.AppendString(b, message, false)
	return append(b, "}}\n"...)
}

// gatedTools is a tool handler middleware that puts every call the library dispatches through
// gate: beyond its queue a call fails with the gate's "server busy" error (a JSON-RPC error),
// and a call whose request ends while it waits never starts.
func gatedTools(gate *callgate.Gate) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if err := gate.Enter(ctx); err != nil {
				return nil, err
			}
			defer gate.Started(ctx)() // a cancel frees the slot at once, while the work stops
			return next(ctx, req)
		}
	}
}
