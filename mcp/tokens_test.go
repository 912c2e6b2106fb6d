package mcp_test

import (
	"strings"
	"testing"
)

// Token budgets of the agent front end, measured with the official MCP TypeScript SDK client
// and the o200k_base tokenizer on a 40-trade, 5-year ledger (testdata/ledger40.cgt).
const (
	toolsListBudget   = 4000  // tokens of tools/list
	yearAnswerBudget  = 1500  // "total gains and losses for 2024/25" in one call
	resultBudget      = 25000 // any result with default arguments
	tokensLedgerFile  = "mcp/testdata/ledger40.cgt"
	tokensLedgerTitle = "40 trades, 2020/21 to 2024/25"
)

// tokenCase is one call the test measures, and the budget it must stay within.
type tokenCase struct {
	what   string
	call   sdkCall
	budget int
}

func tokenCases() []tokenCase {
	ledger := map[string]any{"path": []any{tokensLedgerFile}}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range ledger {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	return []tokenCase{
		{"gains and losses for 2024/25", sdkCall{"calculate_report", with(map[string]any{"year": 2024, "fields": []any{"gains", "losses"}})}, yearAnswerBudget},
		{"report for 2024/25 (defaults)", sdkCall{"calculate_report", with(map[string]any{"year": 2024})}, yearAnswerBudget},
		{"report, every year (defaults)", sdkCall{"calculate_report", with(nil)}, resultBudget},
		{"report, every year, disposals", sdkCall{"calculate_report", with(map[string]any{"detail": "disposals"})}, resultBudget},
		{"report, every year, full", sdkCall{"calculate_report", with(map[string]any{"detail": "full"})}, resultBudget},
		{"report, every year, full JSON", sdkCall{"calculate_report", with(map[string]any{"detail": "full", "output": "json"})}, resultBudget},
		{"transactions (defaults)", sdkCall{"parse_transactions", with(nil)}, resultBudget},
		{"holdings (defaults)", sdkCall{"list_holdings", with(nil)}, resultBudget},
		{"one disposal explained", sdkCall{"explain_matching", with(map[string]any{"date": "2024-06-20", "ticker": "AAPL"})}, resultBudget},
	}
}

// TestTokenBudgets reports what the MCP server costs a model, in tokens, and fails when a
// figure passes its budget or a result carries the same content twice.
func TestTokenBudgets(t *testing.T) {
	cases := tokenCases()
	calls := make([]sdkCall, len(cases))
	for i, c := range cases {
		calls[i] = c.call
	}
	sum := runSDKClient(t, calls, "--root", repoRoot(t))
	if sum.Tokenizer == "" {
		skipOrFail(t, "gpt-tokenizer is not installed in %s: run npm ci --prefix mcp/testdata/sdkclient", sdkClientDir)
	}
	t.Logf("ledger %s (%s), tokenizer %s", tokensLedgerFile, tokensLedgerTitle, sum.Tokenizer)
	t.Logf("%-34s %6d tokens %7d chars (budget %d)", "tools/list", sum.ToolsListTokens, sum.ToolsListChars, toolsListBudget)
	if sum.ToolsListTokens > toolsListBudget {
		t.Errorf("tools/list is %d tokens, over the budget of %d", sum.ToolsListTokens, toolsListBudget)
	}
	if len(sum.Calls) != len(cases) {
		t.Fatalf("%d calls answered of %d", len(sum.Calls), len(cases))
	}
	for i, c := range cases {
		got := sum.Calls[i]
		t.Logf("%-34s %6d tokens %7d chars (budget %d)", c.what, got.Tokens, got.Chars, c.budget)
		if got.IsError {
			t.Errorf("%s: the call failed: %.300s", c.what, got.Text)
		}
		if got.Tokens > c.budget {
			t.Errorf("%s: %d tokens, over the budget of %d", c.what, got.Tokens, c.budget)
		}
		if got.Doubled || got.HasStructured || got.ContentItems != 1 {
			t.Errorf("%s: the result carries its content more than once (structured %v, doubled %v, %d items)", c.what, got.HasStructured, got.Doubled, got.ContentItems)
		}
	}
	if first := sum.Calls[0].Text; !containsAll(first, "gains=", "losses=", "2024/25") {
		t.Errorf("the one-call answer lacks the year's gains and losses:\n%s", first)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
