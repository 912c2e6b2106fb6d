package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/envelope"
)

// The planning commands are checked against the engine itself, as a user would check them:
// every figure a plan gives must be what report.calculate says when the planned lines are
// appended to the ledger with extra.

// planLedgers are realistic ledgers: several securities, one in US dollars, a split, a same-day
// case, losses carried from 2025/26 and disposals already in 2026/27.
func planLedgers(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../examples/planning.cgt")
	if err != nil {
		t.Fatal(err)
	}
	base := string(b)
	return map[string]string{
		"planning": base,
		// The year is already well over the exempt amount: harvesting sells at a loss.
		"over_exempt": base + "\n2026-07-01 SELL AAPL 100 @ 220 USD FEES 4.95 USD\n",
		// A purchase after the plan's date, within 30 days: the 30-day rule matches it.
		"rebuy_within_30": base + "\n2026-12-08 BUY VWRL 15 @ 90.00 FEES 1.50\n",
		// A purchase on the plan's day: the same-day rule matches it first.
		"same_day_buy": base + "\n2026-12-01 BUY AAPL 5 @ 235 USD\n",
		// Fractional shares.
		"fractional": "2020-01-06 BUY FRAC 12.345 @ 100\n2021-01-06 BUY GBPX 50 @ 10\n2025-05-01 SELL GBPX 10 @ 8\n",
	}
}

func runJSON(t *testing.T, command string, args map[string]any) (map[string]any, []string) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res := testRegistry(t).Execute(context.Background(), command, raw)
	if !res.OK {
		t.Fatalf("%s %s: %s", command, raw, envelope.MarshalCompact(res))
	}
	b, err := json.Marshal(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, res.Warnings
}

func dec(t *testing.T, v any) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(fmt.Sprint(v))
	if err != nil {
		t.Fatalf("%v is not a decimal", v)
	}
	return d
}

// yearNet is report.calculate's net gain and annual exempt amount for the tax year, with the
// extra lines appended to the ledger.
func yearNet(t *testing.T, ledger, year string, extra ...string) (net, aea decimal.Decimal) {
	t.Helper()
	args := map[string]any{"cgt_content": ledger, "year": year, "detail": "summary", "rates": planRates}
	if len(extra) > 0 {
		args["extra"] = extra
	}
	m, _ := runJSON(t, "report.calculate", args)
	ty := m["tax_years"].([]any)[0].(map[string]any)
	return dec(t, ty["net_gain"]), dec(t, ty["annual_exempt_amount"])
}

const planDate = "2026-12-01"

// planRates are rate files for the months after the bundled table (the last bundled US dollar
// rate repeated), given to the plans and to the reports they are checked against alike.
var planRates = []string{"testdata/rates/plan"}

var planPrices = map[string]string{"VWRL": "98.20", "AAPL": "230 USD", "VOD.L": "0.72", "LGEN": "2.55", "FRAC": "140", "GBPX": "9"}

func pricesFor(ledger string) []any {
	var out []any
	for tk, p := range planPrices {
		if strings.Contains(ledger, " "+tk+" ") {
			out = append(out, tk+"="+p)
		}
	}
	return out
}

