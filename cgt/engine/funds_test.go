package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/eri"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/shopspring/decimal"
)

// testFunds is a small table: a GBP share class (VGBP) and a USD one (VUSA), each with a
// 30 June year end, and a fund whose 2023 figure is missing.
const testFunds = `IE00B810Q511 VGBP GBP 20230630 0.20 20240630 0.30
IE00B3XXRP09 VUSA USD 20230630 0.5 20240630 1.0
IE00B3RBWM25 VWRL USD 20220630 0.10 20240630 0.10
`

func fundTable(t *testing.T) *eri.Table {
	t.Helper()
	tab, err := eri.Parse(testFunds)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func fundOpts(t *testing.T) Options { return Options{Rates: fx.Embedded(), ERI: fundTable(t)} }

const gbpFund = "2023-01-01 ISIN VGBP IE00B810Q511\n2023-01-01 BUY VGBP 100 @ 10.00 GBP\n"

func yearOf(rep *Report, period string) *TaxYear {
	for i := range rep.TaxYears {
		if rep.TaxYears[i].Period == period {
			return &rep.TaxYears[i]
		}
	}
	return nil
}

func TestBundledERI(t *testing.T) {
	usd := func(t *testing.T, amount string, year int, month int) string { // amount USD ÷ the month's rate, to 6 places, to the penny
		r, err := fx.Embedded().Rate("USD", year, time.Month(month))
		if err != nil {
			t.Fatal(err)
		}
		return decimal.RequireFromString(amount).DivRound(r.PerGBP, 6).StringFixedBank(2)
	}
	cases := []struct {
		name      string
		ledger    string
		wantRows  []string // ticker period_end units gbp to_disposals
		wantERI   map[string]string
		wantCosts []string // each disposal's allowable cost
		wantPool  string   // the pool cost left, "" when none
	}{
		{name: "gbp_class_held_over_two_period_ends", ledger: gbpFund,
			wantRows: []string{"VGBP 2023-06-30 100 20.00 0.00", "VGBP 2024-06-30 100 30.00 0.00"},
			wantERI:  map[string]string{"2023/24": "20.00", "2024/25": "30.00"}, wantPool: "1050.00"},
		{name: "sold_after_the_period_end_before_the_distribution_date", ledger: gbpFund + "2024-09-01 SELL VGBP 100 @ 12.00 GBP\n",
			wantRows:  []string{"VGBP 2023-06-30 100 20.00 0.00", "VGBP 2024-06-30 100 30.00 30.00"},
			wantERI:   map[string]string{"2023/24": "20.00", "2024/25": "30.00"},
			wantCosts: []string{"1050.00"}},
		{name: "sold_after_the_distribution_date", ledger: gbpFund + "2025-01-10 SELL VGBP 40 @ 12.00 GBP\n",
			wantRows:  []string{"VGBP 2023-06-30 100 20.00 0.00", "VGBP 2024-06-30 100 30.00 0.00"},
			wantCosts: []string{"420.00"}, wantPool: "630.00"},
		{name: "sold_before_the_period_end", ledger: gbpFund + "2024-05-01 SELL VGBP 100 @ 12.00 GBP\n",
			wantRows: []string{"VGBP 2023-06-30 100 20.00 0.00"}, wantCosts: []string{"1020.00"}},
		{name: "part_sold_between_period_end_and_distribution_date", ledger: gbpFund + "2024-08-01 SELL VGBP 25 @ 12.00 GBP\n2024-09-01 BUY VGBP 50 @ 11.00 GBP\n",
			wantRows:  []string{"VGBP 2023-06-30 100 20.00 0.00", "VGBP 2024-06-30 100 30.00 7.50"},
			wantCosts: []string{"262.50"}, wantPool: "1337.50"},
		{name: "disposal_matched_with_a_next_period_purchase_counts_as_held", ledger: gbpFund + "2024-06-20 SELL VGBP 100 @ 12.00 GBP\n2024-07-05 BUY VGBP 100 @ 12.50 GBP\n",
			wantRows:  []string{"VGBP 2023-06-30 100 20.00 0.00", "VGBP 2024-06-30 100 30.00 30.00"},
			wantCosts: []string{"1280.00"}, wantPool: "1020.00"},
		{name: "written_eri_line_replaces_the_bundled_figure", ledger: gbpFund + "2024-12-30 ERI VGBP 100 TOTAL 31.00 GBP\n",
			wantRows: []string{"VGBP 2023-06-30 100 20.00 0.00", "VGBP - 100 31.00 0.00"},
			wantERI:  map[string]string{"2024/25": "31.00"}, wantPool: "1051.00"},
		{name: "usd_class_converted_at_the_distribution_month", ledger: "2023-01-01 BUY VUSA 10 @ 50.00 GBP ISIN IE00B3XXRP09\n",
			wantRows: []string{"VUSA 2023-06-30 10 " + usd(t, "5.0", 2023, 12) + " 0.00", "VUSA 2024-06-30 10 " + usd(t, "10.0", 2024, 12) + " 0.00"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := mustRun(t, c.ledger, fundOpts(t))
			var rows []string
			for _, r := range rep.ExcessIncome {
				end := "-"
				if r.PeriodEnd != nil {
					end = r.PeriodEnd.String()
				}
				rows = append(rows, fmt.Sprintf("%s %s %s %s %s", r.Ticker, end, r.Units, r.GBP, r.ToDisposals))
			}
			if strings.Join(rows, "\n") != strings.Join(c.wantRows, "\n") {
				t.Errorf("applied:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(c.wantRows, "\n"))
			}
			for period, want := range c.wantERI {
				if y := yearOf(rep, period); y == nil || y.Dividends.ERI.String() != want {
					t.Errorf("%s ERI income: %v, want %s", period, y, want)
				}
			}
			var costs []string
			for _, y := range rep.TaxYears {
				for _, d := range y.Disposals {
					costs = append(costs, d.AllowableCost.String())
				}
			}
			if c.wantCosts != nil && strings.Join(costs, " ") != strings.Join(c.wantCosts, " ") {
				t.Errorf("disposal costs %v, want %v", costs, c.wantCosts)
			}
			pool := ""
			for _, h := range rep.Holdings {
				pool = h.Cost.String()
			}
			if c.wantPool != "" && pool != c.wantPool {
				t.Errorf("pool cost %s, want %s", pool, c.wantPool)
			}
		})
	}
}

func TestBundledERIIsOffWithoutATable(t *testing.T) {
	rep := mustRun(t, gbpFund, Options{Rates: fx.Embedded()})
	if len(rep.ExcessIncome) != 0 || rep.Holdings[0].Cost.String() != "1000.00" {
		t.Fatalf("ERI applied with the table off: %+v", rep.ExcessIncome)
	}
}

func TestBundledERIIsNeverAppliedFromATickerAlone(t *testing.T) {
	rep := mustRun(t, "2023-01-01 BUY VGBP 100 @ 10.00 GBP\n", fundOpts(t))
	if len(rep.ExcessIncome) != 0 {
		t.Fatalf("applied by ticker: %+v", rep.ExcessIncome)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "`2023-01-01 ISIN VGBP IE00B810Q511`") {
		t.Errorf("no declaration suggested: %q", rep.Warnings)
	}
}

func TestBundledERINamesAPeriodWithNoFigure(t *testing.T) {
	rep := mustRun(t, "2022-01-01 BUY VWRL 10 @ 50 GBP ISIN IE00B3RBWM25\n", fundOpts(t))
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "ending 2023-06-30, for which the bundled table has no") {
		t.Errorf("the missing period is not named: %q", rep.Warnings)
	}
}

func TestISINDeclarationErrorsNameTheLines(t *testing.T) {
	cases := map[string]string{
		"isin_on_two_tickers":  "2024-01-01 ISIN VUSA IE00B3XXRP09\n2024-01-01 ISIN VUSA.L IE00B3XXRP09\n2024-02-01 BUY VUSA 1 @ 1\n",
		"ticker_with_two":      "2024-01-01 ISIN VUSA IE00B3XXRP09\n2024-01-01 ISIN VUSA IE00B3RBWM25\n2024-02-01 BUY VUSA 1 @ 1\n",
		"declaration_vs_label": "2024-01-01 ISIN VUSA IE00B3XXRP09\n2024-02-01 BUY VUSA 1 @ 1 ISIN IE00B3RBWM25\n",
	}
	for name, ledger := range cases {
		_, err := run(t, ledger, fundOpts(t))
		if err == nil || !strings.Contains(err.Error(), "test.cgt") {
			t.Errorf("%s: %v, want an error naming the line", name, err)
		}
	}
}

// TestPropertyERIAddsToCostExactlyOnce: over random trading in a fund, the cost of every
// disposal and of the pool left, with the bundled figures, is the cost without them plus the
// ERI applied — to the penny of each figure's rounding.
func TestPropertyERIAddsToCostExactlyOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 33))
	for n := 0; n < 60; n++ {
		var b strings.Builder
		b.WriteString("2022-01-01 ISIN VGBP IE00B810Q511\n2022-03-01 BUY VGBP 100 @ 10 GBP\n")
		held := 100
		for d := 0; d < 12; d++ {
			date := fmt.Sprintf("%d-%02d-%02d", 2022+rng.IntN(4), 1+rng.IntN(12), 1+rng.IntN(28))
			if date <= "2022-03-01" {
				continue
			}
			if rng.IntN(2) == 0 && held > 0 {
				q := 1 + rng.IntN(held)
				fmt.Fprintf(&b, "%s SELL VGBP %d @ 11 GBP\n", date, q)
				held -= q
			} else {
				q := 1 + rng.IntN(50)
				fmt.Fprintf(&b, "%s BUY VGBP %d @ 9 GBP\n", date, q)
				held += q
			}
		}
		ledger := b.String()
		txns := parseLedger(t, ledger)
		on, errOn := Calculate(txns, fundOpts(t))
		off, errOff := Calculate(parseLedger(t, ledger), Options{Rates: fx.Embedded()})
		if (errOn == nil) != (errOff == nil) {
			t.Fatalf("on %v, off %v\n%s", errOn, errOff, ledger)
		}
		if errOn != nil {
			continue // an oversold ledger fails either way
		}
		total := func(rep *Report) decimal.Decimal {
			s := decimal.Zero
			for _, y := range rep.TaxYears {
				for _, d := range y.Disposals {
					s = s.Add(d.AllowableCost.Exact())
				}
			}
			for _, h := range rep.Holdings {
				s = s.Add(h.Cost.Exact())
			}
			return s
		}
		eriSum := decimal.Zero
		for _, r := range on.ExcessIncome {
			eriSum = eriSum.Add(r.GBP.Exact())
		}
		diff := total(on).Sub(total(off)).Sub(eriSum).Abs()
		if diff.GreaterThan(decimal.RequireFromString("0.000001")) {
			t.Fatalf("cost with ERI − cost without = ERI applied + %s\n%s", diff, ledger)
		}
	}
}

