package toolcli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while ServeMain writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func serve(args ...string) (code int, stdout, stderr string) {
	var out, errOut syncBuffer
	builtins := map[string]ProviderFactory{"calc": inProcessProvider()}
	code = ServeMain(context.Background(), args, &out, &errOut, builtins)
	return code, out.String(), errOut.String()
}

func TestServeMainRunsCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOOLCLI_EXE", exe)
	tests := []struct {
		name   string
		script string
		code   int
		stdout string // a regexp stdout must match
	}{
		{"passes_the_environment", `echo "port=$TOOL_CLI_PORT token=${#TOOL_CLI_TOKEN}"`, 0, `^port=\d+ token=64\n$`},
		{"returns_the_exit_status", `exit 7`, 7, `^$`},
		{"signal_death_is_128_plus_n", `kill -TERM $$`, 128 + int(syscall.SIGTERM), `^$`},
		{"command_calls_the_server", `TOOLCLI_TEST_CLIENT=1 "$TOOLCLI_EXE" calc add '{"a":1,"b":2}'`, 0, `^\{\n  "sum": 3\n\}\n$`},
		{"failing_client_fails_the_chain", `TOOLCLI_TEST_CLIENT=1 "$TOOLCLI_EXE" calc nope '{}' && echo unreachable`, 1, `^$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := serve("--", "sh", "-c", tt.script)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if !regexp.MustCompile(tt.stdout).MatchString(stdout) {
				t.Errorf("stdout %q does not match %s", stdout, tt.stdout)
			}
		})
	}
}

func TestServeMainUsage(t *testing.T) {
	clash := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(clash, []byte(`{"mcpServers":{"calc":{"command":"x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown_flag_is_one_line", []string{"--bogus"}, 2, "Error: flag provided but not defined: -bogus (see --help)\n"},
		{"command_without_separator", []string{"sh", "-c", "true"}, 2, `Error: unexpected argument "sh" (put a command after --)`},
		{"bad_port", []string{"--port", "70000"}, 2, "Error: --port 70000"},
		{"missing_config", []string{"--mcp-config", "/nonexistent.json"}, 1, "Error: --mcp-config: open /nonexistent.json"},
		{"config_clashes_with_builtin", []string{"--mcp-config", clash}, 1, `server "calc" clashes with a built-in server`},
		{"command_not_found", []string{"--", "/nonexistent/cmd"}, 127, "Error: fork/exec /nonexistent/cmd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := serve(tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.stderr)
			}
		})
	}
}

func TestServeMainHelpIsOnStdout(t *testing.T) {
	code, stdout, stderr := serve("--port", "1", "--help")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Usage: cgt serve") || !strings.Contains(stdout, "\n  --mcp-config string\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// waitFor polls until cond holds, failing the test after a few seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func parseExports(t *testing.T, text string) func(string) string {
	t.Helper()
	m := regexp.MustCompile(`^export TOOL_CLI_PORT=(\d+)\nexport TOOL_CLI_TOKEN=([0-9a-f]{64})\n$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("exports %q", text)
	}
	var port int
	fmt.Sscan(m[1], &port)
	return envFor(port, m[2])
}

func TestServeMainPrintsExportsAndStopsOnSignal(t *testing.T) {
	var out, errOut syncBuffer
	done := make(chan int)
	go func() {
		done <- ServeMain(context.Background(), nil, &out, &errOut, map[string]ProviderFactory{"calc": inProcessProvider()})
	}()
	waitFor(t, "export lines", func() bool { return strings.Count(out.String(), "\n") == 2 })
	env := parseExports(t, out.String())
	if code, stdout, stderr := runClient(env, "calc", "echo", `{"text":"served"}`); code != 0 || stdout != "served\n" {
		t.Fatalf("client: exit %d, %q %q", code, stdout, stderr)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after SIGTERM, want 0 (stderr %q)", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeMain did not stop on SIGTERM")
	}
	if code, _, stderr := runClient(env); code != 1 || !strings.HasPrefix(stderr, "Error: no tool-cli server") {
		t.Errorf("after stop: exit %d, stderr %q", code, stderr)
	}
}

func TestServeMainWritesEnvFile(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "tool-cli.env")
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int)
	go func() {
		done <- ServeMain(ctx, []string{"--env-file", envFile, "--token", "secret-token"}, &out, &errOut, map[string]ProviderFactory{"calc": inProcessProvider()})
	}()
	waitFor(t, "the env file", func() bool { _, err := os.Stat(envFile); return err == nil })
	info, err := os.Stat(envFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("env file mode %v, %v; want 0600", info.Mode(), err)
	}
	data, _ := os.ReadFile(envFile)
	m := regexp.MustCompile(`^export TOOL_CLI_PORT=(\d+)\nexport TOOL_CLI_TOKEN=secret-token\n$`).FindStringSubmatch(string(data))
	if m == nil {
		t.Fatalf("env file %q", data)
	}
	var port int
	fmt.Sscan(m[1], &port)
	if code, _, stderr := runClient(envFor(port, "secret-token"), "calc"); code != 0 {
		t.Errorf("client: exit %d, %q", code, stderr)
	}
	if out.String() != "" {
		t.Errorf("stdout %q, want nothing when --env-file is given", out.String())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}
