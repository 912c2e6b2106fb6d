package mcp_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Token budgets of the agent front end, measured with the official MCP TypeScript SDK client
// and the o200k_base tokenizer on a 40-trade, 5-year ledger (testdata/ledger40.cgt).
const (
	toolsListBudget  = 2500 // tokens of tools/list
	toolBudget       = 300  // tokens of any one tool in tools/list
	yearAnswerBudget = 1500 // "total gains and losses for 2024/25" in one call
	// "the SA108 boxes for 2024/25 and the tax at £60,000" in one call, with the bundled fund
	// table's warning that VWRL has no ISIN (397 tokens).
	filingBudget      = 400
	resultBudget      = 25000 // any result with default arguments
	tokensLedgerFile  = "mcp/testdata/ledger40.cgt"
	tokensLedgerTitle = "40 trades, 2020/21 to 2024/25"
)

// overBudgetHint says what to do when a tool or the list is over its budget (CONTRIBUTING,
// "Adding a command", has the commands).
const overBudgetHint = "see what each tool spends (the tools/list answer of cgt mcp piped to node mcp/testdata/sdkclient/count.mjs); " +
	"give an argument other tools take the description the server's instructions give it, word for word, so it is described once there; " +
	"describe a new argument in a few words"

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
		{"SA108 boxes and tax, 2024/25", sdkCall{"calculate_report", with(map[string]any{"year": 2024, "taxable_income": 60000})}, filingBudget},
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
	standIns, err := json.Marshal(planningStandIns(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CGT_EXTRA_TOOLS", string(standIns))
	sum := runSDKClient(t, calls, "--root", repoRoot(t))
	if sum.Tokenizer == "" {
		skipOrFail(t, "gpt-tokenizer is not installed in %s: run npm ci --prefix mcp/testdata/sdkclient", sdkClientDir)
	}
	t.Logf("ledger %s (%s), tokenizer %s", tokensLedgerFile, tokensLedgerTitle, sum.Tokenizer)
	t.Logf("%-34s %6d tokens %7d chars (budget %d)", "tools/list", sum.ToolsListTokens, sum.ToolsListChars, toolsListBudget)
	names := slices.Sorted(maps.Keys(sum.ToolTokens))
	for _, name := range names {
		t.Logf("  %-32s %6d tokens (budget %d)", name, sum.ToolTokens[name], toolBudget)
		if sum.ToolTokens[name] > toolBudget {
			t.Errorf("tool %s is %d tokens in tools/list, over the budget of %d: %s", name, sum.ToolTokens[name], toolBudget, overBudgetHint)
		}
	}
	if sum.ToolsListTokens > toolsListBudget {
		t.Errorf("tools/list is %d tokens, over the budget of %d: %s", sum.ToolsListTokens, toolsListBudget, overBudgetHint)
	}
	if standIns := len(sum.ToolTokens) - len(sum.Tools); standIns > 0 {
		t.Logf("%-34s %6d tokens (budget %d)", "tools/list with planning stand-ins", sum.ToolsListWithExtraTokens, toolsListBudget)
		if sum.ToolsListWithExtraTokens > toolsListBudget {
			t.Errorf("tools/list with stand-ins for the %d planning tools not served yet is %d tokens, over the budget of %d",
				standIns, sum.ToolsListWithExtraTokens, toolsListBudget)
		}
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
	if filing := sum.Calls[0].Text; !containsAll(filing, "2024/25", "sa108.box23=", "sa108.box24=", "sa108.box51=", "tax_due=") || strings.Contains(filing, "[{") {
		t.Errorf("the filing answer lacks the boxes or the tax:\n%s", filing)
	}
	if first := sum.Calls[1].Text; !containsAll(first, "gains=", "losses=", "2024/25") {
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

// planningTools are the tools of the planning commands (plan.sale, plan.allowance,
// plan.harvest) and the arguments of their own each takes, beside the ledger inputs.
var planningTools = []struct {
	name, description string
	args              map[string]string // name: description
}{
	{"plan_sale", "What a sale would realise and the tax it adds, before it is made. Use when the user asks what selling some shares would cost in tax.",
		map[string]string{"ticker": "Security to sell.", "quantity": "Shares to sell, or all.", "price": "Price, e.g. \"230.00 USD\".",
			"date": "Date of the sale (default today).", "fees": "Fees of the sale.", "taxable_income": "Income after allowances (GBP)."}},
	{"plan_allowance", "The annual exempt amount left in a tax year, unrealised gains at given prices and the 30-day windows still open. Use when the user asks how much they can sell tax-free this year.",
		map[string]string{"year": "Tax year (default the current one).", "date": "As of this date (default today).",
			"prices": "Prices, e.g. \"AAPL=190.50 USD,VWRL=98.2\".", "taxable_income": "Income after allowances (GBP)."}},
	{"plan_harvest", "Which holdings to sell, and how many, to realise gains up to the exempt amount or a target. Use when the user wants to use this year's allowance or harvest losses.",
		map[string]string{"prices": "Prices, e.g. \"AAPL=190.50 USD,VWRL=98.2\".", "target_gain": "Net gain to aim for (default the exempt amount).",
			"year": "Tax year (default the current one).", "date": "As of this date (default today)."}},
}

// planningStandIns are definitions of the planning tools the server does not serve yet, each
// shaped as the server shapes a ledger tool (list_holdings's ledger inputs, rates, filters
// and shaping arguments, with extra), so the tools/list budget is kept with them present.
func planningStandIns(t *testing.T) []mcpgo.Tool {
	t.Helper()
	c := newClient(t, repoRoot(t))
	list, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var base mcpgo.Tool
	served := map[string]bool{}
	for _, tool := range list.Tools {
		served[tool.Name] = true
		if tool.Name == "list_holdings" {
			base = tool
		}
	}
	var baseSchema struct {
		InputSchema struct {
			Properties map[string]any `json:"properties"`
		} `json:"inputSchema"`
	}
	baseJSON, _ := json.Marshal(base)
	if err := json.Unmarshal(baseJSON, &baseSchema); err != nil || baseSchema.InputSchema.Properties == nil {
		t.Fatalf("list_holdings has no input schema to model the planning tools on: %v", err)
	}
	out := []mcpgo.Tool{}
	for _, p := range planningTools {
		if served[p.name] {
			continue
		}
		props := maps.Clone(baseSchema.InputSchema.Properties)
		delete(props, "date")
		delete(props, "ticker")
		props["extra"] = map[string]any{"type": []string{"string", "array"}, "description": "Ledger lines to add, e.g. a sale to try."}
		keys := make([]string, 0, len(p.args))
		for k := range p.args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			props[k] = map[string]any{"type": "string", "description": p.args[k]}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
		tool := mcpgo.NewToolWithRawSchema(p.name, p.description, schema)
		tool.Annotations = base.Annotations
		out = append(out, tool)
	}
	return out
}
