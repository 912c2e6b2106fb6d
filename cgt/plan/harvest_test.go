package plan

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
)

const planDay = "2026-12-01"

func planner(t testing.TB, ledger string) *Planner {
	t.Helper()
	txns, err := dsl.Parse("ledger", []byte(ledger))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := model.ParseDate(planDay)
	p, err := New(txns, engine.Options{Context: context.Background()}, d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func gbpPrice(s string) Price {
	return Price{Amount: decimal.RequireFromString(s), Currency: model.GBP}
}

// bruteForce is the best net gain not past the aim over every combination of whole shares of
// the priced holdings, each worked out by the engine with the whole ledger.
func bruteForce(t *testing.T, p *Planner, prices map[string]Price, aim decimal.Decimal, fees *Price, dir int) decimal.Decimal {
	t.Helper()
	hs := p.Holdings()
	best := p.BaseTY.NetGain.Exact()
	ks := make([]int64, len(hs))
	var walk func(i int)
	walk = func(i int) {
		if i == len(hs) {
			var sales []Sale
			for j, k := range ks {
				if k > 0 {
					sales = append(sales, Sale{Ticker: hs[j].Ticker, Quantity: decimal.NewFromInt(k), Price: prices[hs[j].Ticker], Fees: fees})
				}
			}
			_, ty, err := p.Run(sales)
			if err != nil {
				return
			}
			n := ty.NetGain.Exact()
			if dir > 0 && n.LessThanOrEqual(aim) && n.GreaterThan(best) || dir < 0 && n.GreaterThanOrEqual(aim) && n.LessThan(best) {
				best = n
			}
			return
		}
		for k := int64(0); k <= hs[i].Quantity.Exact().IntPart(); k++ {
			ks[i] = k
			walk(i + 1)
		}
		ks[i] = 0
	}
	walk(0)
	return best
}

func TestHarvestIsTheBestCombinationOfWholeShares(t *testing.T) {
	cases := []struct {
		name, ledger string
		prices       map[string]Price
		target       string
		fees         *Price
	}{
		{"two_holdings_exact", "2024-01-02 BUY AAA 40 @ 10.00\n2024-01-02 BUY BBB 60 @ 5.00\n",
			map[string]Price{"AAA": gbpPrice("30.37"), "BBB": gbpPrice("12.00")}, "300", nil},
		{"greedy_misses", "2024-01-02 BUY AAA 30 @ 10.00\n2024-01-02 BUY BBB 30 @ 10.00\n",
			map[string]Price{"AAA": gbpPrice("17.00"), "BBB": gbpPrice("15.00")}, "100", nil},
		{"with_fees", "2024-01-02 BUY AAA 25 @ 10.00 FEES 3\n2024-01-02 BUY BBB 25 @ 4.00 FEES 3\n2024-01-02 BUY CCC 12 @ 1.00\n",
			map[string]Price{"AAA": gbpPrice("19.99"), "BBB": gbpPrice("7.13"), "CCC": gbpPrice("9.50")}, "123.45", &Price{Amount: decimal.RequireFromString("2.50"), Currency: model.GBP}},
		{"losses", "2024-01-02 BUY AAA 30 @ 20.00\n2024-01-02 BUY BBB 30 @ 9.00\n2026-05-01 SELL AAA 5 @ 60\n",
			map[string]Price{"AAA": gbpPrice("13.31"), "BBB": gbpPrice("4.07")}, "-50", nil},
		{"thirty_day_rebuy_in_ledger", "2024-01-02 BUY AAA 20 @ 10.00\n2026-12-10 BUY AAA 5 @ 25.00\n2024-01-02 BUY BBB 20 @ 2.00\n",
			map[string]Price{"AAA": gbpPrice("24.00"), "BBB": gbpPrice("3.33")}, "150", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planner(t, c.ledger)
			target := decimal.RequireFromString(c.target)
			h, err := p.Harvest(HarvestOptions{Prices: c.prices, Target: target, Fees: c.fees})
			if err != nil {
				t.Fatal(err)
			}
			dir := 1
			if h.Direction == "losses" {
				dir = -1
			}
			want := bruteForce(t, p, c.prices, target, c.fees, dir)
			if got := h.After.NetGain.Exact(); !got.Equal(want) || h.Bounded {
				t.Errorf("harvest reaches %s (bounded %v), the best combination %s; sales %v", got, h.Bounded, want, h.Sales)
			}
		})
	}
}

func TestHarvestLeavesTheMarginAndHonoursOnlyAndExclude(t *testing.T) {
	p := planner(t, "2024-01-02 BUY AAA 40 @ 10.00\n2024-01-02 BUY BBB 60 @ 5.00\n")
	prices := map[string]Price{"AAA": gbpPrice("30.37"), "BBB": gbpPrice("12.00")}
	h, err := p.Harvest(HarvestOptions{Prices: prices, Target: decimal.NewFromInt(300), Margin: decimal.NewFromInt(50)})
	if err != nil || h.After.NetGain.Exact().GreaterThan(decimal.NewFromInt(250)) {
		t.Fatalf("with a margin of 50: %v %v", h.After.NetGain, err)
	}
	for _, o := range []HarvestOptions{{Only: []string{"BBB"}}, {Exclude: []string{"AAA"}}} {
		o.Prices, o.Target = prices, decimal.NewFromInt(300)
		h, err := p.Harvest(o)
		if err != nil || len(h.Sales) != 1 || h.Sales[0].Ticker != "BBB" {
			t.Errorf("%+v: sales %v %v", o, h.Sales, err)
		}
	}
}

func TestHarvestStopsOnCancel(t *testing.T) {
	p := planner(t, benchLedger(20))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.Opts.Context = ctx
	if _, err := p.Harvest(HarvestOptions{Prices: benchPrices(20), Target: decimal.NewFromInt(3000)}); err == nil {
		t.Fatal("a cancelled harvest went on")
	}
}

func TestHarvestSaysWhenItsBoundIsHit(t *testing.T) {
	// Gains of whole pounds a share cannot make 100.50: the search looks at everything.
	var b strings.Builder
	prices := map[string]Price{}
	for i := 0; i < 8; i++ {
		tk := fmt.Sprintf("T%02d", i)
		fmt.Fprintf(&b, "2024-01-02 BUY %s 400 @ 1.00\n", tk)
		prices[tk] = gbpPrice(fmt.Sprint(2 + i))
	}
	p := planner(t, b.String())
	h, err := p.Harvest(HarvestOptions{Prices: prices, Target: decimal.RequireFromString("4100.50"), MaxEvaluations: 500})
	if err != nil || !h.Bounded || !h.After.NetGain.Exact().Equal(decimal.NewFromInt(4100)) {
		t.Fatalf("bounded %v, net %s, %v", h.Bounded, h.After.NetGain, err)
	}
}

// benchLedger is n holdings of a few purchases each, priced by benchPrices at a gain.
func benchLedger(n int) string {
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			fmt.Fprintf(&b, "20%02d-0%d-1%d BUY H%03d %d @ %d.%02d FEES 5.95\n", 18+j, 1+r.Intn(9), r.Intn(10), i, 10+r.Intn(500), 1+r.Intn(80), r.Intn(100))
		}
	}
	return b.String()
}

func benchPrices(n int) map[string]Price {
	r := rand.New(rand.NewSource(2))
	out := map[string]Price{}
	for i := 0; i < n; i++ {
		out[fmt.Sprintf("H%03d", i)] = gbpPrice(fmt.Sprintf("%d.%02d", 80+r.Intn(50), r.Intn(100)))
	}
	return out
}

// BenchmarkHarvest50 is a harvest over 50 priced holdings (target: the year's exempt amount).
// The answer must come in under 2 s on a small machine.
func BenchmarkHarvest50(b *testing.B) {
	p := planner(b, benchLedger(50))
	prices := benchPrices(50)
	for b.Loop() {
		start := time.Now()
		h, err := p.Harvest(HarvestOptions{Prices: prices, Target: decimal.NewFromInt(3000)})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(h.Evaluations), "evals/op")
		b.ReportMetric(time.Since(start).Seconds(), "s/harvest")
	}
}
