package toolcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Client calls a tool-cli server.
type Client struct {
	// URL is where requests are posted, e.g. http://127.0.0.1:7179/.
	URL string
	// Token is sent as "Authorization: Bearer <token>".
	Token string
	// HTTP is the client used; nil uses a shared client that keeps
	// connections alive.
	HTTP *http.Client

	nextID atomic.Int64
}

// NewClientFromEnv returns a client for the server named by TOOL_CLI_PORT
// (default DefaultPort) and TOOL_CLI_TOKEN.
func NewClientFromEnv(env func(string) string) (*Client, error) {
	port := DefaultPort
	if v := env(EnvPort); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p <= 0 || p > 65535 {
			return nil, fmt.Errorf("%s=%q is not a port number", EnvPort, v)
		}
		port = p
	}
	return &Client{URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Token: env(EnvToken)}, nil
}

// dialTimeout bounds connecting to the server, which is on this machine.
const dialTimeout = 2 * time.Second

var defaultHTTPClient = &http.Client{Transport: &http.Transport{
	DialContext:         (&net.Dialer{Timeout: dialTimeout}).DialContext,
	MaxIdleConnsPerHost: 4,
	IdleConnTimeout:     30 * time.Second,
}}

// Call sends one request and decodes its result into result (which may be
// nil). A JSON-RPC error comes back as *RPCError; transport and HTTP
// failures as errors that say what to check.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID.Add(1), "method": method, "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return c.transportError(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("reading the answer from %s: %w", c.URL, err)
	}
	if err := statusError(resp.StatusCode, data); err != nil {
		return err
	}
	return decodeResponse(data, result)
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTPClient
}

func (c *Client) transportError(err error) error {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("no tool-cli server at %s (start one with `cgt serve` and set %s and %s)", c.URL, EnvPort, EnvToken)
	}
	return fmt.Errorf("cannot reach the tool-cli server at %s: %w", c.URL, err)
}

func statusError(status int, body []byte) error {
	switch status {
	case http.StatusOK:
		return nil
	case http.StatusUnauthorized:
		return fmt.Errorf("unauthorized: %s does not match the server's token", EnvToken)
	}
	var resp struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(body, &resp)
	var rpcErr RPCError
	var msg string
	if json.Unmarshal(resp.Error, &rpcErr) == nil && rpcErr.Message != "" {
		msg = rpcErr.Message
	} else if json.Unmarshal(resp.Error, &msg) != nil || msg == "" {
		msg = strings.TrimSpace(string(body))
	}
	return fmt.Errorf("server answered HTTP %d: %s", status, msg)
}

func decodeResponse(data []byte, result any) error {
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return fmt.Errorf("the server's answer is not JSON-RPC: %w", err)
	}
	if resp.Error != nil {
		return resp.Error
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(resp.Result, result)
}

// ListServers calls listServers.
func (c *Client) ListServers(ctx context.Context) (*ServerList, error) {
	var out ServerList
	return &out, c.Call(ctx, MethodListServers, struct{}{}, &out)
}

// ListTools calls listTools.
func (c *Client) ListTools(ctx context.Context, server string) (*ToolList, error) {
	var out ToolList
	return &out, c.Call(ctx, MethodListTools, map[string]string{"server": server}, &out)
}

// DescribeTool calls describeTool.
func (c *Client) DescribeTool(ctx context.Context, server, tool string) (*ToolDescription, error) {
	return c.DescribeToolOutput(ctx, server, tool, false)
}

// DescribeToolOutput calls describeTool, asking for the output schema too when withOutput.
func (c *Client) DescribeToolOutput(ctx context.Context, server, tool string, withOutput bool) (*ToolDescription, error) {
	var out ToolDescription
	p := map[string]any{"server": server, "tool": tool}
	if withOutput {
		p["includeOutputSchema"] = true
	}
	return &out, c.Call(ctx, MethodDescribeTool, p, &out)
}

// CallTool calls callTool with arguments, a JSON object.
func (c *Client) CallTool(ctx context.Context, server, tool string, arguments json.RawMessage) (*CallToolResult, error) {
	var out CallToolResult
	p := map[string]any{"server": server, "tool": tool, "arguments": arguments}
	return &out, c.Call(ctx, MethodCallTool, p, &out)
}
