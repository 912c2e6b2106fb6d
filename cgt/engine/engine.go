package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cgt-tools/cgt/cgt/eri"
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
	// Today is the day the report is made, when the caller knows it. A disposal whose 30-day
	// window closed before Today gets no "match still pending" warning: the ledger records
	// what happened in it. Zero means unknown, and the ledger's last date stands in for it.
	Today model.Date
	// ERI is the table of published excess reportable income per unit applied, by ISIN, to
	// the holdings of offshore reporting funds (eri.Bundled()); nil leaves bundled figures out.
	// Written ERI lines apply either way, and replace the table's figure for their period.
	ERI *eri.Table
	// Context, when set, stops the calculation between securities once it is done (a server's
	// cancelled call); Calculate then returns its error.
	Context context.Context
	// DeferLaterRates lets rows dated after the last month of rates available wait for their
	// rate instead of failing the calculation: the report leaves out only what they could
	// change and says so in Report.Pending (later.go). Without it such a row is an
	// fx_rate_unavailable error.
	DeferLaterRates bool
}

// parallelMin is the ledger size below which one goroutine is faster than several.
const parallelMin = 20000

// Calculate applies the share identification rules to the transactions and returns the
// report. The order of the transactions does not matter. Errors are *model.Error values with
// a code (validation_error, fx_rate_unavailable, invalid_argument) and the ledger position.
func Calculate(txns []model.Transaction, opts Options) (*Report, error) {
	if !opts.DeferLaterRates {
		return calculate(txns, opts, nil)
	}
	found := &laterRows{}
	rep, err := calculate(txns, opts, found)
	if err != nil || found.empty() {
		return rep, err
	}
	return deferLater(txns, opts, rep, found)
}

// calculate is Calculate's one pass. With later set, a row on a month after the rates
// available is recorded there and converted at a stand-in rate (deferLater reports none of
// that pass's figures); without it, it is an error.
func calculate(txns []model.Transaction, opts Options, later *laterRows) (*Report, error) {
	if opts.LossesBroughtForward.Sign() < 0 {
		return nil, &model.Error{Code: model.CodeInvalidArgument,
			Message: "losses brought forward of " + opts.LossesBroughtForward.String() + " are negative",
			Hint:    "give brought-forward losses as a positive amount of GBP", Examples: []string{"1250.00"},
			Value: opts.LossesBroughtForward.String()}
	}
	led, place, special, err := groupByTicker(txns, nil)
	if err != nil {
		return nil, err
	}
	var ident *identity
	if special { // declarations, accounts or ISINs: read them, then group again by security
		ident = resolveIdentity(txns)
		if led, place, _, err = groupByTicker(txns, ident); err != nil {
			return nil, err
		}
	}
	c := &calc{txns: txns, led: led, place: place, ident: ident, ctx: opts.Context, eri: opts.ERI}
	if ident != nil {
		if c.isins, err = isinsOf(txns, ident); err != nil {
			return nil, err
		}
	}
	if err := c.runTickers(opts.Rates, later); err != nil {
		if c.ctx != nil && c.ctx.Err() != nil {
			return nil, c.ctx.Err()
		}
		return nil, c.withSuggestions(err)
	}
	return c.assemble(opts), nil
}

// calc is one calculation's shared, read-only state, and the per-ticker results, each
// written by its own worker.
type calc struct {
	txns    []model.Transaction
	led     *ledger
	place   placement
	ident   *identity
	results []tickerResult
	ctx     context.Context   // nil: never cancelled
	eri     *eri.Table        // bundled ERI figures; nil when off
	isins   map[string]string // security name → ISIN, when the ledger gives any
}

// runTickers works through each ticker's ledger, in parallel when the ledger is large.
// Tickers are independent, and each result lands in its ticker's slot, so the outcome does
// not depend on scheduling. When shares pass from one ticker to another (a takeover, a
// demerger), the giving ticker is worked through in an earlier stage than the receiving one.
// The first error in ticker order (within the first stage that has one) is returned.
func (c *calc) runTickers(rates fx.Source, later *laterRows) error {
	c.results = make([]tickerResult, len(c.led.tickers))
	stages := c.led.stages
	if stages == nil {
		stages = [][]int32{nil} // one stage: every ticker
	}
	workers := runtime.GOMAXPROCS(0)
	if len(c.txns) < parallelMin || workers < 2 {
		workers = 1
	}
	for _, stage := range stages {
		n := len(stage)
		if stage == nil {
			n = len(c.results)
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < min(workers, max(n, 1)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conv := &converter{rates: rates, later: later}
				var sc scratch
				for {
					k := int(next.Add(1) - 1)
					if k >= n {
						return
					}
					i := k
					if stage != nil {
						i = int(stage[k])
					}
					if c.ctx != nil && c.ctx.Err() != nil {
						c.results[i].err = c.ctx.Err()
						next.Store(int64(n))
						return
					}
					c.results[i] = c.runTicker(i, conv, &sc)
				}
			}()
		}
		wg.Wait()
		for k := 0; k < n; k++ {
			i := k
			if stage != nil {
				i = int(stage[k])
			}
			if err := c.results[i].err; err != nil {
				return err
			}
		}
	}
	return nil
}

// notes are the report's warnings about the ledger as a whole and its made-up names.
type notes struct {
	guards, aliases []string
	names           map[string]string
}

// notes works out the notes from the results.
func (c *calc) notes(today model.Date, transfers []Disposal) notes {
	return notes{guards: c.guardWarnings(today, transfers), aliases: c.aliasWarnings(), names: c.madeUpNames()}
}

// assemble builds the report from the per-ticker results.
func (c *calc) assemble(opts Options) *Report {
	led, results := c.led, c.results
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
		rep.ExcessIncome = append(rep.ExcessIncome, r.eri...)
	}
	sortExcessIncome(rep.ExcessIncome)
	if s := eriSummary(rep.ExcessIncome); s != "" {
		rep.Warnings = append(rep.Warnings, s)
	}
	rep.Warnings = append(rep.Warnings, c.eriHints()...)
	disposals := c.route(rep)
	n := c.yearsAndNotes(opts, rep, disposals)
	rep.Warnings = append(rep.Warnings, n.guards...)
	rep.Warnings = append(rep.Warnings, n.aliases...)
	rep.SecurityNames = n.names
	for i := range rep.TaxYears {
		y := taxyear.For(rep.TaxYears[i].StartDate)
		var in *tax.Income
		if opts.Income != nil {
			in = opts.Income(y)
		}
		ApplyTax(&rep.TaxYears[i], in)
		if y.Projected() {
			rep.Warnings = append(rep.Warnings, ProjectedWarning(y))
		}
	}
	return rep
}

// holding describes a pool.
func holding(ticker string, qty, cost decimal.Decimal) Holding {
	return Holding{Ticker: ticker, Quantity: model.NewDecimal(qty), Cost: model.NewMoney(cost),
		AverageCost: model.NewDecimal(cost.DivRound(qty, avgPlaces))}
}

// ProjectedWarning says that a tax year's figures (annual exempt amount, rates, basic rate
// band) are a later year's assumed unchanged: every result that uses them carries it.
func ProjectedWarning(y taxyear.Year) string {
	last := taxyear.Year{Start: taxyear.LastKnown}.Period()
	return fmt.Sprintf("%s is later than %s, the last tax year whose figures this version was checked against: its annual exempt amount, "+
		"rates and basic rate band are %s's, assumed unchanged, and every figure worked from them (taxable gain, tax payable, SA108) "+
		"rests on that assumption. Check GOV.UK for changes.", y.Period(), last, last)
}
