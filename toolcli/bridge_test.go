package toolcli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeStdioConfig writes an mcpServers file naming this test binary as
// the MCP stdio server "stdio".
func writeStdioConfig(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"mcpServers": map[string]any{
		"stdio": map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{stdioServerEnv: "1"}},
	}}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func callResult(t *testing.T, srv *Server, tool string, args any) map[string]any {
	t.Helper()
	out := rpc(t, srv, MethodCallTool, map[string]any{"server": "stdio", "tool": tool, "arguments": args})
	if out["error"] != nil {
		t.Fatalf("callTool %s: %v", tool, out["error"])
	}
	return out["result"].(map[string]any)
}

func pidOf(t *testing.T, srv *Server) int {
	t.Helper()
	res := callResult(t, srv, "pid", nil)
	return int(res["structuredContent"].(map[string]any)["pid"].(float64))
}

func TestBridgeStdioServerRestartsAfterCrash(t *testing.T) {
	providers, err := LoadMCPConfig(writeStdioConfig(t), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	providers["calc"] = inProcessProvider()
	srv := startServer(t, providers)

	list := rpc(t, srv, MethodListServers, nil)
	if got, want := mustJSON(t, list["result"]), `{"servers":[{"examples":["add","echo","fail"],"name":"calc","toolCount":4},{"examples":["crash","echo","pid"],"name":"stdio","toolCount":3}]}`; got != want {
		t.Errorf("listServers = %s, want %s", got, want)
	}
	echo := callResult(t, srv, "echo", map[string]any{"text": "through the bridge"})
	if got := mustJSON(t, echo); got != `{"content":[{"text":"through the bridge","type":"text"}]}` {
		t.Errorf("echo = %s", got)
	}
	first := pidOf(t, srv)

	crashed := rpc(t, srv, MethodCallTool, map[string]any{"server": "stdio", "tool": "crash"})
	e, _ := crashed["error"].(map[string]any)
	if e == nil || e["code"].(float64) != CodeInternalError || !strings.Contains(e["message"].(string), `server "stdio" failed`) {
		t.Fatalf("crash answered %v, want -32603 naming the server", crashed)
	}
	t.Logf("crash reported as: %s", e["message"])

	second := pidOf(t, srv)
	if second == first {
		t.Errorf("server not restarted: pid %d both times", first)
	}
	if !gone(first) {
		t.Errorf("crashed server %d still running", first)
	}
	ctx, cancel := contextWithTimeout(10 * time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if !gone(second) {
		t.Errorf("server %d still running after shutdown", second)
	}
}

// gone waits a little for a process to exit and be reaped.
func gone(pid int) bool {
	for range 100 {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func TestLoadMCPConfigRejects(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"not_json", `{`, "unexpected end"},
		{"no_mcp_servers", `{"servers":{}}`, `no "mcpServers" object`},
		{"server_without_command", `{"mcpServers":{"web":{"url":"http://x"}}}`, `server "web": "command" is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mcp.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadMCPConfig(path, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
