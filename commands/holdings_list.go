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
	RatesArgs
}

// HoldingsListResult is the Section 104 pools at a date.
type HoldingsListResult struct {
	AsOf     string           `json:"as_of" jsonschema_description:"The day the holdings are at the end of (YYYY-MM-DD), or \"end of ledger\"."`
	Holdings []engine.Holding `json:"holdings" record:"rows=holding" jsonschema_description:"Section 104 pools with shares, by ticker: quantity, cost and average cost per share."`
}

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
		AvoidWhen: []string{"You need gains: report.calculate."},
		NextSteps: []string{"report.calculate", "transactions.parse"},
	},
}, holdingsList)

func holdingsList(_ context.Context, deps *registry.Deps, a HoldingsListArgs) (HoldingsListResult, []string, error) {
	rep, warnings, err := calculate(deps, a.LedgerArgs, a.RatesArgs, engine.Options{})
	if err != nil {
		return HoldingsListResult{}, warnings, err
	}
	if a.Date == "" {
		return HoldingsListResult{AsOf: "end of ledger", Holdings: nonNilHoldings(rep.Holdings)}, warnings, nil
	}
	d, err := model.ParseDate(a.Date)
	if err != nil {
		return HoldingsListResult{}, warnings, envelope.New(envelope.InvalidArgument, "date: "+err.Error(), "Give the date as YYYY-MM-DD.", "date=2024-04-05").With("value", a.Date)
	}
	return HoldingsListResult{AsOf: d.String(), Holdings: nonNilHoldings(rep.HoldingsAt(d))}, warnings, nil
}

func nonNilHoldings(h []engine.Holding) []engine.Holding {
	if h == nil {
		return []engine.Holding{}
	}
	return h
}
