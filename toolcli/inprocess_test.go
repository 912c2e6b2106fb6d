package toolcli

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func TestToolListFollowsListChanged(t *testing.T) {
	s := server.NewMCPServer("changing", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("old", mcp.WithDescription("Soon gone.")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("old"), nil
	})
	srv := startServer(t, map[string]ProviderFactory{"changing": InProcessProvider(s)})
	if out := rpc(t, srv, MethodDescribeTool, map[string]any{"server": "changing", "tool": "old"}); out["error"] != nil {
		t.Fatalf("describe old: %v", out["error"])
	}

	s.DeleteTools("old")
	s.AddTool(mcp.NewTool("new", mcp.WithDescription("Just added.")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("new"), nil
	})
	waitFor(t, "the new tool list", func() bool {
		out := rpc(t, srv, MethodListTools, map[string]any{"server": "changing"})
		return mustJSON(t, out["result"]) == `{"server":"changing","tools":[{"description":"Just added.","hasStructuredOutput":false,"name":"new"}]}`
	})
	out := rpc(t, srv, MethodCallTool, map[string]any{"server": "changing", "tool": "old"})
	if e, _ := out["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), `Tool "old" not found`) {
		t.Errorf("calling a deleted tool answered %v", out)
	}
}

func TestInProcessClientReportsServerErrors(t *testing.T) {
	c, err := InProcessProvider(newInProcessTestServer())(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := initialize(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "missing"
	if _, err := c.CallTool(context.Background(), req); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("error = %v, want one naming the missing tool", err)
	}
}

func TestCallToolResultOfDecodesOtherForms(t *testing.T) {
	res, err := callToolResultOf(map[string]any{"content": []any{map[string]any{"type": "text", "text": "hi"}}, "isError": true})
	if err != nil || !res.IsError || len(res.Content) != 1 {
		t.Errorf("result %+v, %v", res, err)
	}
}
