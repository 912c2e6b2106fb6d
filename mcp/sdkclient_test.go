package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// sdkClientDir holds a Node script that drives the server with the official MCP TypeScript
// SDK. CI installs it first with: npm ci --prefix mcp/testdata/sdkclient
const sdkClientDir = "testdata/sdkclient"

type sdkCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type sdkSummary struct {
	Server struct {
		Name string `json:"name"`
	} `json:"server"`
	Instructions int `json:"instructions"`
	Tools        []struct {
		Name            string          `json:"name"`
		Annotations     map[string]any  `json:"annotations"`
		HasOutputSchema bool            `json:"hasOutputSchema"`
		Extra           json.RawMessage `json:"-"`
	} `json:"tools"`
	Resources []struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Bytes    int    `json:"bytes"`
	} `json:"resources"`
	Calls []struct {
		Name        string          `json:"name"`
		IsError     bool            `json:"isError"`
		OK          *bool           `json:"ok"`
		TextMatches bool            `json:"textMatches"`
		Error       json.RawMessage `json:"error"`
	} `json:"calls"`
	UnknownTool json.RawMessage `json:"unknownTool"`
}

func TestOfficialSDKClient(t *testing.T) {
	if _, err := os.Stat(filepath.Join(sdkClientDir, "node_modules")); err != nil {
		skipOrFail(t, "%s/node_modules is missing: run npm ci --prefix mcp/testdata/sdkclient", sdkClientDir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed")
	}
	calls := sdkCalls(t)
	callsJSON, _ := json.Marshal(calls)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(sdkClientDir, "client.mjs"), string(callsJSON), serverBinary, "--root", repoRoot(t))
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
	checkSDKSummary(t, sum, calls)
}

// sdkCalls is each tool's first example, and one call the model would have to fix.
func sdkCalls(t *testing.T) []sdkCall {
	var calls []sdkCall
	for _, cmd := range testRegistry(t).Commands() {
		if m := cmd.Meta(); len(m.Examples) > 0 {
			calls = append(calls, sdkCall{m.MCPName, exampleArguments(t, cmd, m.Examples[0])})
		}
	}
	return append(calls, sdkCall{"get_fx_rate", map[string]any{"currency": "USD", "year": 2024, "month": 13}})
}

func checkSDKSummary(t *testing.T, sum sdkSummary, calls []sdkCall) {
	t.Helper()
	if sum.Server.Name != "cgt" || sum.Instructions == 0 {
		t.Errorf("server %q with %d bytes of instructions", sum.Server.Name, sum.Instructions)
	}
	if len(sum.Tools) != len(testRegistry(t).Commands()) {
		t.Errorf("SDK listed %d tools", len(sum.Tools))
	}
	for _, tool := range sum.Tools {
		if len(tool.Annotations) < 4 || !tool.HasOutputSchema {
			t.Errorf("%s: annotations %v, output schema %v", tool.Name, tool.Annotations, tool.HasOutputSchema)
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
		if c.OK == nil || *c.OK != wantOK || c.IsError == wantOK || !c.TextMatches {
			t.Errorf("%s: ok=%v isError=%v textMatches=%v error=%s", c.Name, c.OK, c.IsError, c.TextMatches, c.Error)
		}
	}
	if string(sum.UnknownTool) != "-32602" {
		t.Errorf("unknown tool: %s, want JSON-RPC error -32602", sum.UnknownTool)
	}
}
