package toolcli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ProviderFactory connects to one MCP server. It is called lazily, on the
// first request that needs the server, and again after the server failed.
// The returned client may be started or not; it must not be initialized:
// the tool-cli server starts (when the client has a Start method),
// initializes and lists its tools.
type ProviderFactory func(ctx context.Context) (mcpclient.MCPClient, error)

// startTimeout bounds starting, initializing and listing a server's tools.
const startTimeout = 30 * time.Second

// provider is one named MCP server behind the tool-cli server: it starts the
// server on first use, caches its tools and drops a failed connection so
// that the next request starts a fresh one.
type provider struct {
	name    string
	factory ProviderFactory
	log     io.Writer

	mu      sync.Mutex
	conn    *connection
	live    atomic.Pointer[connection] // conn, for readers that take no lock; nil when closed
	closed  bool
	closers sync.WaitGroup
}

// connection is one started, initialized MCP client and its tools.
type connection struct {
	client  mcpclient.MCPClient
	catalog atomic.Pointer[catalog]
	stale   atomic.Bool
}

// catalog is a server's tool list as last fetched; it is replaced whole,
// never changed, so readers need no lock.
type catalog struct {
	tools  []ToolSummary
	byName map[string]*ToolDescription
}

// current returns the live connection, starting the server or refreshing
// its tool list first when needed.
func (p *provider) current(ctx context.Context) (*connection, error) {
	if c := p.live.Load(); c != nil && !c.stale.Load() {
		return c, nil // the common case, without the lock every call would wait for
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("server %q is shutting down", p.name)
	}
	if p.conn != nil && !p.conn.stale.Load() {
		return p.conn, nil
	}
	if p.conn != nil {
		if err := p.refreshTools(ctx, p.conn); err != nil {
			return nil, p.dropLocked(p.conn, err)
		}
		return p.conn, nil
	}
	conn, err := p.connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("server %q failed to start: %w", p.name, err)
	}
	p.conn = conn
	p.live.Store(conn)
	return conn, nil
}

// connect starts and initializes a new client and lists its tools.
func (p *provider) connect(ctx context.Context) (*connection, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	client, err := p.factory(ctx)
	if err != nil {
		return nil, err
	}
	if client == nil {
		return nil, errors.New("provider returned no client")
	}
	conn := &connection{client: client}
	if err := initialize(ctx, client); err != nil {
		p.closeClient(client)
		return nil, err
	}
	client.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			conn.stale.Store(true)
		}
	})
	if err := p.refreshTools(ctx, conn); err != nil {
		p.closeClient(client)
		return nil, err
	}
	return conn, nil
}

// initialize runs the MCP handshake, starting the client first if it can be.
func initialize(ctx context.Context, client mcpclient.MCPClient) error {
	if starter, ok := client.(interface{ Start(context.Context) error }); ok {
		// Start only registers handlers and sessions; a stdio child started
		// by its factory keeps its own lifetime.
		if err := starter.Start(context.WithoutCancel(ctx)); err != nil {
			return err
		}
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "tool-cli", Version: "1"}
	_, err := client.Initialize(ctx, req)
	return err
}

// refreshTools lists the server's tools into conn.
func (p *provider) refreshTools(ctx context.Context, conn *connection) error {
	conn.stale.Store(false)
	res, err := conn.client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return err
	}
	tools := make([]ToolSummary, 0, len(res.Tools))
	byName := make(map[string]*ToolDescription, len(res.Tools))
	for _, t := range res.Tools {
		desc, err := describe(t)
		if err != nil {
			return fmt.Errorf("tool %q: %w", t.Name, err)
		}
		byName[t.Name] = desc
		tools = append(tools, ToolSummary{
			Name:                t.Name,
			Description:         t.Description,
			HasStructuredOutput: len(desc.OutputSchema) > 0,
		})
	}
	conn.catalog.Store(&catalog{tools: tools, byName: byName})
	return nil
}

// describe turns an MCP tool into its describeTool result, going through the
// tool's own JSON form so raw and typed schemas come out alike.
func describe(t mcp.Tool) (*ToolDescription, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	var wire struct {
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  *Annotations    `json:"annotations"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return nil, err
	}
	desc := &ToolDescription{
		Name:         t.Name,
		Description:  t.Description,
		InputSchema:  wire.InputSchema,
		OutputSchema: wire.OutputSchema,
		Annotations:  wire.Annotations,
	}
	if desc.Annotations != nil && desc.Annotations.empty() {
		desc.Annotations = nil
	}
	return desc, nil
}

// callTool calls one tool; a transport failure drops the connection and is
// reported, and the next request starts the server again. The result is the
// library's, written to the response as a CallToolResult (appendCallResult).
func (p *provider) callTool(ctx context.Context, conn *connection, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := conn.client.CallTool(ctx, req)
	if err != nil {
		return nil, p.failure(ctx, conn, err)
	}
	return res, nil
}

// failure wraps err with the server's name. When the connection itself
// broke (not the caller giving up, not the server answering with an
// error) the connection is dropped so the next request restarts it.
func (p *provider) failure(ctx context.Context, conn *connection, err error) error {
	var terr *transport.Error
	if ctx.Err() != nil || !errors.As(err, &terr) {
		return fmt.Errorf("server %q: %w", p.name, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropLocked(conn, err)
}

// dropLocked forgets conn if it is still the current one and closes it in
// the background. p.mu must be held.
func (p *provider) dropLocked(conn *connection, err error) error {
	if p.conn == conn {
		p.conn = nil
		p.live.Store(nil)
		p.closeClient(conn.client)
	}
	return fmt.Errorf("server %q failed: %v; it will be restarted on the next call", p.name, err)
}

// closeClient closes a client without making the caller wait for a child
// process to exit; close waits for every such goroutine.
func (p *provider) closeClient(client mcpclient.MCPClient) {
	p.closers.Add(1)
	go func() {
		defer p.closers.Done()
		if err := client.Close(); err != nil && p.log != nil {
			fmt.Fprintf(p.log, "tool-cli: closing server %q: %v\n", p.name, err)
		}
	}()
}

// close stops the server if it is running and waits for it to exit.
func (p *provider) close() {
	p.mu.Lock()
	p.closed = true
	p.live.Store(nil)
	if p.conn != nil {
		p.closeClient(p.conn.client)
		p.conn = nil
	}
	p.mu.Unlock()
	p.closers.Wait()
}
