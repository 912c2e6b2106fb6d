package commands

import (
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/cgt/sources"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// The planning commands (plan.sale, plan.allowance, plan.harvest) are adapters: they read the
// arguments and the ledger, and cgt/plan works out the plan through the engine.

// PlanArgs are the arguments the three planning commands share.
type PlanArgs struct {
	LedgerArgs
	Date                 string `json:"date,omitempty" jsonschema:"format=date" jsonschema_description:"Sale date (default today)."`
	LossesBroughtForward string `json:"losses_brought_forward,omitempty" jsonschema:"pattern=^[0-9]+(\\.[0-9]+)?$" jsonschema_description:"Losses from before the ledger (GBP)." cgt:"alias=losses"`
	RatesArgs
	FundArgs
}

// planner is a plan.Planner with what the command read besides: the rates, today, the
// ledger's name and the warnings of reading it.
type planner struct {
	*plan.Planner
	rates   *fx.Latest
	today   model.Date
	ledger  string
	warning []string
}

// newPlanner reads the ledger, works out the plan's date (the date argument, or today) and
// runs the engine once on the ledger as it is.
func newPlanner(deps *registry.Deps, a PlanArgs) (*planner, error) {
	p := &planner{ledger: a.ledgerName()}
	p.today = registry.LocalToday()
	if deps.Today != nil {
		p.today = deps.Today()
	}
	date := p.today
	if a.Date != "" {
		d, err := model.ParseDate(a.Date)
		if err != nil {
			return nil, envelope.New(envelope.InvalidArgument, "date: "+err.Error(), "Give the date as YYYY-MM-DD.", `{"date":"2027-03-20"}`).With("value", a.Date).With("argument", "date")
		}
		date = d
	}
	lbf, err := parseLosses(a.LossesBroughtForward)
	if err != nil {
		return nil, err
	}
	txns, warnings, err := readLedger(deps, a.ledger())
	p.warning = warnings
	if err != nil {
		return nil, err
	}
	src, more, err := a.RatesArgs.source(deps)
	p.warning = append(p.warning, more...)
	if err != nil {
		return nil, err
	}
	p.rates = fx.NewLatest(src, nil)
	funds, err := a.FundArgs.table()
	if err != nil {
		return nil, err
	}
	opts := engine.Options{Rates: p.rates, LossesBroughtForward: lbf, Today: p.today, Context: deps.Context, ERI: funds}
	if p.Planner, err = plan.New(txns, opts, date); err != nil {
		return nil, withRatesRemedy(err, src)
	}
	return p, nil
}

// remedy adds the rates argument to a plan's missing-rate error.
func (p *planner) remedy(err error) error {
	return withRatesRemedy(err, p.rates.Base())
}

// warnings are the ledger's warnings, those about the planned lines left out (the plan's own
// notes say what matters), and the rates substituted for months past the bundled table.
func (p *planner) warnings(extra ...string) []string {
	out := append(append([]string{}, p.warning...), p.Warnings()...)
	out = append(out, plan.Rematches(p.Base, sources.ExtraFile)...)
	out = append(out, p.rates.Notes()...)
	if p.Year.Projected() {
		out = append(out, p.Year.Notes()...)
	}
	return append(out, extra...)
}

// incomeFor is the taxable income argument read as one amount for the plan's year.
func incomeFor(ya *YearAmounts, y taxyear.Year) (*tax.Income, error) {
	in, err := readIncome(ya, nil)
	if err != nil {
		return nil, err
	}
	return in.forYear(y), nil
}
