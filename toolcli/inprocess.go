package toolcli

import (
	"context"
	"encoding/json"
	"fmt"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// InProcessProvider serves an MCP server running in this process, such as
// cgt's own commands. It is an ordinary in-process MCP client except that
// tool calls hand the request to the server directly and take its result
// as a Go value, skipping a JSON round trip per call.
func InProcessProvider(s *server.MCPServer) ProviderFactory { return inProcess(s, false) }

// InProcessRawProvider is InProcessProvider for a server whose tool handlers read only the
// exact argument bytes (CallToolRequest.Params.RawArguments, or BindArguments), as cgt's
// own do: the arguments are then handed over without being decoded into a map as well.
func InProcessRawProvider(s *server.MCPServer) ProviderFactory { return inProcess(s, true) }

func inProcess(s *server.MCPServer, rawOnly bool) ProviderFactory {
	return func(context.Context) (mcpclient.MCPClient, error) {
		// The server is cgt's own, in this process, answering one initialize per client; the
		// session-less protocol has nothing to offer it.
		c, err := mcpclient.NewInProcessClientWithOptions(s, mcpclient.WithLegacyProtocolOnly()) //lint:ignore SA1019 see above
		if err != nil {
			return nil, err
		}
		return &inProcessClient{Client: c, server: s, rawOnly: rawOnly}, nil
	}
}

// inProcessClient is an in-process MCP client with a direct tools/call.
type inProcessClient struct {
	*mcpclient.Client
	server  *server.MCPServer
	rawOnly bool // the handlers read only RawArguments
}

// CallTool calls the tool's handler directly with the request as a Go value:
// no JSON encoding or decoding on the way in or out. The tools served this
// way (cgt's registry) validate their own arguments and never panic, so the
// server's message-level validation and recovery are not needed here.
func (c *inProcessClient) CallTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st := c.server.GetTool(req.Params.Name)
	if st == nil {
		return nil, fmt.Errorf("tool %q not found", req.Params.Name)
	}
	if raw, ok := req.Params.Arguments.(json.RawMessage); ok {
		// Give handlers both forms, as the server does after decoding a message: the exact
		// bytes (numbers keep every digit) and the decoded object, unless they read only
		// the bytes.
		req.Params.RawArguments = raw
		if !c.rawOnly {
			var args map[string]any
			if err := json.Unmarshal(raw, &args); err != nil {
				return nil, fmt.Errorf("arguments of %s: %w", req.Params.Name, err)
			}
			req.Params.Arguments = args
		}
	}
	return st.Handler(ctx, req)
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
