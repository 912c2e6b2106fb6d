package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// eventLedger is a generated ledger with every kind of event: opening pools, rights issues,
// takeovers (with and without cash), demergers, transfers to and from a spouse, capital
// distributions with a value, ERI and aliases. held is each security's holding at the end,
// counted as the lines were written. Events fall on a date of their own, so that the order
// the engine gives one date's lines cannot differ from the order they were written in.
type eventLedger struct {
	txns []model.Transaction
	held map[string]int64
}

func generateEventLedger(seed uint64, n int) eventLedger {
	rng := rand.New(rand.NewPCG(seed, 1982))
	g := eventLedger{held: map[string]int64{}}
	live := []string{"A", "B", "C"}
	date := model.NewDate(2009, 1, 5)
	gbp := func(cents int) model.Amount {
		return model.Amount{Value: model.NewDecimal(decimal.New(int64(cents), -2)), Currency: model.GBP}
	}
	qty := func(v int64) model.Decimal { return model.NewDecimal(decimal.NewFromInt(v)) }
	add := func(t model.Transaction) {
		t.Source = model.Source{File: "gen.cgt", Line: len(g.txns) + 1, Index: -1}
		g.txns = append(g.txns, t)
	}
	for _, name := range live {
		if rng.IntN(2) == 0 {
			q := int64(100 + rng.IntN(900))
			add(model.Transaction{Date: model.NewDate(1982, 3, 31), Action: model.Pool, Ticker: name, Quantity: qty(q), Event: &model.Event{Cost: gbp(10000 + rng.IntN(100000))}})
			g.held[name] += q
		}
	}
	add(model.Transaction{Date: date, Action: model.Alias, Ticker: "A", Event: &model.Event{NewTicker: "A.L"}})
	newNames := 0
	fresh := false // the next line needs a date of its own
	for len(g.txns) < n {
		k := rng.IntN(len(live))
		name := live[k]
		h := g.held[name]
		roll := rng.IntN(100)
		event := roll >= 65 && h > 0
		if event || fresh || rng.IntN(3) != 0 {
			date = date.AddDays(1 + rng.IntN(4))
		}
		fresh = event
		t := model.Transaction{Date: date, Ticker: name}
		if name == "A" && rng.IntN(3) == 0 {
			t.Ticker = "A.L"
		}
		switch {
		case roll < 40 || h == 0:
			q := int64(1 + rng.IntN(300))
			t.Action, t.Quantity, t.Price, t.Fees = model.Buy, qty(q), gbp(100+rng.IntN(5000)), gbp(rng.IntN(1000))
			g.held[name] += q
		case roll < 65:
			q := 1 + rng.Int64N(h)
			t.Action, t.Quantity, t.Price, t.Fees = model.Sell, qty(q), gbp(100+rng.IntN(5000)), gbp(rng.IntN(1000))
			g.held[name] -= q
		case roll < 70:
			q := 1 + rng.Int64N(h)
			t.Action, t.Quantity, t.Price = model.Rights, qty(q), gbp(50+rng.IntN(500))
			g.held[name] += q
		case roll < 74 && len(live) < 8:
			newNames++
			to := fmt.Sprintf("N%d", newNames)
			q := 1 + rng.Int64N(2*h)
			t.Action, t.Ticker, ev(&t).NewTicker, t.Quantity = model.Takeover, name, to, qty(q)
			switch rng.IntN(3) {
			case 0:
				ev(&t).Cash = gbp(1) // small: reduces the cost
			case 1:
				ev(&t).Cash, ev(&t).Value = gbp(400000+rng.IntN(400000)), gbp(1000000+rng.IntN(4000000))
			}
			g.held[name], g.held[to] = 0, q
			live[k] = to
		case roll < 78 && len(live) < 8:
			newNames++
			to := fmt.Sprintf("D%d", newNames)
			q := 1 + rng.Int64N(h)
			t.Action, t.Ticker, ev(&t).NewTicker, t.Quantity = model.Demerger, name, to, qty(q)
			ev(&t).Ratio = model.NewDecimal(decimal.New(int64(1+rng.IntN(60)), -2))
			g.held[to] = q
			live = append(live, to)
		case roll < 83:
			q := 1 + rng.Int64N(h)
			t.Action, t.Quantity = model.SpouseOut, qty(q)
			g.held[name] -= q
		case roll < 86:
			q := int64(1 + rng.IntN(100))
			t.Action, t.Quantity, ev(&t).Cost = model.SpouseIn, qty(q), gbp(100+rng.IntN(100000))
			g.held[name] += q
		case roll < 92:
			t.Action, t.Quantity = model.CapReturn, qty(h)
			if rng.IntN(2) == 0 {
				t.Total, ev(&t).Value = gbp(1), gbp(10000000) // small: reduces the cost
			} else {
				a := 400000 + rng.IntN(1000000)
				t.Total, ev(&t).Value = gbp(a), gbp(a*(1+rng.IntN(10)))
			}
		default:
			t.Action, t.Quantity, t.Total = model.ERI, qty(h), gbp(1+rng.IntN(5000))
		}
		add(t)
	}
	return g
}

func eventLedgers() []eventLedger {
	var out []eventLedger
	for seed := uint64(1); seed <= 30; seed++ {
		out = append(out, generateEventLedger(seed, 300))
	}
	return out
}

// allDisposals lists every disposal of a report, whatever list it is in.
func allDisposals(rep *Report) []Disposal {
	out := disposals(rep)
	out = append(out, rep.NoGainNoLoss...)
	out = append(out, rep.ExemptDisposals...)
	return append(out, rep.OffshoreIncomeGains...)
}

