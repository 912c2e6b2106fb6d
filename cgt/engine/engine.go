package engine

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// Options are the inputs of a calculation besides the transactions.
type Options struct {
	// Rates converts non-GBP amounts (HMRC monthly rates). It may be nil when every amount is
	// in GBP. It must be safe for concurrent use: large ledgers are worked on in parallel.
	Rates fx.Source
	// LossesBroughtForward is the allowable losses (GBP) carried into the first tax year of
	// the ledger from earlier years. It must not be negative.
	LossesBroughtForward decimal.Decimal
	// Income gives the taxpayer's income for a tax year, for the tax payable on its gains; nil,
	// or a nil answer, leaves the year's tax null.
	Income IncomeFunc
}

// parallelMin is the ledger size below which one goroutine is faster than several.
const parallelMin = 20000

// Calculate applies the share identification rules to the transactions and returns the
// report. The order of the transactions does not matter. Errors are *model.Error values with
// a code (validation_error, fx_rate_unavailable, invalid_argument) and the ledger position.
func Calculate(txns []model.Transaction, opts Options) (*Report, error) {
	if opts.LossesBroughtForward.Sign() < 0 {
		return nil, &model.Error{Code: model.CodeInvalidArgument,
			Message: "losses brought forward of " + opts.LossesBroughtForward.String() + " are negative",
			Hint:    "give brought-forward losses as a positive amount of GBP", Examples: []string{"1250.00"},
			Value: opts.LossesBroughtForward.String()}
	}
	led, place, err := groupByTicker(txns)
	if err != nil {
		return nil, err
	}
	results := runTickers(txns, led, place, opts.Rates)
	for i := range results {
		if results[i].err != nil {
			return nil, results[i].err
		}
	}
	return assemble(led, results, place.all, opts), nil
}

// runTickers works through each ticker's ledger, in parallel when the ledger is large.
// Tickers are independent, and each result lands in its ticker's slot, so the outcome does
// not depend on scheduling.
func runTickers(txns []model.Transaction, led *ledger, place placement, rates fx.Source) []tickerResult {
	results := make([]tickerResult, len(led.tickers))
	workers := runtime.GOMAXPROCS(0)
	if len(txns) < parallelMin || workers < 2 {
		workers = 1
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conv := &converter{rates: rates}
			var sc scratch
			for {
				i := int(next.Add(1) - 1)
				if i >= len(results) {
					return
				}
				results[i] = runTicker(led.tickers[i], txns, led.txns[i], conv, &sc, place.all, place.slots[i])
			}
		}()
	}
	wg.Wait()
	return results
}

// assemble builds the report from the per-ticker results.
func assemble(led *ledger, results []tickerResult, disposals []Disposal, opts Options) *Report {
	rep := &Report{
		Pools:                make([]PoolHistory, 0, len(results)),
		Holdings:             []Holding{},
		LossesBroughtForward: model.NewMoney(opts.LossesBroughtForward),
	}
	for i := range results {
		r := &results[i]
		if len(r.history.Events) > 0 {
			rep.Pools = append(rep.Pools, r.history)
		}
		if r.pool.qty.sign() > 0 {
			rep.Holdings = append(rep.Holdings, holding(led.tickers[i], r.pool.qty.decimal(), r.pool.cost.decimal()))
		}
	}
	rep.TaxYears, rep.LossesCarriedForward = taxYears(results, disposals, opts.LossesBroughtForward)
	for i := range rep.TaxYears {
		var in *tax.Income
		if opts.Income != nil {
			in = opts.Income(taxyear.For(rep.TaxYears[i].StartDate))
		}
		ApplyTax(&rep.TaxYears[i], in)
	}
	return rep
}

// holding describes a pool.
func holding(ticker string, qty, cost decimal.Decimal) Holding {
	return Holding{Ticker: ticker, Quantity: model.NewDecimal(qty), Cost: model.NewMoney(cost),
		AverageCost: model.NewDecimal(cost.DivRound(qty, avgPlaces))}
}
