//go:build !js

package commands

import (
	"context"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// HoldingsListArgs are the arguments of holdings.list.
type HoldingsListArgs struct {
	LedgerArgs
	Date string `json:"date,omitempty" jsonschema:"format=date" jsonschema_description:"Show the pools at the end of this day, YYYY-MM-DD. Omit for after the last transaction." cgt:"alias=as_of"`
	TickerArg
	RatesArgs
	FundArgs
}

// HoldingsListResult is the Section 104 pools at a date.
type HoldingsListResult struct {
	_        struct{}         `record:"kind=holdings"`
	AsOf     string           `json:"as_of" record:"timestamp" jsonschema_description:"The day the holdings are at the end of (YYYY-MM-DD): the date asked for, or else the ledger's last transaction date."`
	Holdings []engine.Holding `json:"holdings" record:"rows=holding" jsonschema_description:"Section 104 pools with shares, by ticker: quantity, cost and average cost per share."`

	ledger string
}

// RecordEntity names the result's own record, which carries the as-of date: the ledger.
func (r HoldingsListResult) RecordEntity() string { return r.ledger }

// HoldingsList lists the Section 104 pools.
var HoldingsList = registry.NewCommand(registry.Meta{
	Name:        "holdings.list",
	MCPName:     "list_holdings",
	Summary:     "Section 104 pools (quantity, cost, average) at a date",
	Description: "Lists the Section 104 pool of every ticker still held — quantity, allowable cost in GBP and average cost per share — at the end of a given day, or after the last transaction. Shares matched under the same-day or 30-day rules never enter a pool, so the pool can differ from a broker's average price. Use it to reconcile with a broker statement.",
	Usage:       "cgt holdings.list FILE... [date=YYYY-MM-DD] [--rates FILE|DIR]...",
	Examples: []registry.Example{
		{Description: "Pools after the last transaction of the bundled ledger", Args: []string{"examples/portfolio.cgt"}},
		{Description: "Pools at the end of the 2023/24 tax year", Args: []string{"examples/portfolio.cgt", "date=2024-04-05"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None.",
	CitationFields: []string{"as_of", "holdings[].ticker"},
	Agent: registry.Agent{
		UseWhen:   []string{"Reconciling share counts and costs with a broker statement, or answering what is held and at what cost."},
		AvoidWhen: []string{"You need gains: report.calculate.", "You need a pool's history: report.calculate ticker=TICKER detail=full (its pool_event rows)."},
		NextSteps: []string{"report.calculate", "transactions.parse"},
	},
}, holdingsList)

func holdingsList(_ context.Context, deps *registry.Deps, a HoldingsListArgs) (HoldingsListResult, []string, error) {
	f, err := a.TickerArg.filter()
	if err != nil {
		return HoldingsListResult{}, nil, err
	}
	funds, err := a.FundArgs.table()
	if err != nil {
		return HoldingsListResult{}, nil, err
	}
	rep, txns, warnings, err := calculateLedger(deps, a.LedgerArgs, a.RatesArgs, engine.Options{ERI: funds})
	if err != nil {
		return HoldingsListResult{}, warnings, err
	}
	if err := f.Check(txns); err != nil {
		return HoldingsListResult{}, warnings, err
	}
	if err := rep.Pending.HoldingsError(a.Date, a.ledgerName()); err != nil {
		return HoldingsListResult{}, warnings, err
	}
	warnings = append(warnings, rep.Pending.Warnings()...)
	var res HoldingsListResult
	if a.Date == "" {
		res = HoldingsListResult{AsOf: lastDate(txns), Holdings: rep.Holdings}
	} else {
		d, err := model.ParseDate(a.Date)
		if err != nil {
			return HoldingsListResult{}, warnings, envelope.New(envelope.InvalidArgument, "date: "+err.Error(), "Give the date as YYYY-MM-DD.", `{"date":"2024-04-05"}`).With("value", a.Date)
		}
		res = HoldingsListResult{AsOf: d.String(), Holdings: rep.HoldingsAt(d)}
	}
	kept := []engine.Holding{}
	for _, h := range res.Holdings {
		if f.Ticker(h.Ticker) {
			kept = append(kept, h)
		}
	}
	res.Holdings, res.ledger = kept, a.ledgerName()
	if len(kept) == 0 && f.Active() {
		warnings = append(warnings, "none of the tickers asked for is held at "+res.AsOf)
	} else if len(kept) == 0 {
		warnings = append(warnings, "nothing is held at "+res.AsOf)
	}
	return res, warnings, nil
}

// lastDate is the date of the ledger's last transaction, or "" for an empty ledger.
func lastDate(txns []model.Transaction) string {
	var last model.Date
	for _, t := range txns {
		if t.Date > last {
			last = t.Date
		}
	}
	if last == 0 {
		return ""
	}
	return last.String()
}