func TestPlanSaleGainIsTheChangeInTheYearsNetGain(t *testing.T) {
	for name, ledger := range planLedgers(t) {
		for _, c := range []struct{ ticker, qty, price string }{
			{"VWRL", "37", "98.20"}, {"VWRL", "all", "70"}, {"AAPL", "10", "230 USD"}, {"AAPL", "all", "23000 GBX"},
			{"VOD.L", "1000", "0.72"}, {"LGEN", "700", "2.55"}, {"FRAC", "2.5", "140"}, {"FRAC", "all", "90"},
		} {
			if !strings.Contains(ledger, " "+c.ticker+" ") {
				continue
			}
			t.Run(name+"/"+c.ticker+"_"+c.qty, func(t *testing.T) {
				m, warnings := runJSON(t, "plan.sale", map[string]any{"cgt_content": ledger, "ticker": c.ticker, "quantity": c.qty,
					"price": c.price, "date": planDate, "taxable_income": 60000, "rates": planRates})
				if m["projection"] != true {
					t.Error("projection is not true")
				}
				before, aea := yearNet(t, ledger, "2026")
				after, _ := yearNet(t, ledger, "2026", m["line"].(string))
				if got, want := dec(t, m["gain"]), after.Sub(before); !got.Equal(want) {
					t.Errorf("gain %s, want the change in net gain %s", got, want)
				}
				b, a := m["before"].(map[string]any), m["after"].(map[string]any)
				if !dec(t, b["net_gain"]).Equal(before) || !dec(t, a["net_gain"]).Equal(after) {
					t.Errorf("net gain before/after %v/%v, engine %s/%s", b["net_gain"], a["net_gain"], before, after)
				}
				for _, f := range []struct {
					fig map[string]any
					net decimal.Decimal
				}{{b, before}, {a, after}} {
					want := decimal.Max(decimal.Zero, aea.Sub(f.net))
					if !dec(t, f.fig["exempt_left"]).Equal(want) {
						t.Errorf("exempt_left %v, want %s", f.fig["exempt_left"], want)
					}
				}
				if cost := dec(t, m["tax_cost"]); !cost.Equal(dec(t, a["tax"]).Sub(dec(t, b["tax"]))) {
					t.Errorf("tax_cost %s is not tax after minus before", cost)
				}
				if m["rebuy_matched_until"] != "2026-12-31" || m["first_safe_rebuy"] != "2027-01-01" {
					t.Errorf("rebuy dates %v %v", m["rebuy_matched_until"], m["first_safe_rebuy"])
				}
				thirty := strings.Contains(strings.Join(warnings, "\n"), "30-day rule: the ledger has a purchase")
				if want := name == "rebuy_within_30" && c.ticker == "VWRL"; thirty != want {
					t.Errorf("30-day warning given = %v, want %v: %q", thirty, want, warnings)
				}
				sameDay := strings.Contains(strings.Join(warnings, "\n"), "the day of the sale")
				if want := name == "same_day_buy" && c.ticker == "AAPL"; sameDay != want {
					t.Errorf("same-day warning given = %v, want %v", sameDay, want)
				}
				rules := fmt.Sprint(m["disposal"].(map[string]any)["rules"])
				if name == "rebuy_within_30" && c.ticker == "VWRL" && !strings.Contains(rules, "bed_and_breakfast") {
					t.Errorf("rules %s lack bed_and_breakfast", rules)
				}
				if name == "same_day_buy" && c.ticker == "AAPL" && !strings.Contains(rules, "same_day") {
					t.Errorf("rules %s lack same_day", rules)
				}
			})
		}
	}
}

func TestPlanAllowanceIsTheExemptAmountLessTheYearsNetGain(t *testing.T) {
	for name, ledger := range planLedgers(t) {
		t.Run(name, func(t *testing.T) {
			m, _ := runJSON(t, "plan.allowance", map[string]any{"cgt_content": ledger, "date": planDate, "prices": pricesFor(ledger), "rates": planRates})
			net, aea := yearNet(t, ledger, "2026")
			y := m
			if want := decimal.Max(decimal.Zero, aea.Sub(net)); !dec(t, y["exempt_left"]).Equal(want) {
				t.Errorf("exempt_left %v, want %s - %s = %s", y["exempt_left"], aea, net, want)
			}
			if !dec(t, y["net_gain"]).Equal(net) {
				t.Errorf("net_gain %v, engine %s", y["net_gain"], net)
			}
			for _, h := range m["holdings"].([]any) {
				h := h.(map[string]any)
				if h["unrealised_gain"] == nil {
					t.Errorf("%v: no unrealised gain", h["ticker"])
					continue
				}
				line := fmt.Sprintf("%s SELL %s %v @ %v", planDate, h["ticker"], h["quantity"], h["price"])
				after, _ := yearNet(t, ledger, "2026", line)
				if got, want := dec(t, h["unrealised_gain"]), after.Sub(net); !got.Equal(want) {
					t.Errorf("%v: unrealised %s, engine %s", h["ticker"], got, want)
				}
			}
		})
	}
}