func TestIncomeBoxesSplitAsTheReturnAsks(t *testing.T) {
	rep := mustRun(t, gbpFund+`2024-05-01 DIVIDEND VOD.L TOTAL 10.00 GBP
2024-05-02 DIVIDEND AAPL TOTAL 20.00 GBP TAX 3.00 GBP ISIN US0378331005
2024-05-03 BUY VOD.L 1 @ 1
`, fundOpts(t))
	y := yearOf(rep, "2024/25")
	if y == nil {
		t.Fatal("no 2024/25")
	}
	var got []string
	for _, in := range y.Income {
		got = append(got, fmt.Sprintf("%s %s %s %s %d", in.Kind, in.Form, in.Amount, in.TaxTakenOff, len(in.Sources)))
	}
	want := []string{"uk_dividends SA100 10.00 0.00 1", "foreign_dividends SA106 20.00 3.00 1", "excess_reportable_income SA106 30.00 0.00 1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("income:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if y := yearOf(rep, "2023/24"); y == nil || len(y.Income) != 1 || y.Income[0].Amount.String() != "20.00" {
		t.Errorf("2023/24 ERI (distribution date 2023-12-30) not in its year: %+v", y)
	}
}

func TestBundledERIAppliesToAHoldingNamedByItsISIN(t *testing.T) {
	rep := mustRun(t, "2023-01-01 BUY IE00B810Q511 100 @ 10.00 GBP\n2023-01-01 POOL IE00B810Q511 50 COST 400 GBP\n", fundOpts(t))
	if len(rep.ExcessIncome) != 2 || rep.ExcessIncome[0].Units.String() != "150" || rep.ExcessIncome[0].GBP.String() != "30.00" {
		t.Fatalf("applied: %+v", rep.ExcessIncome)
	}
}
