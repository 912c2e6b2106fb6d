package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cgt-tools/cgt/catalog"
	"time"
)

// sdkClientDir holds a Node script that drives the server with the official MCP TypeScript
// SDK (and counts tokens with gpt-tokenizer). CI installs it first with:
// npm ci --prefix mcp/testdata/sdkclient
const sdkClientDir = "testdata/sdkclient"

type sdkCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type sdkSummary struct {
	Server struct {
		Name string `json:"name"`
	} `json:"server"`
	Instructions    int    `json:"instructions"`
	Tokenizer       string `json:"tokenizer"`
	ToolsListTokens int    `json:"toolsListTokens"`
	ToolsListChars  int    `json:"toolsListChars"`
	// With the stand-ins of CGT_EXTRA_TOOLS added, and each tool's own count.
	ToolsListWithExtraTokens int            `json:"toolsListWithExtraTokens"`
	ToolTokens               map[string]int `json:"toolTokens"`
	Tools                    []struct {
		Name            string         `json:"name"`
		Annotations     map[string]any `json:"annotations"`
		HasOutputSchema bool           `json:"hasOutputSchema"`
	} `json:"tools"`
	Resources []struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Bytes    int    `json:"bytes"`
	} `json:"resources"`
	Calls []struct {
		Name          string          `json:"name"`
		IsError       bool            `json:"isError"`
		OK            *bool           `json:"ok"`
		Error         json.RawMessage `json:"error"`
		ContentItems  int             `json:"contentItems"`
		HasStructured bool            `json:"hasStructured"`
		Doubled       bool            `json:"doubled"`
		Text          string          `json:"text"`
		Chars         int             `json:"chars"`
		Tokens        int             `json:"tokens"`
	} `json:"calls"`
	UnknownTool json.RawMessage `json:"unknownTool"`
}

// runSDKClient starts cgt-mcp with serverArgs under the official SDK client, makes the calls
// and returns the client's summary; it skips (fails under CI=true) when Node or the client's
// packages are missing.
func runSDKClient(t *testing.T, calls []sdkCall, serverArgs ...string) sdkSummary {
	t.Helper()
	if _, err := os.Stat(filepath.Join(sdkClientDir, "node_modules")); err != nil {
		skipOrFail(t, "%s/node_modules is missing: run npm ci --prefix mcp/testdata/sdkclient", sdkClientDir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed")
	}
	callsJSON, _ := json.Marshal(calls)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	argv := append([]string{filepath.Join(sdkClientDir, "client.mjs"), string(callsJSON), serverBinary}, serverArgs...)
	cmd := exec.CommandContext(ctx, node, argv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sdk client: %v\n%s", err, stderr.String())
	}
	var sum sdkSummary
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	return sum
}

func TestOfficialSDKClient(t *testing.T) {
	calls := sdkCalls(t, "json")
	sum := runSDKClient(t, calls, "--root", repoRoot(t))
	checkSDKSummary(t, sum, calls, false)
}

// With --structured, tools/list carries the output schemas, and a JSON result is the
// envelope as structuredContent (which the SDK validates against them) and a one-line text.
func TestOfficialSDKClientStructured(t *testing.T) {
	calls := sdkCalls(t, "")
	sum := runSDKClient(t, calls, "--root", repoRoot(t), "--structured")
	checkSDKSummary(t, sum, calls, true)
}

// sdkCalls is each tool's first example, and one call the model would have to fix; output,
// when set, is added to every call.
func sdkCalls(t *testing.T, output string) []sdkCall {
	var calls []sdkCall
	for _, cmd := range testRegistry(t).Commands() {
		if m := cmd.Meta(); len(m.Examples) > 0 && m.SideEffects.Served() {
			args := exampleArguments(t, cmd, m.Examples[0])
			if output != "" {
				args["output"] = output
			}
			calls = append(calls, sdkCall{m.MCPName, args})
		}
	}
	bad := map[string]any{"currency": "USD", "year": 2024, "month": 13}
	if output != "" {
		bad["output"] = output
	}
	return append(calls, sdkCall{"get_fx_rate", bad})
}

func checkSDKSummary(t *testing.T, sum sdkSummary, calls []sdkCall, structured bool) {
	t.Helper()
	if sum.Server.Name != "cgt" || sum.Instructions == 0 {
		t.Errorf("server %q with %d bytes of instructions", sum.Server.Name, sum.Instructions)
	}
	if len(sum.Tools) != servedCount(catalog.Own(testRegistry(t))) {
		t.Errorf("SDK listed %d tools", len(sum.Tools))
	}
	for _, tool := range sum.Tools {
		if len(tool.Annotations) < 2 || tool.HasOutputSchema != structured { // read-only tools: readOnly and openWorld
			t.Errorf("%s: annotations %v, output schema %v (structured %v)", tool.Name, tool.Annotations, tool.HasOutputSchema, structured)
		}
	}
	if len(sum.Resources) < 1 {
		t.Errorf("SDK listed no resources")
	}
	if len(sum.Calls) != len(calls) {
		t.Fatalf("%d calls answered of %d", len(sum.Calls), len(calls))
	}
	for i, c := range sum.Calls {
		wantOK := i < len(calls)-1
		if c.OK == nil || *c.OK != wantOK || c.IsError == wantOK || c.Doubled || c.HasStructured != structured || c.ContentItems != 1 {
			t.Errorf("%s: ok=%v isError=%v structured=%v doubled=%v items=%d error=%s", c.Name, c.OK, c.IsError, c.HasStructured, c.Doubled, c.ContentItems, c.Error)
		}
	}
	if string(sum.UnknownTool) != "-32602" {
		t.Errorf("unknown tool: %s, want JSON-RPC error -32602", sum.UnknownTool)
	}
}
