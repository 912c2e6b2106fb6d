package dsl

import (
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/typo"
)

// lineExamples holds one valid ledger line of each kind, quoted in errors and in the docs.
var lineExamples = tableMap(lineExampleRows)

var lineExampleRows = []row[model.Action, string]{
	{model.Buy, "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD"},
	{model.Sell, "2024-06-20 SELL AAPL 50 @ 170.25 USD FEES 5.00 USD"},
	{model.Dividend, "2024-07-15 DIVIDEND VOD.L TOTAL 12.50 TAX 0"},
	{model.Accumulation, "2024-07-15 ACCUMULATION GB00B41YBW71 100 TOTAL 25.40"},
	{model.CapReturn, "2024-07-15 CAPRETURN GB00B41YBW71 100 TOTAL 10.00"},
	{model.Split, "2024-06-10 SPLIT NVDA RATIO 10"},
	{model.Unsplit, "2024-06-10 UNSPLIT XYZ RATIO 5"},
	{model.SpouseIn, "2024-08-01 SPOUSEIN VOD.L 500 COST 612.40"},
	{model.SpouseOut, "2024-08-01 SPOUSEOUT VOD.L 500"},
	{model.Rights, "2024-09-02 RIGHTS LLOY 200 @ 0.35 FEES 1.50"},
	{model.Takeover, "2024-10-01 TAKEOVER OLDCO NEWCO 150 CASH 300.00 VALUE 4500.00"},
	{model.Demerger, "2024-10-15 DEMERGER ABC ABCX 50 COST 0.25"},
	{model.ERI, "2025-01-31 ERI VWRL 120 TOTAL 14.62"},
	{model.Pool, "2008-04-05 POOL VOD.L 3000 COST 4200.00"},
	{model.Negligible, "2024-11-20 NEGLIGIBLE BUST.L"},
	{model.AccountDecl, "2024-04-06 ACCOUNT T212-ISA ISA"},
	{model.Alias, "2024-01-01 ALIAS VOD.L VOD"},
	{model.Exempt, "2024-01-01 EXEMPT TR28"},
	{model.NonReporting, "2024-01-01 NONREPORTING VTI"},
	{model.ISINDecl, "2024-01-01 ISIN VUSA IE00B3XXRP09"},
}

// totalFormExample is a BUY in the total form, quoted beside the price form.
const totalFormExample = "2024-04-01 BUY AAPL 0.3741 TOTAL 50.00 FEES 0.15"

// jsonExamples holds one valid JSON transaction object of each kind.
var jsonExamples = tableMap(jsonExampleRows)

var jsonExampleRows = []row[model.Action, string]{
	{model.Buy, `{"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "100", "price": {"amount": "150.00", "currency": "USD"}, "fees": {"amount": "5.00", "currency": "USD"}}`},
	{model.Sell, `{"date": "2024-06-20", "action": "SELL", "ticker": "AAPL", "quantity": "50", "price": {"amount": "170.25", "currency": "USD"}}`},
	{model.Dividend, `{"date": "2024-07-15", "action": "DIVIDEND", "ticker": "VOD.L", "total": "12.50"}`},
	{model.Accumulation, `{"date": "2024-07-15", "action": "ACCUMULATION", "ticker": "GB00B41YBW71", "quantity": "100", "total": "25.40"}`},
	{model.CapReturn, `{"date": "2024-07-15", "action": "CAPRETURN", "ticker": "GB00B41YBW71", "quantity": "100", "total": "10.00"}`},
	{model.Split, `{"date": "2024-06-10", "action": "SPLIT", "ticker": "NVDA", "ratio": "10"}`},
	{model.Unsplit, `{"date": "2024-06-10", "action": "UNSPLIT", "ticker": "XYZ", "ratio": "5"}`},
	{model.SpouseIn, `{"date": "2024-08-01", "action": "SPOUSEIN", "ticker": "VOD.L", "quantity": "500", "cost": "612.40"}`},
	{model.SpouseOut, `{"date": "2024-08-01", "action": "SPOUSEOUT", "ticker": "VOD.L", "quantity": "500"}`},
	{model.Rights, `{"date": "2024-09-02", "action": "RIGHTS", "ticker": "LLOY", "quantity": "200", "price": "0.35", "fees": "1.50"}`},
	{model.Takeover, `{"date": "2024-10-01", "action": "TAKEOVER", "ticker": "OLDCO", "new_ticker": "NEWCO", "quantity": "150", "cash": "300.00", "value": "4500.00"}`},
	{model.Demerger, `{"date": "2024-10-15", "action": "DEMERGER", "ticker": "ABC", "new_ticker": "ABCX", "quantity": "50", "fraction": "0.25"}`},
	{model.ERI, `{"date": "2025-01-31", "action": "ERI", "ticker": "VWRL", "quantity": "120", "total": "14.62"}`},
	{model.Pool, `{"date": "2008-04-05", "action": "POOL", "ticker": "VOD.L", "quantity": "3000", "cost": "4200.00"}`},
	{model.Negligible, `{"date": "2024-11-20", "action": "NEGLIGIBLE", "ticker": "BUST.L"}`},
	{model.AccountDecl, `{"date": "2024-04-06", "action": "ACCOUNT", "ticker": "T212-ISA", "account_type": "ISA"}`},
	{model.Alias, `{"date": "2024-01-01", "action": "ALIAS", "ticker": "VOD.L", "new_ticker": "VOD"}`},
	{model.Exempt, `{"date": "2024-01-01", "action": "EXEMPT", "ticker": "TR28"}`},
	{model.NonReporting, `{"date": "2024-01-01", "action": "NONREPORTING", "ticker": "VTI"}`},
	{model.ISINDecl, `{"date": "2024-01-01", "action": "ISIN", "ticker": "VUSA", "isin": "IE00B3XXRP09"}`},
}