func TestPropertyEventsConserveQuantity(t *testing.T) {
	for i, g := range eventLedgers() {
		rep, err := Calculate(g.txns, Options{})
		if err != nil {
			t.Fatalf("ledger %d: %v", i, err)
		}
		got := map[string]string{}
		for _, h := range rep.Holdings {
			got[h.Ticker] = h.Quantity.String()
		}
		for name, q := range g.held {
			if want := fmt.Sprint(q); q > 0 && got[name] != want || q == 0 && got[name] != "" {
				t.Errorf("ledger %d: %s holding %q, want %d", i, name, got[name], q)
			}
		}
	}
}

// Takeovers and demergers move cost from one security to another without creating or losing
// any: the cost changes of a line's takeover or demerger events add up to zero, and the new
// security receives exactly the shares the line states.
func TestPropertyReorganisationsConserveCost(t *testing.T) {
	for i, g := range eventLedgers() {
		rep, err := Calculate(g.txns, Options{})
		if err != nil {
			t.Fatalf("ledger %d: %v", i, err)
		}
		sums := map[int]decimal.Decimal{}
		seen := 0
		for _, p := range rep.Pools {
			for _, e := range p.Events {
				if e.Event != EventTakeover && e.Event != EventDemerger {
					continue
				}
				seen++
				sums[e.Source.Line] = sums[e.Source.Line].Add(e.CostChange.Exact())
				line := g.txns[e.Source.Line-1]
				if e.QuantityChange.Sign() > 0 && !e.QuantityChange.Exact().Equal(line.Quantity.Exact()) {
					t.Errorf("ledger %d line %d: %s received %s shares, the line says %s", i, e.Source.Line, p.Ticker, e.QuantityChange, line.Quantity)
				}
			}
		}
		for line, s := range sums {
			if !s.IsZero() {
				t.Errorf("ledger %d line %d: the cost changes add up to %s, not 0", i, line, s)
			}
		}
		if i == 0 && seen == 0 {
			t.Fatal("the generated ledger has no takeover or demerger; change the generator")
		}
	}
}

// Every pound of cost that enters a pool leaves it through a disposal's identified cost, a
// cost-reducing distribution, or stays in a holding.
func TestPropertyCostIsConserved(t *testing.T) {
	tolerance := decimal.New(1, -12)
	for i, g := range eventLedgers() {
		rep, err := Calculate(g.txns, Options{})
		if err != nil {
			t.Fatalf("ledger %d: %v", i, err)
		}
		var in, out decimal.Decimal
		for _, tr := range g.txns {
			switch tr.Action {
			case model.Buy:
				in = in.Add(tr.Quantity.Exact().Mul(tr.Price.Value.Exact())).Add(tr.Fees.Value.Exact())
			case model.Rights:
				in = in.Add(tr.Quantity.Exact().Mul(tr.Price.Value.Exact()))
			case model.Pool, model.SpouseIn:
				in = in.Add(tr.Cost().Value.Exact())
			case model.ERI:
				in = in.Add(tr.Total.Value.Exact())
			}
		}
		for _, p := range rep.Pools {
			for _, e := range p.Events {
				if e.Event == EventCapReturn || e.Event == EventTakeoverCash {
					out = out.Sub(e.CostChange.Exact())
				}
			}
		}
		for _, h := range rep.Holdings {
			out = out.Add(h.Cost.Exact())
		}
		for _, d := range allDisposals(rep) {
			out = out.Add(d.IdentifiedCost.Exact())
		}
		if in.Sub(out).Abs().GreaterThan(tolerance) {
			t.Errorf("ledger %d: cost in £%s, out £%s", i, in, out)
		}
	}
}

func TestPropertySpouseTransfersAreNoGainNoLoss(t *testing.T) {
	n := 0
	for i, g := range eventLedgers() {
		rep, err := Calculate(g.txns, Options{})
		if err != nil {
			t.Fatalf("ledger %d: %v", i, err)
		}
		for _, d := range rep.NoGainNoLoss {
			n++
			if !d.Gain.Exact().IsZero() || !d.Proceeds.Exact().Equal(d.AllowableCost.Exact()) || d.Kind != KindSpouseTransfer {
				t.Errorf("ledger %d: spouse transfer on %s: proceeds %s, cost %s, gain %s", i, d.Date, d.Proceeds.Exact(), d.AllowableCost.Exact(), d.Gain.Exact())
			}
		}
		for _, d := range disposals(rep) {
			if d.Kind == KindSpouseTransfer {
				t.Errorf("ledger %d: a spouse transfer on %s is in the tax years", i, d.Date)
			}
		}
	}
	if n == 0 {
		t.Fatal("no spouse transfer was generated")
	}
}

func TestPropertyEventLedgersIgnoreInputOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i, g := range eventLedgers()[:10] {
		want, wantWarn := reportAndWarnings(t, g.txns)
		for range 4 {
			shuffled := slices.Clone(g.txns)
			rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
			got, gotWarn := reportAndWarnings(t, shuffled)
			if !bytes.Equal(got, want) || !slices.Equal(gotWarn, wantWarn) {
				t.Fatalf("ledger %d: a permutation of the input changed the report", i)
			}
		}
	}
}

func reportAndWarnings(t *testing.T, txns []model.Transaction) ([]byte, []string) {
	t.Helper()
	rep, err := Calculate(txns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return raw, rep.Warnings
}
