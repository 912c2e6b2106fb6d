package toolcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envFor(port int, token string) func(string) string {
	vars := map[string]string{EnvPort: fmt.Sprint(port), EnvToken: token}
	return func(k string) string { return vars[k] }
}

func runClient(env func(string) string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = ClientMain(args, &out, &errOut, env)
	return code, out.String(), errOut.String()
}

// closedPort returns a port nothing listens on.
func closedPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

func TestClientSucceeds(t *testing.T) {
	srv := startServer(t, map[string]ProviderFactory{"calc": inProcessProvider()})
	env := envFor(srv.Port(), srv.Token())
	tests := []struct {
		name string
		args []string
		want []string // fragments of stdout
	}{
		{"help", []string{"--help"}, []string{"Usage: tool-cli [SERVER [TOOL"}},
		{"list_servers", nil, []string{"calc  4 tools  add, echo, fail\n", "Next: tool-cli SERVER"}},
		{"list_tools", []string{"calc"}, []string{"calc: 4 tools", "  echo  Echo text back.\n", "Next: tool-cli calc TOOL"}},
		{"describe_tool", []string{"calc", "add"}, []string{
			"calc add\n\nAdd two numbers.\n",
			"Input schema:\n{\n  \"properties\": {",
			"Annotations: readOnlyHint=true destructiveHint=false idempotentHint=true openWorldHint=false\n",
			`Usage: tool-cli calc add '{"a":0,"b":0}'`,
		}},
		{"describe_tool_with_output_schema", []string{"calc", "add", "--output-schema"}, []string{
			"Input schema:\n{\n  \"properties\": {",
			"Output schema:\n{",
			"Annotations: readOnlyHint=true destructiveHint=false idempotentHint=true openWorldHint=false\n",
			`Usage: tool-cli calc add '{"a":0,"b":0}'`,
		}},
		{"call_structured", []string{"calc", "add", `{"a": 2, "b": 3}`}, []string{"{\n  \"sum\": 5\n}\n"}},
		{"call_text", []string{"calc", "echo", `{"text": "hi"}`}, []string{"hi\n"}},
		{"flags_after_arguments", []string{"calc", "--json"}, []string{`"server": "calc"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runClient(env, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

func TestClientCallPrintsExactlyTheStructuredContent(t *testing.T) {
	srv := startServer(t, map[string]ProviderFactory{"calc": inProcessProvider()})
	code, stdout, _ := runClient(envFor(srv.Port(), srv.Token()), "calc", "add", `{"a":1,"b":1}`)
	if code != 0 || stdout != "{\n  \"sum\": 2\n}\n" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Errorf("stdout is not JSON for jq: %v", err)
	}
}

func TestClientToolErrorGoesToStderr(t *testing.T) {
	srv := startServer(t, map[string]ProviderFactory{"calc": inProcessProvider()})
	code, stdout, stderr := runClient(envFor(srv.Port(), srv.Token()), "calc", "fail", `{}`)
	if code != 1 || stdout != "" || stderr != "boom: no such ledger\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestClientOut(t *testing.T) {
	srv := startServer(t, map[string]ProviderFactory{"calc": inProcessProvider()})
	env := envFor(srv.Port(), srv.Token())
	dir := t.TempDir()
	file := filepath.Join(dir, "sum.json")
	code, stdout, stderr := runClient(env, "calc", "add", `{"a":2,"b":2}`, "--out", file)
	if code != 0 || stderr != "" || stdout != "Written to: "+file+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil || string(data) != "{\n  \"sum\": 4\n}\n" {
		t.Errorf("file = %q, %v", data, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}

	other := filepath.Join(dir, "fail.json")
	if code, _, _ := runClient(env, "calc", "fail", `{}`, "--out="+other); code != 1 {
		t.Errorf("tool error exit %d, want 1", code)
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Errorf("a tool error wrote %s", other)
	}
}

func TestClientFailuresAreOneErrorLine(t *testing.T) {
	srv := startServer(t, map[string]ProviderFactory{"calc": inProcessProvider()})
	good := envFor(srv.Port(), srv.Token())
	tests := []struct {
		name string
		env  func(string) string
		args []string
		want string // prefix of the message after "Error: "
	}{
		{"no_server_running", envFor(closedPort(t), "x"), nil, "no tool-cli server at http://127.0.0.1:"},
		{"bad_token", envFor(srv.Port(), "wrong"), nil, "unauthorized: TOOL_CLI_TOKEN does not match"},
		{"no_token", envFor(srv.Port(), ""), []string{"calc"}, "unauthorized"},
		{"bad_port", func(k string) string { return map[string]string{EnvPort: "http"}[k] }, nil, `TOOL_CLI_PORT="http" is not a port number`},
		{"bad_json_arguments", good, []string{"calc", "add", `{a: 1}`}, "arguments are not valid JSON: {a: 1}"},
		{"arguments_not_object", good, []string{"calc", "add", `[1, 2]`}, "arguments must be a JSON object"},
		{"unknown_server", good, []string{"nope"}, `Server "nope" not found. Connected: calc`},
		{"unknown_tool", good, []string{"calc", "nope"}, `Tool "nope" not found on server "calc"`},
		{"unknown_tool_call", good, []string{"calc", "nope", `{}`}, `Tool "nope" not found on server "calc"`},
		{"too_many_arguments", good, []string{"calc", "add", `{"a":1}`, `{"b":2}`}, "too many arguments"},
		{"unknown_flag", good, []string{"--verbose"}, "unknown flag --verbose"},
		{"out_without_call", good, []string{"calc", "--out", "x"}, "--out applies only to a tool call"},
		{"out_without_file", good, []string{"calc", "add", "{}", "--out"}, "--out needs a file name"},
		{"out_into_missing_directory", good, []string{"calc", "add", `{"a":1,"b":1}`, "--out", "/nonexistent/dir/x.json"}, "--out: cannot create a file in /nonexistent/dir: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runClient(tt.env, tt.args...)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "Error: "+tt.want) {
				t.Errorf("stderr %q, want one line starting %q", stderr, "Error: "+tt.want)
			}
		})
	}
}
