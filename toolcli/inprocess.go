package toolcli

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// InProcessProvider serves an MCP server running in this process, such as
// cgt's own commands. It is an ordinary in-process MCP client except that
// tool calls hand the request to the server directly and take its result
// as a Go value, skipping a JSON round trip per call.
func InProcessProvider(s *server.MCPServer) ProviderFactory {
	return func(context.Context) (mcpclient.MCPClient, error) {
		c, err := mcpclient.NewInProcessClientWithOptions(s, mcpclient.WithLegacyProtocolOnly())
		if err != nil {
			return nil, err
		}
		return &inProcessClient{Client: c, server: s}, nil
	}
}

// inProcessClient is an in-process MCP client with a direct tools/call.
type inProcessClient struct {
	*mcpclient.Client
	server *server.MCPServer
	nextID atomic.Int64
}

type toolsCallMessage struct {
	JSONRPC string             `json:"jsonrpc"`
	ID      int64              `json:"id"`
	Method  string             `json:"method"`
	Params  mcp.CallToolParams `json:"params"`
}

// CallTool runs the call through the server's message handling, so its
// middleware, hooks and validation apply as to any other client.
func (c *inProcessClient) CallTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	msg, err := json.Marshal(toolsCallMessage{JSONRPC: mcp.JSONRPC_VERSION, ID: c.nextID.Add(1), Method: string(mcp.MethodToolsCall), Params: req.Params})
	if err != nil {
		return nil, err
	}
	switch resp := c.server.HandleMessage(ctx, msg).(type) {
	case mcp.JSONRPCResponse:
		return callToolResultOf(resp.Result)
	case mcp.JSONRPCError:
		return nil, resp.Error.AsError()
	case nil:
		return nil, fmt.Errorf("no answer to tools/call")
	default:
		return nil, fmt.Errorf("unexpected answer %T to tools/call", resp)
	}
}

// callToolResultOf takes the server's result as is when it is a
// CallToolResult, else decodes it from its JSON form.
func callToolResultOf(result any) (*mcp.CallToolResult, error) {
	switch r := result.(type) {
	case *mcp.CallToolResult:
		return r, nil
	case mcp.CallToolResult:
		return &r, nil
	}
	data, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	return mcp.ParseCallToolResult((*json.RawMessage)(&data))
}
