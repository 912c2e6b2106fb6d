package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// usdUntil is a table with a USD rate (rate) for every month from 2024-01 to last.
func usdUntil(t *testing.T, last string, rate string) *fx.Table {
	t.Helper()
	tab := fx.NewTable()
	for m := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC); m.Format("2006-01") <= last; m = m.AddDate(0, 1, 0) {
		if err := tab.Merge(m.Format("2006-01"), []fx.Rate{{Currency: "USD", PerGBP: decimal.RequireFromString(rate)}}); err != nil {
			t.Fatal(err)
		}
	}
	return tab
}

func TestLaterRates(t *testing.T) {
	const base = `
2024-05-01 BUY AAPL 100 @ 100 USD
2025-06-10 SELL AAPL 50 @ 150 USD
`
	cases := []struct {
		name        string
		later       string   // rows after 2026-03, the last month with a rate
		years       []string // tax years left out
		shown       []string // tax years in the report
		needs       []int    // tax years (start) whose figures need a pending row
		notNeeded   []int
		holdingsOut bool
	}{
		{name: "buy_after_year_end_window", later: "2026-10-15 BUY AAPL 10 @ 200 USD",
			shown: []string{"2025/26"}, notNeeded: []int{2025, 2026}, holdingsOut: true},
		{name: "buy_inside_30_days_of_a_sale_in_the_year", later: "2026-03-20 SELL AAPL 10 @ 150 USD\n2026-04-10 BUY AAPL 10 @ 200 USD",
			years: []string{"2025/26"}, needs: []int{2025, 2026}, holdingsOut: true},
		{name: "sale_in_a_later_year", later: "2026-11-02 SELL AAPL 10 @ 150 USD",
			years: []string{"2026/27"}, shown: []string{"2025/26"}, needs: []int{2026, 2027}, notNeeded: []int{2025}, holdingsOut: true},
		{name: "dividend_only", later: "2026-05-20 DIVIDEND AAPL TOTAL 12.50 USD",
			years: []string{"2026/27"}, shown: []string{"2025/26"}, needs: []int{2026}, notNeeded: []int{2025, 2027}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := base + tc.later
			short := usdUntil(t, "2026-03", "1.25")
			if _, err := run(t, src, Options{Rates: short}); err == nil {
				t.Fatal("without DeferLaterRates a later row must be an error")
			}
			rep := mustRun(t, src, Options{Rates: short, DeferLaterRates: true})
			p := rep.Pending
			if p == nil || len(p.Rows) == 0 {
				t.Fatal("no pending rows")
			}
			for _, r := range p.Rows {
				if r.Last != "2026-03" || r.Currency != "USD" || !strings.Contains(r.String(), "test.cgt:") {
					t.Errorf("pending row %s last %s", r, r.Last)
				}
			}
			if !slices.Equal(p.Years, tc.years) {
				t.Errorf("years left out %v, want %v", p.Years, tc.years)
			}
			var shown []string
			for _, ty := range rep.TaxYears {
				shown = append(shown, ty.Period)
			}
			if !slices.Equal(shown, tc.shown) {
				t.Errorf("years shown %v, want %v", shown, tc.shown)
			}
			for _, y := range tc.needs {
				if !p.Needs(taxyear.Year{Start: y}) || len(p.NeededBy(taxyear.Year{Start: y})) == 0 {
					t.Errorf("%d/%d should need a pending row", y, y+1)
				}
			}
			for _, y := range tc.notNeeded {
				if p.Needs(taxyear.Year{Start: y}) {
					t.Errorf("%d/%d should not need a pending row", y, y+1)
				}
			}
			if got := len(rep.Holdings) == 0; got != tc.holdingsOut {
				t.Errorf("holdings left out %v, want %v", got, tc.holdingsOut)
			}
			// Every year shown is the year a full table gives, whatever the later rate is.
			for _, rate := range []string{"1.5", "0.9"} {
				full := usdUntil(t, "2027-12", "1.25")
				for m := 4; m <= 12; m++ {
					_ = full.Merge(fmt.Sprintf("2026-%02d", m), []fx.Rate{{Currency: "USD", PerGBP: decimal.RequireFromString(rate)}})
				}
				want := mustRun(t, src, Options{Rates: full})
				for _, ty := range rep.TaxYears {
					for _, w := range want.TaxYears {
						if w.Period == ty.Period && !sameJSON(t, w, ty) {
							t.Errorf("%s differs from the full calculation at rate %s", ty.Period, rate)
						}
					}
				}
				if tc.holdingsOut {
					continue
				}
				if !sameJSON(t, want.Holdings, rep.Holdings) {
					t.Errorf("holdings differ from the full calculation")
				}
			}
		})
	}
}

func TestLaterRatesPoolsStopBeforeTheWindow(t *testing.T) {
	src := `
2024-05-01 BUY AAPL 100 @ 100 USD
2026-02-10 SELL AAPL 50 @ 150 USD
2026-03-25 SELL AAPL 10 @ 150 USD
2026-04-20 BUY AAPL 10 @ 200 USD
`
	rep := mustRun(t, src, Options{Rates: usdUntil(t, "2026-03", "1.25"), DeferLaterRates: true})
	if got := rep.Pending.KnownBefore(); got != model.NewDate(2026, 3, 21) {
		t.Fatalf("known before %s", got)
	}
	for _, p := range rep.Pools {
		for _, e := range p.Events {
			if e.Date >= rep.Pending.KnownBefore() {
				t.Errorf("pool event %s on %s is within 30 days before a row with no rate", e.Event, e.Date)
			}
		}
	}
	if len(rep.TaxYears) != 0 || !rep.Pending.Needs(taxyear.Year{Start: 2025}) {
		t.Errorf("2025/26 must be left out: %+v", rep.Pending)
	}
}

func TestLaterRatesDeclarationsKept(t *testing.T) {
	src := `
2024-05-01 BUY AAPL 100 @ 100 USD
2025-06-10 SELL AAPL 50 @ 150 USD
2026-10-01 ACCOUNT MYISA ISA
2026-10-15 BUY AAPL 10 @ 200 USD
`
	rep := mustRun(t, src, Options{Rates: usdUntil(t, "2026-03", "1.25"), DeferLaterRates: true})
	if rep.Pending == nil || len(rep.TaxYears) != 1 {
		t.Fatalf("report %+v", rep.Pending)
	}
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(x) == string(y)
}