func TestPlanAllowanceListsOpenWindows(t *testing.T) {
	ledger := planLedgers(t)["planning"]
	m, _ := runJSON(t, "plan.allowance", map[string]any{"cgt_content": ledger, "date": "2026-11-26", "rates": planRates})
	w := m["open_windows"].([]any)
	if len(w) != 1 || w[0].(map[string]any)["ticker"] != "VOD.L" || w[0].(map[string]any)["until"] != "2026-12-10" {
		t.Errorf("open windows %v, want VOD.L until 2026-12-10", w)
	}
	m, _ = runJSON(t, "plan.allowance", map[string]any{"cgt_content": ledger, "date": "2026-12-11", "rates": planRates})
	if w := m["open_windows"].([]any); len(w) != 0 {
		t.Errorf("open windows on 2026-12-11 %v, want none", w)
	}
}

func TestPlanHarvestStaysWithinTheTargetAndOneMoreSharePassesIt(t *testing.T) {
	for name, ledger := range planLedgers(t) {
		for _, target := range []string{"", "1500", "-800", "0"} {
			t.Run(name+"/target_"+target, func(t *testing.T) {
				args := map[string]any{"cgt_content": ledger, "date": planDate, "prices": pricesFor(ledger), "rates": planRates}
				if target != "" {
					args["target_gain"] = target
				}
				m, _ := runJSON(t, "plan.harvest", args)
				before, aea := yearNet(t, ledger, "2026")
				tgt := aea
				if target != "" {
					tgt = dec(t, target)
				}
				if !dec(t, m["target"]).Equal(tgt) {
					t.Fatalf("target %v, want %s", m["target"], tgt)
				}
				within := func(net decimal.Decimal) bool {
					if before.LessThanOrEqual(tgt) {
						return net.LessThanOrEqual(tgt)
					}
					return net.GreaterThanOrEqual(tgt)
				}
				sales := m["sales"].([]any)
				var lines []string
				for _, s := range sales {
					lines = append(lines, s.(map[string]any)["line"].(string))
				}
				if got := strings.Join(lines, "\n"); got != m["lines"] {
					t.Errorf("lines %q, want the sales' lines %q", m["lines"], got)
				}
				after, _ := yearNet(t, ledger, "2026", lines...)
				if !within(after) {
					t.Fatalf("net gain with the sales %s passes the target %s", after, tgt)
				}
				if !dec(t, m["after"].(map[string]any)["net_gain"]).Equal(after) {
					t.Errorf("after.net_gain %v, engine %s", m["after"].(map[string]any)["net_gain"], after)
				}
				if !before.Equal(tgt) && len(sales) == 0 {
					t.Errorf("no sales from %s towards %s", before, tgt)
				}
				for i, s := range sales {
					s := s.(map[string]any)
					alone, _ := yearNet(t, ledger, "2026", lines[i])
					if !dec(t, s["gain"]).Equal(alone.Sub(before)) {
						t.Errorf("%v: gain %v, engine %s", s["ticker"], s["gain"], alone.Sub(before))
					}
					q, held := dec(t, s["quantity"]), dec(t, s["held"])
					if q.Equal(held) {
						if s["whole_holding"] != true {
							t.Errorf("%v: all sold but whole_holding is not true", s["ticker"])
						}
						continue
					}
					if !held.Equal(held.Truncate(0)) == q.Equal(q.Truncate(0)) && held.Equal(held.Truncate(0)) {
						t.Errorf("%v: %s is not a whole number of shares", s["ticker"], q)
					}
					more := append([]string{}, lines...)
					more[i] = fmt.Sprintf("%s SELL %v %s @ %v", planDate, s["ticker"], q.Add(plan.Unit(held)), s["price"])
					if n, _ := yearNet(t, ledger, "2026", more...); within(n) {
						t.Errorf("%v: one more share (%s) stays within the target %s", s["ticker"], n, tgt)
					}
				}
			})
		}
	}
}

func TestPlanDatePastTheBundledRatesUsesTheLatestMonth(t *testing.T) {
	ledger := planLedgers(t)["planning"]
	_, warnings := runJSON(t, "plan.sale", map[string]any{"cgt_content": ledger, "ticker": "AAPL", "quantity": "1", "price": "230 USD", "date": "2027-03-20"})
	if !strings.Contains(strings.Join(warnings, "\n"), "converted at the latest month bundled") {
		t.Errorf("no warning about the rate month: %q", warnings)
	}
}

