package toolcli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// clientEnv switches the test binary into the tool-cli client, for commands
// run by ServeMain.
const clientEnv = "TOOLCLI_TEST_CLIENT"

// stdioServerEnv switches the test binary into a small MCP stdio server,
// the one the bridge tests start through an mcpServers config.
const stdioServerEnv = "TOOLCLI_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioServerEnv) == "1" {
		if err := server.ServeStdio(newStdioTestServer()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(clientEnv) == "1" {
		os.Exit(ClientMain(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
	}
	os.Exit(m.Run())
}

func newStdioTestServer() *server.MCPServer {
	s := server.NewMCPServer("stdio-test", "1")
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo text back."), mcp.WithString("text", mcp.Required())), echoTool)
	s.AddTool(mcp.NewTool("pid", mcp.WithDescription("Report the server's process id."),
		mcp.WithRawOutputSchema(json.RawMessage(`{"type":"object","properties":{"pid":{"type":"integer"}}}`))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			pid := os.Getpid()
			return mcp.NewToolResultStructured(map[string]int{"pid": pid}, fmt.Sprint(pid)), nil
		})
	s.AddTool(mcp.NewTool("crash", mcp.WithDescription("Exit at once, as a crash.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	return s
}

func echoTool(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(text), nil
}

// newInProcessTestServer has one tool of each kind the protocol renders:
// text, structured with an output schema and annotations, a tool error.
func newInProcessTestServer() *server.MCPServer {
	s := server.NewMCPServer("in-process-test", "1")
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo text back.\nSecond line."), mcp.WithString("text", mcp.Required())), echoTool)
	s.AddTool(mcp.NewTool("add",
		mcp.WithDescription("Add two numbers."),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required()),
		mcp.WithRawOutputSchema(json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`)),
		mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true), mcp.WithOpenWorldHintAnnotation(false),
	), addTool)
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Always report a tool error.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("boom: no such ledger"), nil
		})
	s.AddTool(mcp.NewTool("noop", mcp.WithDescription("Answer ok.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	return s
}

func addTool(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := req.RequireFloat("a")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	b, err := req.RequireFloat("b")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	sum := a + b
	return mcp.NewToolResultStructured(map[string]float64{"sum": sum}, fmt.Sprint(sum)), nil
}

func inProcessProvider() ProviderFactory {
	return InProcessProvider(newInProcessTestServer())
}

// startServer listens with the given providers and shuts down at the end
// of the test.
func startServer(t testing.TB, providers map[string]ProviderFactory) *Server {
	t.Helper()
	srv, err := Listen(Options{Providers: providers, Log: testLog{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return srv
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// post sends body with the given method and headers and returns the
// status and decoded JSON body.
func post(t testing.TB, srv *Server, method, body string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+srv.Token())
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", data, err)
	}
	return resp.StatusCode, out
}

// rpc posts one JSON-RPC request and returns the decoded response.
func rpc(t testing.TB, srv *Server, method string, params any) map[string]any {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	status, out := post(t, srv, http.MethodPost, string(body), nil)
	if status != http.StatusOK {
		t.Fatalf("%s: status %d: %v", method, status, out)
	}
	return out
}

// mustJSON re-encodes v compactly with sorted keys, for comparisons.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
