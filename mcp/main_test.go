package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
)

// standInEnv switches the test binary into the stand-in for a catalog program.
const standInEnv = "CGT_MCP_TEST_STAND_IN"

// serverBinary is cgt-mcp, built once for the subprocess tests.
var serverBinary string

func TestMain(m *testing.M) {
	if os.Getenv(standInEnv) == "1" {
		os.Exit(standIn(os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "cgt-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverBinary = filepath.Join(dir, "cgt-mcp")
	build := exec.Command("go", "build", "-o", serverBinary, "github.com/cgt-tools/cgt/cmd/cgt-mcp")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building cgt-mcp:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// standIn plays a Finance-CLI-style program: `NAME key=value... --output json` prints an
// envelope. formula.margin fails with a string error; formula.days prints no envelope.
func standIn(args []string) int {
	if len(args) < 3 || args[len(args)-2] != "--output" || args[len(args)-1] != "json" {
		fmt.Fprintln(os.Stderr, "stand-in: expected NAME key=value... --output json, got", args)
		return 2
	}
	name, kv := args[0], map[string]string{}
	for _, a := range args[1 : len(args)-2] {
		k, v, _ := strings.Cut(a, "=")
		kv[k] = v
	}
	switch name {
	case "formula.margin":
		fmt.Println(`{"ok": false, "data": null, "error": "denominator must not be zero", "warnings": ["stand-in warning"]}`)
		return 1
	case "formula.days":
		fmt.Println("Traceback (most recent call last): boom")
		fmt.Fprintln(os.Stderr, "stand-in crashed")
		return 3
	}
	out, _ := json.Marshal(map[string]any{"ok": true, "data": map[string]any{"command": name, "args": kv},
		"error": nil, "warnings": []string{"stand-in: no provider"}})
	fmt.Println(string(out))
	return 0
}

// repoRoot is the module root, where the examples' relative paths start.
func repoRoot(t testing.TB) string {
	t.Helper()
	abs, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// newClient starts an in-process client on a cgt server with the given roots.
func newClient(t testing.TB, roots ...string) *client.Client {
	t.Helper()
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "test", Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	return startClient(t, s)
}

func startClient(t testing.TB, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcpgo.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// envelope is the result envelope as a test reads it.
type envelope struct {
	OK       bool            `json:"ok"`
	Data     json.RawMessage `json:"data"`
	Error    json.RawMessage `json:"error"`
	Warnings []string        `json:"warnings"`
}

type errorObject struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Hint     string         `json:"hint"`
	Examples []string       `json:"examples"`
	Context  map[string]any `json:"context"`
}

// call runs a tool asking for JSON output, and checks the result: the envelope once (as text,
// or with structured output as structuredContent beside a one-line text), and isError
// mirroring ok.
func call(t testing.TB, c *client.Client, tool string, args any) envelope {
	t.Helper()
	if m, ok := args.(map[string]any); ok && isCGTTool(t, tool) {
		if _, set := m["output"]; !set {
			withJSON := map[string]any{"output": "json"}
			for k, v := range m {
				withJSON[k] = v
			}
			args = withJSON
		}
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return checkResult(t, tool, res)
}

// isCGTTool reports whether a tool is one of cgt's own (which take the shaping arguments),
// rather than a catalog program's.
func isCGTTool(t testing.TB, tool string) bool {
	cgtToolsOnce.Do(func() {
		cgtTools = map[string]bool{}
		for _, c := range testRegistry(t).Commands() {
			cgtTools[c.Meta().MCPName] = true
		}
	})
	return cgtTools[tool]
}

// cgtTools are the MCP names of cgt's commands, read once: building a registry is not safe
// to do from concurrent calls.
var (
	cgtToolsOnce sync.Once
	cgtTools     map[string]bool
)

func checkResult(t testing.TB, tool string, res *mcpgo.CallToolResult) envelope {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", tool, len(res.Content))
	}
	text, ok := res.Content[0].(mcpgo.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	body := []byte(text.Text)
	if res.StructuredContent != nil {
		body, _ = json.Marshal(res.StructuredContent)
		if strings.Contains(text.Text, "\n") || jsonEqual(t, []byte(text.Text), body) {
			t.Errorf("%s: with structuredContent the text should be one line, not the envelope again:\n%s", tool, text.Text)
		}
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("%s: the result is not an envelope: %v\n%s", tool, err, body)
	}
	if res.IsError == env.OK {
		t.Errorf("%s: isError=%v but ok=%v", tool, res.IsError, env.OK)
	}
	return env
}

func jsonEqual(t testing.TB, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

func errorOf(t testing.TB, e envelope) errorObject {
	t.Helper()
	var eo errorObject
	if err := json.Unmarshal(e.Error, &eo); err != nil {
		t.Fatalf("error is not an error object: %s", e.Error)
	}
	return eo
}

// inCI reports whether a missing optional input must fail rather than skip.
func inCI() bool { return os.Getenv("CI") == "true" }

func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if inCI() {
		t.Fatalf(format+" (required when CI=true)", args...)
	}
	t.Skipf(format, args...)
}
