package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// callText runs a tool with the arguments as given (the server's defaults apply) and returns
// the text of the result and whether it is an error.
func callText(t *testing.T, c *client.Client, tool string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if len(res.Content) != 1 || res.StructuredContent != nil {
		t.Fatalf("%s: %d content items, structured %v: want one text", tool, len(res.Content), res.StructuredContent != nil)
	}
	return res.Content[0].(mcpgo.TextContent).Text, res.IsError
}

func ledger40(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/ledger40.cgt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResultsAreCompactAndSayHowToAskForMore(t *testing.T) {
	c := newClient(t)
	text, isErr := callText(t, c, "calculate_report", map[string]any{"cgt_content": ledger40(t), "year": 2024})
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if isErr || !strings.HasPrefix(lines[0], "ledger|tax_year|2024/25|") {
		t.Fatalf("want the year's record first, named by the ledger:\n%s", text)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "more|") || last != "more|detail=disposals or full" {
		t.Errorf("the last line should say how to ask for more: %s", last)
	}
	if strings.Contains(text, "|disposal|") {
		t.Errorf("the default detail is the summary, without disposals:\n%s", text)
	}
}

func TestDenseResultsStopAtARecordBoundaryNamingTheNarrowingArguments(t *testing.T) {
	c := newClient(t)
	text, isErr := callText(t, c, "calculate_report", map[string]any{"cgt_content": ledger40(t), "detail": "full", "max_chars": 2000})
	if isErr {
		t.Fatalf("failed: %s", text)
	}
	var truncated string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "truncated|") {
			truncated = l
		}
	}
	for _, arg := range []string{"ticker", "from", "to", "detail", "max_chars"} {
		if !strings.Contains(truncated, arg) {
			t.Errorf("the truncation line should name %s: %q", arg, truncated)
		}
	}
	body := text[:strings.Index(text, "truncated|")]
	if len(body) > 2000 {
		t.Errorf("%d characters of records, over max_chars 2000", len(body))
	}
}

func TestJSONOverTheBoundIsANoteNotACutEnvelope(t *testing.T) {
	c := newClient(t)
	text, isErr := callText(t, c, "calculate_report", map[string]any{"cgt_content": ledger40(t), "detail": "full", "output": "json", "max_chars": 5000})
	var env struct {
		OK    bool `json:"ok"`
		Error struct {
			Code    string `json:"code"`
			Hint    string `json:"hint"`
			Context map[string]any
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(text), &env); err != nil || env.OK || !isErr {
		t.Fatalf("want a whole envelope with ok=false: %v\n%.300s", err, text)
	}
	if len(text) > 5000 || !strings.Contains(env.Error.Hint, "ticker") || !strings.Contains(env.Error.Hint, "max_chars") {
		t.Errorf("the note should be short and name the narrowing arguments: %s", text)
	}
}

// Over MCP an error speaks of arguments and JSON, never of the command line.
func TestErrorsSpeakInJSONArguments(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"calculate_report", map[string]any{"cgt_content": "x", "output": "json", "nope": 1}},
		{"get_fx_rate", map[string]any{"currency": "USD", "year": 2024, "output": "json"}},
		{"explain_matching", map[string]any{"cgt_content": "2024-04-01 BUY T 1 @ 1\n2024-05-01 SELL T 1 @ 2", "date": "2024-05-02", "ticker": "T", "output": "json"}},
		{"calculate_report", map[string]any{"cgt_content": "2024-04-01 BUY T 1 @ 1", "output": "compact", "fields": []any{"nope"}}},
	} {
		text, isErr := callText(t, c, tc.tool, tc.args)
		if !isErr {
			t.Errorf("%s %v: want an error, got %s", tc.tool, tc.args, text)
		}
		for _, cli := range []string{"cgt help", "`cgt", "--fields", "--rates", "--output"} {
			if strings.Contains(text, cli) {
				t.Errorf("%s: the error speaks of the command line (%q):\n%s", tc.tool, cli, text)
			}
		}
		if strings.Contains(text, `"examples"`) && !strings.Contains(text, `{\"`) {
			t.Errorf("%s: examples should be JSON arguments:\n%s", tc.tool, text)
		}
	}
}

// An alias is accepted but not listed: every argument appears once in a schema, under its
// canonical name.
func TestAliasesAcceptedNotListed(t *testing.T) {
	c := newClient(t)
	args := map[string]any{"cgt_content": "2024-04-01 BUY T 1 @ 1\n2024-05-01 SELL T 1 @ 2", "date": "2024-05-01", "ticker": "T"}
	if text, isErr := callText(t, c, "explain_matching", args); isErr {
		t.Fatalf("date is an alias of disposal_date: %s", text)
	}
	for _, cmd := range testRegistry(t).Commands() {
		props, _ := cmd.InputSchema()["properties"].(map[string]any)
		for _, a := range cmd.Args() {
			for _, alias := range a.Aliases {
				if _, ok := props[alias]; ok {
					t.Errorf("%s lists the alias %s (of %s) in its schema", cmd.Meta().Name, alias, a.Name)
				}
			}
		}
	}
}

// A filter that matches nothing is an error naming what the ledger has, never the whole
// ledger's totals.
func TestFilterMatchingNothingIsAnError(t *testing.T) {
	c := newClient(t, repoRoot(t))
	for _, tc := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"path": []any{tokensLedgerFile}, "year": 2024, "ticker": "APPL"}, []string{"error|not_found|", "Did you mean AAPL?", `example={"ticker":"AAPL"}`}},
		{map[string]any{"path": []any{tokensLedgerFile}, "from": "2030-01-01"}, []string{"error|invalid_argument|", "2020-05-04 to 2025-03-03"}},
	} {
		text, isErr := callText(t, c, "calculate_report", tc.args)
		if !isErr || !containsAll(text, tc.want...) || strings.Contains(text, "tax_year") {
			t.Errorf("%v: want an error with %q, got:\n%s", tc.args, tc.want, text)
		}
	}
}
