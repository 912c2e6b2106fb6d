package engine

import (
	"math/rand/v2"
	"strconv"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// genOptions shapes a generated ledger.
type genOptions struct {
	n       int  // transactions
	tickers int  // distinct tickers
	events  bool // include splits, consolidations, capital returns, accumulations, dividends
	seed    uint64
}

// generateLedger builds a valid GBP ledger: every disposal is covered by shares held, dates
// advance a few days at a time from 2010, and same-day trades and 30-day repurchases occur
// often enough to exercise every rule.
func generateLedger(o genOptions) []model.Transaction {
	rng := rand.New(rand.NewPCG(o.seed, 99))
	names := make([]string, o.tickers)
	for i := range names {
		names[i] = "T" + strconv.Itoa(i)
	}
	held := make([]int64, o.tickers)
	dates := make([]model.Date, o.tickers)
	for i := range dates {
		dates[i] = model.NewDate(2010, 1, 4)
	}
	out := make([]model.Transaction, 0, o.n)
	for i := 0; i < o.n; i++ {
		k := rng.IntN(o.tickers)
		if rng.IntN(4) != 0 { // a quarter of lines fall on the previous line's date
			dates[k] = dates[k].AddDays(rng.IntN(6))
		}
		t := model.Transaction{Ticker: names[k], Source: model.Source{File: "gen.cgt", Line: i + 1, Index: -1}}
		fillGenerated(&t, rng, &held[k], o.events)
		if t.Action == model.Split || t.Action == model.Accumulation || t.Action == model.CapReturn {
			// the engine applies these before the day's trades, so they start a new date
			dates[k] = dates[k].AddDays(1)
		}
		t.Date = dates[k]
		out = append(out, t)
	}
	return out
}

// fillGenerated picks the action and amounts of one generated line.
func fillGenerated(t *model.Transaction, rng *rand.Rand, held *int64, events bool) {
	gbp := func(cents int) model.Amount {
		return model.Amount{Value: model.NewDecimal(decimal.New(int64(cents), -2)), Currency: model.GBP}
	}
	roll := rng.IntN(100)
	switch {
	case events && roll < 3 && *held > 0:
		t.Action, ev(t).Ratio = model.Split, model.NewDecimal(decimal.NewFromInt(2))
		*held *= 2
	case events && roll < 6 && *held > 0:
		t.Action, t.Quantity, t.Total = model.Accumulation, model.NewDecimal(decimal.NewFromInt(*held)), gbp(100+rng.IntN(5000))
	case events && roll < 7 && *held > 0:
		t.Action, t.Quantity, t.Total = model.CapReturn, model.NewDecimal(decimal.NewFromInt(*held)), gbp(1+rng.IntN(10))
	case events && roll < 9:
		t.Action, t.Total, ev(t).Tax = model.Dividend, gbp(100+rng.IntN(5000)), gbp(rng.IntN(100))
	case roll < 62 || *held == 0:
		q := int64(1 + rng.IntN(200))
		t.Action, t.Quantity = model.Buy, model.NewDecimal(decimal.NewFromInt(q))
		t.Price, t.Fees = gbp(100+rng.IntN(20000)), gbp(rng.IntN(1500))
		*held += q
	default:
		q := 1 + rng.Int64N(*held)
		t.Action, t.Quantity = model.Sell, model.NewDecimal(decimal.NewFromInt(q))
		t.Price, t.Fees = gbp(100+rng.IntN(20000)), gbp(rng.IntN(1500))
		*held -= q
	}
}
