package toolcli

import (
	"encoding/json"
	"fmt"
)

// JSON-RPC 2.0 error codes used by the tool-cli protocol.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeServerBusy: the server is running and queueing as many calls as it may; the
	// message says so ("server busy: ..."). Try again later.
	CodeServerBusy = -32000
)

// Method names of the tool-cli protocol.
const (
	MethodListServers  = "listServers"
	MethodListTools    = "listTools"
	MethodDescribeTool = "describeTool"
	MethodCallTool     = "callTool"
)

// Environment variables through which a server tells clients where it is.
const (
	EnvPort  = "TOOL_CLI_PORT"
	EnvToken = "TOOL_CLI_TOKEN"
)

// DefaultPort is the port a client uses when TOOL_CLI_PORT is unset.
const DefaultPort = 7179

// MaxRequestBytes is the largest request body the server accepts.
const MaxRequestBytes = 1 << 20

// RPCError is a JSON-RPC error object; it is also the error a Client
// returns when the server answers with one.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error returns the message the server sent.
func (e *RPCError) Error() string { return e.Message }

func rpcErrorf(code int, format string, args ...any) *RPCError {
	return &RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// rpcRequest is one JSON-RPC request as read off the wire.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// rpcResponse is one JSON-RPC response; exactly one of Result and Error is set.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// ServerList is the result of listServers.
type ServerList struct {
	Servers []ServerSummary `json:"servers"`
}

// ServerSummary names one server, how many tools it has and a few of them.
// Error is set, and the counts are empty, when the server could not start.
type ServerSummary struct {
	Name      string   `json:"name"`
	ToolCount int      `json:"toolCount"`
	Examples  []string `json:"examples"`
	Error     string   `json:"error,omitempty"`
}

// ToolList is the result of listTools.
type ToolList struct {
	Server string        `json:"server"`
	Tools  []ToolSummary `json:"tools"`
}

// ToolSummary is one line of a tool listing.
type ToolSummary struct {
	Name                string `json:"name"`
	Description         string `json:"description"`
	HasStructuredOutput bool   `json:"hasStructuredOutput"`
}

// ToolDescription is the result of describeTool: everything needed to call
// the tool and read its answer.
type ToolDescription struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
}

// Annotations are the MCP behaviour hints of a tool; an unset hint is absent.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

func (a *Annotations) empty() bool {
	return a.Title == "" && a.ReadOnlyHint == nil && a.DestructiveHint == nil &&
		a.IdempotentHint == nil && a.OpenWorldHint == nil
}

// CallToolResult is the result of callTool: the MCP content items as sent by
// the server, the structured content when the tool has any, and whether
// the tool reported an error.
type CallToolResult struct {
	Content           []json.RawMessage `json:"content"`
	IsError           bool              `json:"isError,omitempty"`
	StructuredContent json.RawMessage   `json:"structuredContent,omitempty"`
}