// Without rate files, a sale dated after the bundled rates is converted at the latest bundled
// month by the plan and, as an extra line, by report.calculate: the two agree.
func TestPlanSaleAgreesWithExtraPastTheBundledRates(t *testing.T) {
	ledger := planLedgers(t)["planning"]
	net := func(extra ...string) decimal.Decimal {
		args := map[string]any{"cgt_content": ledger, "year": "2026", "detail": "summary"}
		if len(extra) > 0 {
			args["extra"] = extra
		}
		m, warnings := runJSON(t, "report.calculate", args)
		if len(extra) > 0 && !strings.Contains(strings.Join(warnings, "\n"), "converted at the latest month bundled") {
			t.Errorf("no warning about the rate month: %q", warnings)
		}
		return dec(t, m["tax_years"].([]any)[0].(map[string]any)["net_gain"])
	}
	m, _ := runJSON(t, "plan.sale", map[string]any{"cgt_content": ledger, "ticker": "AAPL", "quantity": "50", "price": "230 USD", "date": "2026-11-26"})
	if got, want := dec(t, m["gain"]), net(m["line"].(string)).Sub(net()); !got.Equal(want) {
		t.Errorf("plan gain %s, report with the line %s", got, want)
	}
}

func TestPlanPriceIsCheckedAgainstTheHoldingsTrades(t *testing.T) {
	ledger := planLedgers(t)["planning"] + "\n2024-01-02 BUY LLOY 1000 @ 45 GBX\n"
	sale := func(ticker, price string) envelope.Result {
		raw, _ := json.Marshal(map[string]any{"cgt_content": ledger, "ticker": ticker, "quantity": "10", "price": price, "date": planDate, "rates": planRates})
		return testRegistry(t).Execute(context.Background(), "plan.sale", raw)
	}
	res := sale("AAPL", "230")
	if res.OK || res.Error.Code != envelope.InvalidArgument || len(res.Error.Examples) != 1 || res.Error.Examples[0] != `price="230 USD"` {
		t.Fatalf("a bare price for a USD holding: %s", envelope.MarshalCompact(res))
	}
	for _, c := range []struct{ ticker, price, warn string }{
		{"AAPL", "230 USD", ""},
		{"AAPL", "230 GBP", "is traded in USD"},
		{"VOD.L", "72", "about 100 times"},
		{"VOD.L", "72 GBX", ""},
		{"VOD.L", "0.72", ""},
		{"LLOY", "45", "pence written as pounds"},
		{"LLOY", "45 GBX", ""},
		{"VWRL", "0.98", "about a hundredth"},
	} {
		res := sale(c.ticker, c.price)
		if !res.OK {
			t.Errorf("%s at %s: %s", c.ticker, c.price, envelope.MarshalCompact(res))
			continue
		}
		all := strings.Join(res.Warnings, "\n")
		priceWarned := strings.Contains(all, "the price "+c.price)
		if c.warn == "" && priceWarned || c.warn != "" && !strings.Contains(all, c.warn) {
			t.Errorf("%s at %s: warnings %q, want %q", c.ticker, c.price, res.Warnings, c.warn)
		}
	}
}

// reportYear is report.calculate's tax year 2026/27 with the extra lines appended, as a map.
func reportYear(t *testing.T, ledger string, extra ...string) (map[string]any, map[string]any) {
	t.Helper()
	args := map[string]any{"cgt_content": ledger, "year": "2026", "rates": planRates}
	if len(extra) > 0 {
		args["extra"] = extra
	}
	m, _ := runJSON(t, "report.calculate", args)
	return m, m["tax_years"].([]any)[0].(map[string]any)
}

