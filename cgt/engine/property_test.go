package engine

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// propertyLedgers are generated ledgers with every kind of event, small enough to check
// exhaustively and large enough to hit every rule.
func propertyLedgers(t *testing.T) [][]model.Transaction {
	t.Helper()
	var out [][]model.Transaction
	for seed := uint64(1); seed <= 20; seed++ {
		out = append(out, generateLedger(genOptions{n: 400, tickers: 3, events: true, seed: seed}))
	}
	return out
}

func TestPropertyQuantitiesConserved(t *testing.T) {
	for _, txns := range propertyLedgers(t) {
		rep, err := Calculate(txns, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := heldByReplay(txns)
		got := map[string]decimal.Decimal{}
		for _, h := range rep.Holdings {
			got[h.Ticker] = h.Quantity.Exact()
		}
		for ticker, q := range want {
			if !q.Equal(got[ticker]) {
				t.Errorf("%s: holding %s, want bought − sold with splits = %s", ticker, got[ticker], q)
			}
		}
	}
}

// heldByReplay is the independent count: per ticker, in date order with splits before the
// day's trades, bought − sold, scaled by every later split.
func heldByReplay(txns []model.Transaction) map[string]decimal.Decimal {
	led, _, _, _ := groupByTicker(txns, nil)
	out := map[string]decimal.Decimal{}
	for i, name := range led.tickers {
		sortEvents(txns, led.txns[i])
		var q decimal.Decimal
		for _, k := range led.txns[i] {
			t := &txns[k]
			switch t.Action {
			case model.Buy:
				q = q.Add(t.Quantity.Exact())
			case model.Sell:
				q = q.Sub(t.Quantity.Exact())
			case model.Split:
				q = q.Mul(t.Ratio().Exact())
			case model.Unsplit:
				q = q.DivRound(t.Ratio().Exact(), divPlaces)
			}
		}
		out[name] = q
	}
	return out
}

func TestPropertyPoolsNeverNegative(t *testing.T) {
	for _, txns := range propertyLedgers(t) {
		rep, err := Calculate(txns, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Pools {
			for _, e := range p.Events {
				if e.Quantity.Sign() < 0 || e.Cost.Exact().Sign() < 0 {
					t.Fatalf("%s pool negative after %s on %s: %s shares, £%s", p.Ticker, e.Event, e.Date, e.Quantity, e.Cost.Exact())
				}
			}
		}
	}
}

func TestPropertyYearTotalsAreSumsOfDisposals(t *testing.T) {
	for _, txns := range propertyLedgers(t) {
		rep, err := Calculate(txns, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range rep.TaxYears {
			checkYearTotals(t, &rep.TaxYears[i])
		}
	}
}

// checkYearTotals asserts a year's totals are the sums of its disposals' figures as shown.
func checkYearTotals(t *testing.T, y *TaxYear) {
	t.Helper()
	var proceeds, costs, gains, losses decimal.Decimal
	for i := range y.Disposals {
		d := &y.Disposals[i]
		checkLegsAddUp(t, d)
		proceeds = proceeds.Add(d.Proceeds.Rounded())
		costs = costs.Add(d.AllowableCost.Rounded())
		if g := d.Gain.Rounded(); g.Sign() >= 0 {
			gains = gains.Add(g)
		} else {
			losses = losses.Sub(g)
		}
	}
	if len(y.Disposals) != y.DisposalCount || !proceeds.Equal(y.Proceeds.Exact()) || !costs.Equal(y.AllowableCosts.Exact()) ||
		!gains.Equal(y.Gains.Exact()) || !losses.Equal(y.Losses.Exact()) || !gains.Sub(losses).Equal(y.NetGain.Exact()) {
		t.Errorf("%s totals do not add up: %+v", y.Period, y.SA108)
	}
	checkRatePeriodsAddUp(t, y)
}

// checkRatePeriodsAddUp asserts the parts of a year add up to the year.
func checkRatePeriodsAddUp(t *testing.T, y *TaxYear) {
	t.Helper()
	var n int
	var net decimal.Decimal
	for _, p := range y.RatePeriods {
		n += p.DisposalCount
		net = net.Add(p.NetGain.Exact())
	}
	if n != y.DisposalCount || !net.Equal(y.NetGain.Exact()) {
		t.Errorf("%s rate periods (%d, £%s) do not add up to the year (%d, £%s)", y.Period, n, net, y.DisposalCount, y.NetGain.Exact())
	}
}

// TestPropertyInputOrderDoesNotMatter pins the same-date event order: any permutation of the
// input lines gives a byte-identical report.
func TestPropertyInputOrderDoesNotMatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, txns := range propertyLedgers(t)[:8] {
		want := reportJSON(t, txns)
		for range 5 {
			shuffled := append([]model.Transaction(nil), txns...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if got := reportJSON(t, shuffled); !bytes.Equal(got, want) {
				t.Fatalf("a permutation of the input changed the report")
			}
		}
	}
}

// TestSameDateOrderPermutations checks every order of one date's mixed events.
func TestSameDateOrderPermutations(t *testing.T) {
	lines := []string{
		"2024-03-01 BUY F 10 @ 10 FEES 1",
		"2024-03-01 ACCUMULATION F 10 TOTAL 4",
		"2024-03-01 CAPRETURN F 10 TOTAL 3",
		"2024-03-01 SPLIT F RATIO 2",
		"2024-03-01 SELL F 25 @ 7 FEES 1",
		"2024-03-01 DIVIDEND F TOTAL 2",
	}
	base := "2024-01-01 BUY F 10 @ 9\n"
	sameReportInEveryOrder(t, base, lines)
}

func permute(s []string, k int, visit func([]string)) {
	if k == len(s) {
		visit(s)
		return
	}
	for i := k; i < len(s); i++ {
		s[k], s[i] = s[i], s[k]
		permute(s, k+1, visit)
		s[k], s[i] = s[i], s[k]
	}
}

// parseLedger parses text without line numbers mattering: each line's source is its content,
// so that permuted ledgers are the same transactions.
func parseLedger(t *testing.T, src string) []model.Transaction {
	t.Helper()
	rep, err := runParse(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rep {
		rep[i].Source = model.Source{Index: -1}
	}
	return rep
}

func runParse(src string) ([]model.Transaction, error) { return dsl.Parse("", []byte(src)) }

func reportJSON(t *testing.T, txns []model.Transaction) []byte {
	t.Helper()
	rep, err := Calculate(txns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// sameReportInEveryOrder checks that the ledger base followed by lines in every order gives
// one report.
func sameReportInEveryOrder(t *testing.T, base string, lines []string) {
	t.Helper()
	var want []byte
	permute(lines, 0, func(p []string) {
		src := base
		for _, l := range p {
			src += l + "\n"
		}
		got := reportJSON(t, parseLedger(t, src))
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Fatalf("order %q changed the report", p)
		}
	})
}