// totalFormJSONExample is a BUY given by its total.
const totalFormJSONExample = `{"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "0.3741", "total": "50.00", "fees": "0.15"}`

// lineExample is the example for an action (a BUY or SELL with its total form too), or a BUY
// line when the action is not known yet.
func lineExample(a model.Action) []string {
	if a == model.Buy || a == model.Sell {
		return []string{lineExamples[a], totalFormExample}
	}
	if ex, ok := lineExamples[a]; ok {
		return []string{ex}
	}
	return []string{lineExamples[model.Buy], lineExamples[model.Sell]}
}

func jsonExample(a model.Action) []string {
	if a == model.Buy || a == model.Sell {
		return []string{jsonExamples[a], totalFormJSONExample}
	}
	if ex, ok := jsonExamples[a]; ok {
		return []string{ex}
	}
	return []string{jsonExamples[model.Buy]}
}

// actionList is "BUY, SELL, DIVIDEND, ..." in the documented order.
func actionList() string {
	names := make([]string, len(model.Actions))
	for i, a := range model.Actions {
		names[i] = string(a)
	}
	return strings.Join(names, ", ")
}

// actionSynonyms are words people write for a kind in other tools and broker exports.
var actionSynonyms = map[string]model.Action{
	"BOUGHT": model.Buy, "PURCHASE": model.Buy, "ACQUIRE": model.Buy, "B": model.Buy,
	"SOLD": model.Sell, "SALE": model.Sell, "DISPOSE": model.Sell, "S": model.Sell,
	"DIV": model.Dividend, "DIVI": model.Dividend, "INCOME": model.Dividend,
	"ACC": model.Accumulation, "ACCUM": model.Accumulation, "NOTIONAL": model.Accumulation,
	"RETURN": model.CapReturn, "CAPITALRETURN": model.CapReturn, "EQUALISATION": model.CapReturn,
	"EQUALIZATION":  model.CapReturn,
	"CONSOLIDATION": model.Unsplit, "REVERSESPLIT": model.Unsplit, "CONSOLIDATE": model.Unsplit,
	"GIFTIN": model.SpouseIn, "TRANSFERIN": model.SpouseIn, "GIFTOUT": model.SpouseOut, "TRANSFEROUT": model.SpouseOut,
	"RIGHTSISSUE": model.Rights, "OPENOFFER": model.Rights, "MERGER": model.Takeover, "EXCHANGE": model.Takeover,
	"SPINOFF": model.Demerger, "SPIN-OFF": model.Demerger, "EXCESSINCOME": model.ERI, "OPENING": model.Pool,
	"S104": model.Pool, "REBASE": model.Pool, "WORTHLESS": model.Negligible, "NEGLIGIBLEVALUE": model.Negligible,
	"WRITEOFF": model.Negligible, "WRAPPER": model.AccountDecl,
	"GILT": model.Exempt, "QCB": model.Exempt, "OFFSHORE": model.NonReporting,
}

// suggestAction finds the kind the user most likely meant, or "" when nothing is close.
func suggestAction(word string) model.Action {
	w := strings.ToUpper(word)
	if a, ok := actionSynonyms[w]; ok {
		return a
	}
	if len(w) >= 3 {
		for _, a := range model.Actions {
			if strings.HasPrefix(string(a), w) {
				return a
			}
		}
	}
	limit := max(2, len(w)/3)
	best, bestDist := model.Action(""), limit+1
	for _, a := range model.Actions {
		if d := typo.Distance(w, string(a)); d < bestDist {
			best, bestDist = a, d
		}
	}
	return best
}

// clip shortens a value quoted in an error so a 10 MB line does not become a 10 MB message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}