func TestPlanSaleOfANonReportingFundIsIncome(t *testing.T) {
	ledger := "2024-01-02 BUY FUND 100 @ 50.00\n2024-01-02 NONREPORTING FUND\n2024-01-02 BUY VWRL 10 @ 50\n2026-05-01 SELL VWRL 10 @ 60\n"
	m, warnings := runJSON(t, "plan.sale", map[string]any{"cgt_content": ledger, "ticker": "FUND", "quantity": "all", "price": "110",
		"date": planDate, "taxable_income": 60000, "rates": planRates})
	rep, _ := reportYear(t, ledger, m["line"].(string))
	oig := rep["offshore_income_gains"].([]any)[0].(map[string]any)
	if m["offshore_income_gain"] != oig["gain"] || m["offshore_income_gain"] != "6000.00" {
		t.Errorf("offshore_income_gain %v, report %v", m["offshore_income_gain"], oig["gain"])
	}
	if m["income_tax"] != "2400.00" || m["tax_cost"] != "2400.00" || m["gain"] != "0.00" {
		t.Errorf("income_tax %v tax_cost %v gain %v; want 2400.00 at 40%%, 2400.00, 0.00", m["income_tax"], m["tax_cost"], m["gain"])
	}
	if d := m["disposal"].(map[string]any); d["date"] != planDate {
		t.Errorf("disposal dated %v", d["date"])
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "offshore income gain") {
		t.Errorf("no note on the offshore income gain: %q", warnings)
	}
	var text strings.Builder
	res := PlanSaleResult{}
	b, _ := json.Marshal(m)
	_ = json.Unmarshal(b, &res)
	_ = res.WriteText(&text, nil)
	if first, _, _ := strings.Cut(text.String(), "\n"); strings.Contains(first, "gain £0.00") || strings.Contains(text.String(), "cost £0.00 in tax") {
		t.Errorf("text says gain £0.00:\n%s", text.String())
	}
	a, _ := runJSON(t, "plan.allowance", map[string]any{"cgt_content": ledger, "date": planDate, "prices": "FUND=110,VWRL=70", "rates": planRates})
	for _, h := range a["holdings"].([]any) {
		h := h.(map[string]any)
		if h["ticker"] == "FUND" && (h["non_reporting"] != true || h["offshore_income_gain"] != "6000.00") {
			t.Errorf("allowance holding %v", h)
		}
	}
}

func TestPlanOpenWindowsAreThoseAPurchaseCanStillChange(t *testing.T) {
	base := "2021-09-20 BUY VOD.L 12000 @ 1.1480\n2026-11-10 SELL VOD.L 2000 @ 0.7100\n"
	for _, c := range []struct {
		name, extra, open string
	}{
		{"unmatched", "", "2000"},
		{"partly_matched_later", "2026-11-20 BUY VOD.L 500 @ 0.70\n", "1500"},
		{"fully_matched_later", "2026-11-20 BUY VOD.L 2000 @ 0.70\n", ""},
		{"isa_purchase_never_matches", "2026-11-01 ACCOUNT ISA-1 ISA\n2026-11-20 BUY VOD.L 2000 @ 0.70 ACCOUNT ISA-1\n", "2000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := runJSON(t, "plan.allowance", map[string]any{"cgt_content": base + c.extra, "date": "2026-11-26", "rates": planRates})
			w := m["open_windows"].([]any)
			switch {
			case c.open == "" && len(w) != 0:
				t.Errorf("open windows %v, want none (the sale is matched in full)", w)
			case c.open != "" && (len(w) != 1 || w[0].(map[string]any)["open_quantity"] != c.open):
				t.Errorf("open windows %v, want one with %s open", w, c.open)
			}
		})
	}
}

