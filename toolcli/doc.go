// Package toolcli serves MCP tools to agents in a shell through the
// tool-cli protocol, and is the client for it.
//
// An agent discovers tools progressively — servers, then a server's tools,
// then one tool's schema — and calls one, piping its JSON into jq:
//
//	eval "$(cgt serve &)"            # or: cgt serve -- my-agent ...
//	tool-cli                          # list servers
//	tool-cli cgt                      # list cgt's tools
//	tool-cli cgt gains_report         # schemas, annotations, usage line
//	tool-cli cgt gains_report '{"year":"2024-25"}' | jq .
//
// The server knows nothing about the tools it serves: every server behind
// it is an MCP client (a ProviderFactory), started on first use. cgt's own
// commands are an in-process MCP server (InProcessProvider); other MCP servers are named in an
// mcpServers config file, the format Claude Desktop uses:
//
//	{"mcpServers": {"name": {"command": "prog", "args": ["..."], "env": {"K": "V"}}}}
//
// Each is started through MCP's stdio transport on first use, initialized,
// and its tool list cached (and refreshed on notifications/tools/list_changed).
// A server whose connection breaks is dropped: the request that saw the
// failure gets a -32603 error naming the server, and the next request starts
// it again.
//
// # Transport
//
// HTTP/1.1 on 127.0.0.1 only, by default on a random port with a fresh
// 32-byte random token (hex). The environment variables TOOL_CLI_PORT
// (client default 7179) and TOOL_CLI_TOKEN tell clients where the server is.
// Each request is a POST to / whose body is one JSON-RPC 2.0 request
// (Content-Type: application/json). Checks, in order:
//
//   - not POST: 405, JSON-RPC error -32600 "Only POST accepted";
//   - Host or Origin not loopback (a DNS rebinding attempt): 403;
//   - Authorization is not "Bearer <token>" (compared in constant time):
//     401 {"error":"Unauthorized"};
//   - body over 1 MiB: 413, JSON-RPC error -32600 "Request too large";
//   - otherwise 200 with a JSON-RPC response.
//
// JSON-RPC errors: -32700 unparsable JSON (id null); -32600 not "jsonrpc":
// "2.0", no method, or a batch; -32601 "Method not found: <m>"; -32602
// missing or invalid params, e.g. `Missing or invalid parameter: "server"
// (string required)`, `Server "x" not found. Connected: a, b`, `Tool "t"
// not found on server "s"`; -32603 a server failed to start or broke, with
// its message. Missing params count as {}.
//
// # Methods
//
//	listServers {}                      → {"servers": [{"name", "toolCount", "examples": [up to 3 tool names], "error"?}]}
//	listTools {server}                  → {"server", "tools": [{"name", "description", "hasStructuredOutput"}]}
//	describeTool {server, tool, includeOutputSchema?}
//	                                    → {"name", "description", "inputSchema", "outputSchema"?, "annotations"?}
//
// describeTool returns the output schema only when includeOutputSchema is true;
// hasStructuredOutput says whether the tool has one to return.
//
//	callTool {server, tool, arguments?} → {"content": [...], "isError"?, "structuredContent"?}
//
// annotations carry title, readOnlyHint, destructiveHint, idempotentHint and
// openWorldHint when the tool sets them; arguments default to {}. A server
// that cannot start is listed by listServers with its error instead of
// counts.
//
// # Entry points
//
// ServeMain is "cgt serve"; ClientMain is the tool-cli command (RunClient
// the same under another name, such as "cgt tool"). Listen and Client are
// the server and client for use in code. InProcessProvider serves an
// mcp-go server.MCPServer of this process; StdioProvider and LoadMCPConfig
// serve MCP programs.
package toolcli
