package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// run parses a ledger and calculates it with the given options.
func run(t *testing.T, src string, opts Options) (*Report, error) {
	t.Helper()
	txns, err := dsl.Parse("test.cgt", []byte(strings.TrimSpace(src)+"\n"))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return Calculate(txns, opts)
}

// mustRun is run for ledgers that must succeed.
func mustRun(t *testing.T, src string, opts Options) *Report {
	t.Helper()
	rep, err := run(t, src, opts)
	if err != nil {
		t.Fatalf("calculate: %v", err)
	}
	return rep
}

// disposals flattens the report's disposals.
func disposals(rep *Report) []Disposal {
	var out []Disposal
	for _, y := range rep.TaxYears {
		out = append(out, y.Disposals...)
	}
	return out
}

// wantMoney checks a reported figure at 2 dp.
func wantMoney(t *testing.T, what string, got model.Money, want string) {
	t.Helper()
	if got.String() != want {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// wantError checks the error is a *model.Error with the code, line and message parts.
func wantError(t *testing.T, err error, code string, line int, parts ...string) *model.Error {
	t.Helper()
	var me *model.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	if me.Code != code || me.Line != line {
		t.Errorf("code %s line %d, want %s line %d (%s)", me.Code, me.Line, code, line, me.Message)
	}
	for _, p := range parts {
		if !strings.Contains(me.Message, p) {
			t.Errorf("message %q does not contain %q", me.Message, p)
		}
	}
	if me.Hint == "" {
		t.Errorf("error has no hint")
	}
	return me
}

func TestIdentification(t *testing.T) {
	tests := []struct {
		name   string
		ledger string
		rules  [][]string // per disposal
		costs  []string   // allowable cost per disposal
		gains  []string
	}{
		{"same_day_before_30_day", `
2024-01-01 BUY ABC 100 @ 10.00
2024-02-01 SELL ABC 50 @ 12.00
2024-02-01 BUY ABC 20 @ 11.00
2024-02-10 BUY ABC 40 @ 9.00`,
			[][]string{{RuleSameDay, RuleBedAndBreakfast}}, []string{"490.00"}, []string{"110.00"}},
		{"thirty_day_window_includes_day_30", `
2024-01-15 BUY ACME 100 @ 10.00
2024-06-01 SELL ACME 100 @ 15.00
2024-07-01 BUY ACME 100 @ 14.00`,
			[][]string{{RuleBedAndBreakfast}}, []string{"1400.00"}, []string{"100.00"}},
		{"thirty_day_window_excludes_day_31", `
2024-01-15 BUY ACME 100 @ 10.00
2024-06-01 SELL ACME 100 @ 15.00
2024-07-02 BUY ACME 100 @ 14.00`,
			[][]string{{RuleSection104}}, []string{"1000.00"}, []string{"500.00"}},
		{"thirty_day_matches_earliest_first_then_pool", `
2024-01-01 BUY X 100 @ 1
2024-03-01 SELL X 100 @ 2
2024-03-05 BUY X 30 @ 3
2024-03-20 BUY X 50 @ 4`,
			[][]string{{RuleBedAndBreakfast, RuleSection104}}, []string{"310.00"}, []string{"-110.00"}},
		{"same_day_reservation_beats_earlier_30_day_claim", `
2024-01-01 BUY SNAP 200 @ 10.00
2024-02-01 SELL SNAP 100 @ 12.00
2024-02-02 BUY SNAP 80 @ 11.00
2024-02-02 SELL SNAP 50 @ 11.50`,
			[][]string{{RuleBedAndBreakfast, RuleSection104}, {RuleSameDay}}, []string{"1030.00", "550.00"}, []string{"170.00", "25.00"}},
		{"split_inside_window", `
2024-01-01 BUY ABC 10 @ 100.00
2024-02-01 SELL ABC 5 @ 120.00
2024-02-10 SPLIT ABC RATIO 2
2024-02-20 BUY ABC 4 @ 60.00`,
			[][]string{{RuleBedAndBreakfast, RuleSection104}}, []string{"540.00"}, []string{"60.00"}},
		{"unsplit_inside_window", `
2019-01-01 BUY FOO 20 @ 10
2019-02-01 SELL FOO 20 @ 12
2019-02-15 UNSPLIT FOO RATIO 2
2019-02-20 BUY FOO 5 @ 20`,
			[][]string{{RuleBedAndBreakfast, RuleSection104}}, []string{"200.00"}, []string{"40.00"}},
		{"capreturn_after_disposal_does_not_change_it", `
2024-01-01 BUY LEAK 100 @ 10
2024-06-01 SELL LEAK 50 @ 12
2025-01-01 CAPRETURN LEAK 50 TOTAL 50
2025-06-01 SELL LEAK 50 @ 12`,
			[][]string{{RuleSection104}, {RuleSection104}}, []string{"500.00", "450.00"}, []string{"100.00", "150.00"}},
		{"accumulation_raises_pool_cost", `
2024-01-01 BUY F 10 @ 10
2024-02-01 ACCUMULATION F 10 TOTAL 5
2024-03-01 SELL F 10 @ 11`,
			[][]string{{RuleSection104}}, []string{"105.00"}, []string{"5.00"}},
		{"corporate_actions_before_trades_on_one_date", `
2024-01-01 BUY F 10 @ 10
2024-02-01 SELL F 20 @ 6
2024-02-01 SPLIT F RATIO 2
2024-02-01 ACCUMULATION F 10 TOTAL 20`,
			[][]string{{RuleSection104}}, []string{"120.00"}, []string{"0.00"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds := disposals(mustRun(t, tc.ledger, Options{}))
			if len(ds) != len(tc.rules) {
				t.Fatalf("%d disposals, want %d", len(ds), len(tc.rules))
			}
			for i, d := range ds {
				if fmt.Sprint(d.Rules) != fmt.Sprint(tc.rules[i]) {
					t.Errorf("disposal %d rules %v, want %v", i, d.Rules, tc.rules[i])
				}
				wantMoney(t, "cost", d.AllowableCost, tc.costs[i])
				wantMoney(t, "gain", d.Gain, tc.gains[i])
				checkLegsAddUp(t, &d)
			}
		})
	}
}

// checkLegsAddUp asserts a disposal's matches add up to it exactly.
func checkLegsAddUp(t *testing.T, d *Disposal) {
	t.Helper()
	var q, cost, proceeds, fees decimal.Decimal
	for _, m := range d.Matches {
		q, cost = q.Add(m.Quantity.Exact()), cost.Add(m.Cost.Exact())
		proceeds, fees = proceeds.Add(m.Proceeds.Exact()), fees.Add(m.SaleFees.Exact())
	}
	if !q.Equal(d.Quantity.Exact()) || !cost.Equal(d.IdentifiedCost.Exact()) ||
		!proceeds.Equal(d.Proceeds.Exact()) || !fees.Equal(d.SaleFees.Exact()) {
		t.Errorf("%s %s: legs (%s, £%s, £%s, £%s) do not add up to the disposal (%s, £%s, £%s, £%s)", d.Date, d.Ticker,
			q, cost, proceeds, fees, d.Quantity, d.IdentifiedCost.Exact(), d.Proceeds.Exact(), d.SaleFees.Exact())
	}
}

func TestSplitInsideWindowScalesMatchedQuantity(t *testing.T) {
	d := disposals(mustRun(t, `
2024-01-01 BUY ABC 10 @ 100.00
2024-02-01 SELL ABC 5 @ 120.00
2024-02-10 SPLIT ABC RATIO 2
2024-02-20 BUY ABC 4 @ 60.00`, Options{}))[0]
	m := d.Matches[0]
	if m.Quantity.String() != "2" || m.AcquisitionQuantity == nil || m.AcquisitionQuantity.String() != "4" {
		t.Fatalf("30-day leg %s shares of the disposal for %v acquired, want 2 for 4", m.Quantity, m.AcquisitionQuantity)
	}
	if !strings.Contains(strings.Join(m.Explain(), "\n"), "1 share then = 2 shares now") {
		t.Errorf("steps do not explain the split: %q", m.Explain())
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		ledger string
		code   string
		line   int
		parts  []string
	}{
		{"oversell_is_an_error", `
2024-01-01 BUY ABC 10 @ 1
2024-02-01 SELL ABC 15 @ 2`, model.CodeValidation, 2, []string{"ABC", "2024-02-01", "15 shares sold", "only 10 held"}},
		{"sale_before_its_repurchase_is_an_error", `
2024-02-01 SELL ABC 5 @ 2
2024-02-10 BUY ABC 5 @ 1`, model.CodeValidation, 1, []string{"5 shares sold", "only 0 held"}},
		{"capreturn_above_cost", `
2024-01-01 BUY ABC 10 @ 1
2024-02-01 CAPRETURN ABC 10 TOTAL 50`, model.CodeValidation, 2, []string{"more than the £10.00 cost", "part disposal"}},
		{"accumulation_without_holding", `
2024-01-01 ACCUMULATION ABC 10 TOTAL 5`, model.CodeValidation, 1, []string{"no shares of ABC are held"}},
		{"disposal_before_2008", `
2007-01-01 BUY ABC 10 @ 1
2008-04-05 SELL ABC 10 @ 2`, model.CodeValidation, 2, []string{"before 6 April 2008"}},
		{"missing_exchange_rates", `
2024-01-01 BUY ABC 10 @ 1 USD`, model.CodeFXUnavailable, 1, []string{"USD"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, tc.ledger, Options{})
			wantError(t, err, tc.code, tc.line, tc.parts...)
		})
	}
}

func TestOversellErrorContext(t *testing.T) {
	_, err := run(t, "2024-01-01 BUY ABC 10 @ 1\n2024-02-01 SELL ABC 15 @ 2", Options{})
	me := wantError(t, err, model.CodeValidation, 2)
	if me.File != "test.cgt" || me.Context["quantity_sold"] != "15" || me.Context["quantity_held"] != "10" || me.Context["ticker"] != "ABC" {
		t.Errorf("context %+v file %q", me.Context, me.File)
	}
}

func TestAcceptedEdgeCases(t *testing.T) {
	t.Run("zero_accumulation_without_holding_does_nothing", func(t *testing.T) {
		mustRun(t, "2023-07-15 ACCUMULATION FUNDZERO 0 TOTAL 0 TAX 0", Options{})
	})
	t.Run("acquisitions_before_2008_build_the_pool", func(t *testing.T) {
		d := disposals(mustRun(t, "2001-01-01 BUY A 10 @ 1\n2010-01-01 SELL A 10 @ 2", Options{}))
		wantMoney(t, "gain", d[0].Gain, "10.00")
	})
	t.Run("negative_losses_brought_forward_are_invalid", func(t *testing.T) {
		_, err := Calculate(nil, Options{LossesBroughtForward: decimal.NewFromInt(-1)})
		wantError(t, err, model.CodeInvalidArgument, 0)
	})
}

func TestLosses(t *testing.T) {
	t.Run("losses_brought_forward_stop_at_exempt_amount", func(t *testing.T) {
		rep := mustRun(t, "2024-05-01 BUY A 100 @ 10\n2024-06-01 SELL A 100 @ 60", Options{LossesBroughtForward: decimal.NewFromInt(10000)})
		y := rep.TaxYears[0]
		wantMoney(t, "net gain", y.NetGain, "5000.00")
		wantMoney(t, "used", y.LossesUsed, "2000.00")
		wantMoney(t, "taxable", y.TaxableGain, "0.00")
		wantMoney(t, "carried", y.LossesCarriedForward, "8000.00")
		wantMoney(t, "report carried", rep.LossesCarriedForward, "8000.00")
	})
	t.Run("net_loss_carries_forward_and_is_used_later", func(t *testing.T) {
		rep := mustRun(t, `
2022-05-01 BUY A 100 @ 10
2022-06-01 SELL A 50 @ 0
2024-06-01 SELL A 50 @ 200`, Options{LossesBroughtForward: decimal.NewFromInt(100)})
		y1, y2 := rep.TaxYears[0], rep.TaxYears[1]
		wantMoney(t, "year 1 losses", y1.Losses, "500.00")
		wantMoney(t, "year 1 used", y1.LossesUsed, "0.00")
		wantMoney(t, "year 1 carried", y1.LossesCarriedForward, "600.00")
		wantMoney(t, "year 2 brought", y2.LossesBroughtForward, "600.00")
		wantMoney(t, "year 2 used", y2.LossesUsed, "600.00")
		wantMoney(t, "year 2 taxable", y2.TaxableGain, "5900.00")
	})
	t.Run("in_year_losses_offset_gains_in_full", func(t *testing.T) {
		rep := mustRun(t, `
2024-05-01 BUY A 100 @ 10
2024-05-01 BUY B 100 @ 10
2024-06-01 SELL A 100 @ 12
2024-06-01 SELL B 100 @ 9`, Options{})
		y := rep.TaxYears[0]
		wantMoney(t, "gains", y.Gains, "200.00")
		wantMoney(t, "losses", y.Losses, "100.00")
		wantMoney(t, "net", y.NetGain, "100.00")
		wantMoney(t, "taxable", y.TaxableGain, "0.00")
		wantMoney(t, "carried", y.LossesCarriedForward, "0.00")
	})
}

func TestRatePeriods2024(t *testing.T) {
	rep := mustRun(t, `
2024-10-29 BUY S 100 @ 50
2024-10-29 SELL S 100 @ 60
2024-10-30 BUY S 100 @ 50
2024-10-30 SELL S 100 @ 40`, Options{})
	ps := rep.TaxYears[0].RatePeriods
	if len(ps) != 2 || ps[0].To.String() != "2024-10-29" || ps[1].From.String() != "2024-10-30" {
		t.Fatalf("rate periods %+v", ps)
	}
	wantMoney(t, "first part net", ps[0].NetGain, "1000.00")
	wantMoney(t, "second part net", ps[1].NetGain, "-1000.00")
	if ps[1].Basic.String() != "0.18" || ps[1].Higher.String() != "0.24" {
		t.Errorf("rates from 30 October 2024: %s / %s", ps[1].Basic, ps[1].Higher)
	}
}

func TestDividendsReportedPerTaxYear(t *testing.T) {
	rep := mustRun(t, `
2023-01-01 BUY INC 100 @ 10
2023-03-01 DIVIDEND INC TOTAL 50 TAX 5
2023-07-15 DIVIDEND INC TOTAL 20`, Options{})
	if len(rep.TaxYears) != 2 {
		t.Fatalf("%d tax years, want 2 (dividend-only years are reported)", len(rep.TaxYears))
	}
	y := rep.TaxYears[0]
	if y.Period != "2022/23" || y.DisposalCount != 0 || y.Dividends.Count != 1 {
		t.Errorf("year %s disposals %d dividends %d", y.Period, y.DisposalCount, y.Dividends.Count)
	}
	wantMoney(t, "income", y.Dividends.Income, "50.00")
	wantMoney(t, "tax", y.Dividends.TaxPaid, "5.00")
}

// fakeRates answers 1.25 USD per £1 in every month.
type fakeRates struct{}

func (fakeRates) Rate(currency string, year int, month time.Month) (fx.Rate, error) {
	if currency != "USD" {
		return fx.Rate{}, fmt.Errorf("no rate for %s", currency)
	}
	period := fmt.Sprintf("%04d-%02d", year, int(month))
	return fx.Rate{Currency: "USD", Period: period, PerGBP: decimal.RequireFromString("1.25"), Source: fx.SourceFor(period)}, nil
}

func TestForeignCurrency(t *testing.T) {
	rep := mustRun(t, `
2024-01-01 BUY ABC 10 @ 100.00 USD FEES 5 USD
2024-02-01 SELL ABC 10 @ 110.00 USD FEES 2.50 USD`, Options{Rates: fakeRates{}})
	d := disposals(rep)[0]
	wantMoney(t, "proceeds", d.Proceeds, "880.00")
	wantMoney(t, "sale fees", d.SaleFees, "2.00")
	wantMoney(t, "cost", d.AllowableCost, "806.00")
	if len(d.Original) != 1 || d.Original[0].Price.Currency != "USD" || d.Original[0].Price.RatePeriod != "2024-02" ||
		d.Original[0].Price.Rate.String() != "1.25" || d.Original[0].Consideration.Amount.String() != "1100" {
		t.Errorf("original %+v", d.Original)
	}
}

func TestStepsAndJSON(t *testing.T) {
	rep := mustRun(t, `
2014-04-01 BUY LOBSTER 1000 @ 4.00 FEES 150
2017-09-01 BUY LOBSTER 500 @ 4.10 FEES 80
2018-05-01 SELL LOBSTER 700 @ 4.80 FEES 100`, Options{})
	m := disposals(rep)[0].Matches[0]
	steps := strings.Join(m.Explain(), "\n")
	if !strings.Contains(steps, "cost = 700 shares × £6,280.00 ÷ 1,500 shares = £2,930.67") {
		t.Errorf("steps:\n%s", steps)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"tax_years"`, `"allowable_cost":"3030.67"`, `"rules":["section_104"]`, `"steps":["Section 104 pool before`,
		`"reference":"TCGA92/S104"`, `"holdings"`, `"pools"`, `"sa108"`, `"rate_periods"`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

// WriteSteps shares a large year's disposals among goroutines; every match must get exactly
// the lines Explain writes for it, and JSON must not change.
func TestWriteStepsMatchesExplain(t *testing.T) {
	txns := generateLedger(genOptions{n: 40_000, tickers: 50, events: true, seed: 3})
	rep, err := Calculate(txns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(rep)
	var want [][]string
	big := false
	for _, y := range rep.TaxYears {
		big = big || len(y.Disposals) >= stepsParallelMin
		for _, d := range y.Disposals {
			for _, m := range d.Matches {
				want = append(want, m.Explain())
			}
		}
	}
	if !big {
		t.Fatal("no tax year is large enough to share out; enlarge the ledger")
	}
	rep.WriteSteps()
	i := 0
	for _, y := range rep.TaxYears {
		for _, d := range y.Disposals {
			for _, m := range d.Matches {
				if len(m.Steps) == 0 || !slices.Equal(m.Steps, want[i]) {
					t.Fatalf("match %d: steps %q, want %q", i, m.Steps, want[i])
				}
				i++
			}
		}
	}
	if after, _ := json.Marshal(rep); string(after) != string(before) {
		t.Error("JSON changed once the steps were written")
	}
}

func TestHoldingsAt(t *testing.T) {
	rep := mustRun(t, `
2024-01-01 BUY A 100 @ 10
2024-03-01 SELL A 40 @ 12
2024-05-01 SPLIT A RATIO 2`, Options{})
	cases := map[string]string{"2023-12-31": "", "2024-01-01": "100", "2024-03-01": "60", "2024-06-01": "120"}
	for date, want := range cases {
		d, _ := model.ParseDate(date)
		hs := rep.HoldingsAt(d)
		got := ""
		if len(hs) == 1 {
			got = hs[0].Quantity.String()
		}
		if got != want {
			t.Errorf("holding at %s = %q, want %q", date, got, want)
		}
	}
	if h := rep.Holdings; len(h) != 1 || h[0].Quantity.String() != "120" || h[0].Cost.String() != "600.00" || h[0].AverageCost.String() != "5" {
		t.Errorf("final holdings %+v", h)
	}
}

func TestThirtyDayAcquisitionNeverEntersPool(t *testing.T) {
	rep := mustRun(t, `
2024-02-01 BUY ABC 5 @ 100.00
2024-02-05 SELL ABC 5 @ 110.00
2024-02-10 BUY ABC 5 @ 90.00
2024-06-01 SELL ABC 5 @ 120.00`, Options{})
	ds := disposals(rep)
	wantMoney(t, "first cost", ds[0].AllowableCost, "450.00")
	wantMoney(t, "second cost", ds[1].AllowableCost, "500.00")
}