func TestPlanThirtyDayNotesHonourAccountsAndAliases(t *testing.T) {
	ledger := planLedgers(t)["planning"]
	for _, c := range []struct {
		name, extra string
		note        bool
	}{
		{"isa_rebuy", "2026-11-01 ACCOUNT ISA-1 ISA\n2026-12-08 BUY VWRL 15 @ 90.00 ACCOUNT ISA-1\n", false},
		{"gia_rebuy", "2026-12-08 BUY VWRL 15 @ 90.00\n", true},
		{"alias_rebuy", "2026-11-01 ALIAS VWRL VWRL.L\n2026-12-08 BUY VWRL.L 15 @ 90.00\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, warnings := runJSON(t, "plan.sale", map[string]any{"cgt_content": ledger + c.extra, "ticker": "VWRL", "quantity": "37",
				"price": "98.20", "date": planDate, "rates": planRates})
			if got := strings.Contains(strings.Join(warnings, "\n"), "30-day rule: the ledger has a purchase"); got != c.note {
				t.Errorf("30-day note %v, want %v: %q", got, c.note, warnings)
			}
			before, _ := yearNet(t, ledger+c.extra, "2026")
			after, _ := yearNet(t, ledger+c.extra, "2026", m["line"].(string))
			if !dec(t, m["gain"]).Equal(after.Sub(before)) {
				t.Errorf("gain %v, report %s", m["gain"], after.Sub(before))
			}
		})
	}
}

func TestPlanWarnsAPlannedPurchaseThatRematchesARealSale(t *testing.T) {
	ledger := planLedgers(t)["planning"]
	_, warnings := runJSON(t, "plan.allowance", map[string]any{"cgt_content": ledger, "date": "2026-11-26", "rates": planRates,
		"extra": "2026-11-25 BUY VOD.L 500 @ 0.70"})
	if !strings.Contains(strings.Join(warnings, "\n"), "extra:1: the purchase of VOD.L on 2026-11-25 is within 30 days after the sale of VOD.L on 2026-11-10") {
		t.Errorf("no warning on the planned purchase: %q", warnings)
	}
}

func TestPlanHarvestMarginFeesOnlyAndTotalsAgreeWithTheReport(t *testing.T) {
	ledger := planLedgers(t)["planning"]
	for _, c := range []map[string]any{
		{"margin": "100", "fees": "5.95"},
		{"only": "VWRL,LGEN", "taxable_income": 60000},
		{"exclude": []any{"VWRL"}, "target_gain": "2000", "fees": "11.95"},
	} {
		args := map[string]any{"cgt_content": ledger, "date": planDate, "prices": pricesFor(ledger), "rates": planRates}
		for k, v := range c {
			args[k] = v
		}
		m, _ := runJSON(t, "plan.harvest", args)
		var lines []string
		for _, s := range m["sales"].([]any) {
			s := s.(map[string]any)
			lines = append(lines, s["line"].(string))
			tk := s["ticker"].(string)
			if o, ok := c["only"]; ok && !strings.Contains(o.(string), tk) || c["exclude"] != nil && tk == "VWRL" {
				t.Errorf("%v: sells %s", c, tk)
			}
			if f, ok := c["fees"]; ok && !strings.HasSuffix(s["line"].(string), "FEES "+f.(string)+" GBP") {
				t.Errorf("%v: line %q has no fees", c, s["line"])
			}
		}
		_, before := reportYear(t, ledger)
		_, after := reportYear(t, ledger, lines...)
		if !dec(t, m["realised_gain"]).Equal(dec(t, after["net_gain"]).Sub(dec(t, before["net_gain"]))) {
			t.Errorf("%v: realised %v, report %v - %v", c, m["realised_gain"], after["net_gain"], before["net_gain"])
		}
		if !dec(t, m["proceeds"]).Equal(dec(t, after["proceeds"]).Sub(dec(t, before["proceeds"]))) {
			t.Errorf("%v: proceeds %v, report %v - %v", c, m["proceeds"], after["proceeds"], before["proceeds"])
		}
		a := m["after"].(map[string]any)
		if a["losses_used"] != after["losses_used"] || a["losses_carried_forward"] != after["losses_carried_forward"] {
			t.Errorf("%v: losses used/carried %v/%v, report %v/%v", c, a["losses_used"], a["losses_carried_forward"], after["losses_used"], after["losses_carried_forward"])
		}
		aim := dec(t, m["target"]).Sub(dec(t, m["margin"]))
		if dec(t, after["net_gain"]).GreaterThan(aim) {
			t.Errorf("%v: net gain %v past the aim %s", c, after["net_gain"], aim)
		}
		if _, ok := c["taxable_income"]; ok && (a["tax"] == nil || m["tax_cost"] == nil) {
			t.Errorf("%v: no tax at the result", c)
		}
	}
}
