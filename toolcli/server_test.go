package toolcli

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
)

func testProviders() map[string]ProviderFactory {
	return map[string]ProviderFactory{
		"calc":  inProcessProvider(),
		"alpha": inProcessProvider(),
		"broken": func(context.Context) (mcpclient.MCPClient, error) {
			return nil, errors.New("no such program")
		},
	}
}

func TestHTTPChecks(t *testing.T) {
	srv := startServer(t, testProviders())
	ok := `{"jsonrpc":"2.0","id":1,"method":"listServers"}`
	tests := []struct {
		name     string
		method   string
		body     string
		header   map[string]string
		status   int
		wantBody string // a JSON fragment the response must contain
	}{
		{"get_is_not_allowed", http.MethodGet, "", nil, 405, `"error":{"code":-32600,"message":"Only POST accepted"}`},
		{"put_is_not_allowed", http.MethodPut, ok, nil, 405, `"code":-32600`},
		{"missing_token", http.MethodPost, ok, map[string]string{"Authorization": ""}, 401, `{"error":"Unauthorized"}`},
		{"wrong_token", http.MethodPost, ok, map[string]string{"Authorization": "Bearer nope"}, 401, `{"error":"Unauthorized"}`},
		{"token_without_scheme", http.MethodPost, ok, map[string]string{"Authorization": srv.Token()}, 401, `{"error":"Unauthorized"}`},
		{"basic_scheme", http.MethodPost, ok, map[string]string{"Authorization": "Basic " + srv.Token()}, 401, `{"error":"Unauthorized"}`},
		{"right_token", http.MethodPost, ok, nil, 200, `"result":{"servers":`},
		{"foreign_host", http.MethodPost, ok, map[string]string{"Host": "evil.example.com"}, 403, `"error":"Forbidden`},
		{"foreign_host_with_port", http.MethodPost, ok, map[string]string{"Host": "evil.example.com:7179"}, 403, `"error":"Forbidden`},
		{"rebinding_ip_host", http.MethodPost, ok, map[string]string{"Host": "10.0.0.1"}, 403, `"error":"Forbidden`},
		{"foreign_origin", http.MethodPost, ok, map[string]string{"Origin": "http://evil.example.com"}, 403, `"error":"Forbidden`},
		{"null_origin", http.MethodPost, ok, map[string]string{"Origin": "null"}, 403, `"error":"Forbidden`},
		{"localhost_host", http.MethodPost, ok, map[string]string{"Host": "localhost:1234"}, 200, `"result"`},
		{"ipv6_loopback_host", http.MethodPost, ok, map[string]string{"Host": "[::1]:1234"}, 200, `"result"`},
		{"loopback_origin", http.MethodPost, ok, map[string]string{"Origin": "http://localhost:3000"}, 200, `"result"`},
		{"forbidden_before_unauthorized", http.MethodPost, ok, map[string]string{"Host": "evil.example.com", "Authorization": ""}, 403, `"error":"Forbidden`},
		{"too_large", http.MethodPost, ok + strings.Repeat(" ", MaxRequestBytes), nil, 413, `"error":{"code":-32600,"message":"Request too large"}`},
		{"exactly_the_limit", http.MethodPost, ok + strings.Repeat(" ", MaxRequestBytes-len(ok)), nil, 200, `"result"`},
		{"too_large_without_token", http.MethodPost, strings.Repeat(" ", MaxRequestBytes+1), map[string]string{"Authorization": ""}, 401, `{"error":"Unauthorized"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := post(t, srv, tt.method, tt.body, tt.header)
			if status != tt.status {
				t.Errorf("status = %d, want %d (%v)", status, tt.status, out)
			}
			if got := mustJSON(t, out); !strings.Contains(got, tt.wantBody) {
				t.Errorf("body %s lacks %s", got, tt.wantBody)
			}
		})
	}
}

func TestJSONRPCErrors(t *testing.T) {
	srv := startServer(t, testProviders())
	tests := []struct {
		name    string
		body    string
		code    int
		message string // a prefix of the error message
		id      any
	}{
		{"unparsable", `{"jsonrpc":`, CodeParseError, "Parse error", nil},
		{"empty_body", ``, CodeParseError, "Parse error", nil},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"listServers"}]`, CodeInvalidRequest, "Invalid Request: batch", nil},
		{"not_an_object", `"listServers"`, CodeInvalidRequest, "Invalid Request", nil},
		{"wrong_version", `{"jsonrpc":"1.0","id":7,"method":"listServers"}`, CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`, 7.0},
		{"no_version", `{"id":"a","method":"listServers"}`, CodeInvalidRequest, `Invalid Request: "jsonrpc"`, "a"},
		{"no_method", `{"jsonrpc":"2.0","id":2}`, CodeInvalidRequest, `Invalid Request: "method" is required`, 2.0},
		{"object_id", `{"jsonrpc":"2.0","id":{},"method":"listServers"}`, CodeInvalidRequest, "Invalid Request: id", nil},
		{"unknown_method", `{"jsonrpc":"2.0","id":3,"method":"nope"}`, CodeMethodNotFound, "Method not found: nope", 3.0},
		{"params_not_object", `{"jsonrpc":"2.0","id":4,"method":"listTools","params":[1]}`, CodeInvalidParams, "Invalid params", 4.0},
		{"missing_server", `{"jsonrpc":"2.0","id":5,"method":"listTools"}`, CodeInvalidParams, `Missing or invalid parameter: "server" (string required)`, 5.0},
		{"server_not_string", `{"jsonrpc":"2.0","id":5,"method":"listTools","params":{"server":1}}`, CodeInvalidParams, `Missing or invalid parameter: "server" (string required)`, 5.0},
		{"unknown_server", `{"jsonrpc":"2.0","id":6,"method":"listTools","params":{"server":"x"}}`, CodeInvalidParams, `Server "x" not found. Connected: alpha, broken, calc`, 6.0},
		{"missing_tool", `{"jsonrpc":"2.0","id":8,"method":"describeTool","params":{"server":"calc"}}`, CodeInvalidParams, `Missing or invalid parameter: "tool" (string required)`, 8.0},
		{"unknown_tool", `{"jsonrpc":"2.0","id":9,"method":"describeTool","params":{"server":"calc","tool":"t"}}`, CodeInvalidParams, `Tool "t" not found on server "calc"`, 9.0},
		{"call_unknown_tool", `{"jsonrpc":"2.0","id":9,"method":"callTool","params":{"server":"calc","tool":"t"}}`, CodeInvalidParams, `Tool "t" not found on server "calc"`, 9.0},
		{"arguments_not_object", `{"jsonrpc":"2.0","id":10,"method":"callTool","params":{"server":"calc","tool":"echo","arguments":"hi"}}`, CodeInvalidParams, `Missing or invalid parameter: "arguments" (object required)`, 10.0},
		{"provider_fails_to_start", `{"jsonrpc":"2.0","id":11,"method":"listTools","params":{"server":"broken"}}`, CodeInternalError, `server "broken" failed to start: no such program`, 11.0},
		{"call_on_broken_provider", `{"jsonrpc":"2.0","id":12,"method":"callTool","params":{"server":"broken","tool":"x"}}`, CodeInternalError, `server "broken" failed to start`, 12.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := post(t, srv, http.MethodPost, tt.body, nil)
			if status != http.StatusOK {
				t.Fatalf("status = %d, want 200", status)
			}
			if out["jsonrpc"] != "2.0" {
				t.Errorf("jsonrpc = %v", out["jsonrpc"])
			}
			if id, ok := out["id"]; !ok || id != tt.id {
				t.Errorf("id = %v (present %v), want %v", id, ok, tt.id)
			}
			if _, ok := out["result"]; ok {
				t.Errorf("error response carries a result: %v", out)
			}
			e, _ := out["error"].(map[string]any)
			if e == nil {
				t.Fatalf("no error in %v", out)
			}
			if int(e["code"].(float64)) != tt.code || !strings.HasPrefix(e["message"].(string), tt.message) {
				t.Errorf("error = %v, want code %d and message %q...", e, tt.code, tt.message)
			}
		})
	}
}

func TestMethodResults(t *testing.T) {
	srv := startServer(t, testProviders())
	tests := []struct {
		name   string
		method string
		params any
		want   string
	}{
		{"list_servers", MethodListServers, nil,
			`{"servers":[` +
				`{"examples":["add","echo","fail"],"name":"alpha","toolCount":4},` +
				`{"error":"server \"broken\" failed to start: no such program","examples":[],"name":"broken","toolCount":0},` +
				`{"examples":["add","echo","fail"],"name":"calc","toolCount":4}]}`},
		{"list_tools", MethodListTools, map[string]any{"server": "calc"},
			`{"server":"calc","tools":[` +
				`{"description":"Add two numbers.","hasStructuredOutput":true,"name":"add"},` +
				`{"description":"Echo text back.\nSecond line.","hasStructuredOutput":false,"name":"echo"},` +
				`{"description":"Always report a tool error.","hasStructuredOutput":false,"name":"fail"},` +
				`{"description":"Answer ok.","hasStructuredOutput":false,"name":"noop"}]}`},
		{"describe_tool_gives_the_input_schema_and_annotations", MethodDescribeTool, map[string]any{"server": "calc", "tool": "add"},
			`{"annotations":{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true},` +
				`"description":"Add two numbers.",` +
				`"inputSchema":{"properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"type":"object"},` +
				`"name":"add"}`},
		{"describe_tool_gives_the_output_schema_when_asked", MethodDescribeTool, map[string]any{"server": "calc", "tool": "add", "includeOutputSchema": true},
			`{"annotations":{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true},` +
				`"description":"Add two numbers.",` +
				`"inputSchema":{"properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"type":"object"},` +
				`"name":"add",` +
				`"outputSchema":{"properties":{"sum":{"type":"number"}},"required":["sum"],"type":"object"}}`},
		{"call_tool_structured", MethodCallTool, map[string]any{"server": "calc", "tool": "add", "arguments": map[string]any{"a": 2, "b": 3}},
			`{"content":[{"text":"5","type":"text"}],"structuredContent":{"sum":5}}`},
		{"call_tool_text", MethodCallTool, map[string]any{"server": "calc", "tool": "echo", "arguments": map[string]any{"text": "hi <there>"}},
			`{"content":[{"text":"hi <there>","type":"text"}]}`},
		{"call_tool_error", MethodCallTool, map[string]any{"server": "calc", "tool": "fail"},
			`{"content":[{"text":"boom: no such ledger","type":"text"}],"isError":true}`},
		{"arguments_default_to_empty_object", MethodCallTool, map[string]any{"server": "calc", "tool": "noop"},
			`{"content":[{"text":"ok","type":"text"}]}`},
		{"null_arguments", MethodCallTool, map[string]any{"server": "calc", "tool": "noop", "arguments": nil},
			`{"content":[{"text":"ok","type":"text"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := rpc(t, srv, tt.method, tt.params)
			if out["error"] != nil {
				t.Fatalf("error: %v", out["error"])
			}
			if got := mustJSON(t, out["result"]); got != tt.want {
				t.Errorf("result =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestDescribeToolOmitsAbsentOutputSchema(t *testing.T) {
	srv := startServer(t, testProviders())
	out := rpc(t, srv, MethodDescribeTool, map[string]any{"server": "calc", "tool": "echo"})
	res := out["result"].(map[string]any)
	if _, ok := res["outputSchema"]; ok {
		t.Errorf("outputSchema present: %v", res)
	}
	if res["inputSchema"] == nil {
		t.Errorf("inputSchema missing: %v", res)
	}
}

func TestListenDefaults(t *testing.T) {
	srv := startServer(t, nil)
	if len(srv.Token()) != 64 {
		t.Errorf("token %q is not 32 bytes of hex", srv.Token())
	}
	if srv.Port() == 0 || !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") {
		t.Errorf("URL = %s", srv.URL())
	}
	other := startServer(t, nil)
	if other.Token() == srv.Token() {
		t.Error("two servers share a token")
	}
}
