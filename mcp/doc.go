// Package mcp serves cgt to AI agents over the Model Context Protocol on stdio or Streamable
// HTTP (`cgt mcp`, or the stand-alone `cgt-mcp` binary), using github.com/mark3labs/mcp-go.
//
// Everything comes from the catalog: each command is a tool named by its MCP name
// (calculate_report, get_fx_rate, ...) with the catalog's input and output schemas and all four
// annotations derived from its side-effect label. There is no per-tool code: one generic
// handler runs every call through registry.Execute and returns the result envelope
// {ok, data, error, warnings} unchanged, both as structuredContent and as JSON text, with
// isError set when ok is false. A failure the model can fix (a missing argument, a ledger line
// that does not parse) is such a result, carrying the error's code, message, hint, examples
// and context (line, value); protocol faults are JSON-RPC errors: -32700 malformed JSON,
// -32600 invalid request (including a message over 8 MiB), -32601 unknown method, -32602
// unknown tool.
//
// Resources: cgt://docs/tax-rules and cgt://docs/dsl-syntax (text/markdown, from docs/), and
// cgt://catalog/tools.json (the generated catalog, byte for byte).
//
// # File access
//
// Ledgers are normally passed inline (cgt_content or transactions). A `path` argument is
// honoured only inside the directories given with --root DIR; paths are cleaned and symlinks
// resolved before the check, so neither `..` nor a link can leave a root. Anything else is a
// permission_denied result that names the alternatives. Standard input is never a ledger: it
// carries the protocol.
//
// # Lifecycle
//
// A call named by notifications/cancelled is cancelled through to the engine, gets no
// response (as the specification asks) and frees its call slot at once, even while its work
// is still stopping. The server exits with status 0 when stdin closes (the requests already
// received get a second to be answered; calls still running then are cancelled and not
// answered), on SIGTERM, SIGINT or SIGHUP, and when the process that started it dies. Only
// JSON-RPC is written to stdout; logs go to stderr. It reads no environment variables.
//
// # Configuration
//
// Claude Code:
//
//	claude mcp add cgt -- cgt mcp --root ~/tax
//
// Claude Desktop (claude_desktop_config.json):
//
//	{"mcpServers": {"cgt": {"command": "cgt", "args": ["mcp", "--root", "/Users/me/tax"]}}}
//
// VS Code (.vscode/mcp.json):
//
//	{"servers": {"cgt": {"type": "stdio", "command": "cgt", "args": ["mcp", "--root", "${workspaceFolder}"]}}}
//
// MCP Inspector:
//
//	npx @modelcontextprotocol/inspector cgt mcp --root ~/tax
//
// # Streamable HTTP
//
// `cgt mcp --http ADDR` serves the same server over MCP's Streamable HTTP transport at
// http://HOST:PORT/mcp (ServeHTTP, in http.go): ADDR ":PORT" listens on 127.0.0.1, port 0 on a
// free port, and the URL is printed on stderr. Every request passes a guard first: the Host
// header must name the listening address, localhost, 127.0.0.1 or [::1] with the port, and an
// Origin header, when present, one of those too (403 otherwise: DNS rebinding); then the
// bearer token (--token, or a random one printed once with the URL) must match, compared in
// constant time (401 otherwise); a body over 8 MiB is 413. Calls go through the library's
// handlers (the stdio fast path does not apply). Sessions follow the specification: initialize
// starts one (its id in Mcp-Session-Id); a later request without the header is 400, with an id
// that names no session 404; DELETE ends a session; at most MaxSessions (100) are kept (a new
// one ends the session idle longest) and a session unused for SessionIdleTimeout (an hour)
// ends. SIGTERM, SIGINT and SIGHUP end it with status 0: calls in flight get 2 seconds to
// finish, then are stopped and answered with a JSON-RPC error saying the server is shutting
// down.
//
// # Other programs' catalogs
//
// `cgt mcp --catalog tools.json --exec PROGRAM [--allow LABEL]...` serves any
// Finance-CLI-style catalog: each command becomes a tool (dots in names become underscores),
// and each call runs `PROGRAM COMMAND key=value... --output json` and returns the envelope the
// program prints, unchanged. Only commands labelled pure_calculation run unless --allow names
// their label; others are refused with an error that says which --allow would enable them.
package mcp
