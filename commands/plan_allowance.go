package commands

import (
	"context"
	"io"

	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/registry"
	"github.com/cgt-tools/cgt/reportview"
)

// PlanAllowanceArgs are the arguments of plan.allowance.
type PlanAllowanceArgs struct {
	Year   any `json:"year,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Tax year." cgt:"alias=tax_year"`
	Prices any `json:"prices,omitempty" jsonschema:"oneof_type=string;array;object" jsonschema_description:"Prices, e.g. \"AAPL=190.50 USD,VWRL=98.2\"."`
	// TaxableIncome gives the year's tax so far.
	TaxableIncome *YearAmounts `json:"taxable_income,omitempty" jsonschema_description:"Income after allowances (GBP)." cgt:"alias=income"`
	PlanArgs
}

// PlanAllowanceResult is how much of a tax year's annual exempt amount is used and left
// (cgt/plan).
type PlanAllowanceResult struct {
	_ struct{} `record:"kind=plan_allowance"`
	plan.AllowanceResult
}

// WriteText is the allowance for people.
func (r PlanAllowanceResult) WriteText(w io.Writer, warnings []string) error {
	return reportview.PlanAllowance(w, r.AllowanceResult, warnings)
}

// PlanAllowance reports the annual exempt amount left.
var PlanAllowance = registry.NewCommand(registry.Meta{
	Name:        "plan.allowance",
	MCPName:     "plan_allowance",
	Summary:     "The annual exempt amount left this tax year, unrealised gains at given prices, open 30-day windows",
	Description: "The tax year's net gain so far, the annual exempt amount left and losses available; with prices, each holding's unrealised gain.",
	Usage:       "cgt plan.allowance FILE... [date=YYYY-MM-DD] [year=2026] [prices=\"TICKER=PRICE [CCY],...\"]",
	Examples: []registry.Example{
		{Description: "The allowance left on 20 March 2027, with unrealised gains", Args: []string{"examples/planning.cgt", "date=2027-03-20", "prices=VWRL=98.20,AAPL=230 USD,VOD.L=0.72,LGEN=2.55"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None.",
	CitationFields: []string{"exempt_left", "net_gain", "holdings[].unrealised_gain"},
	KeyFields:      []string{"exempt_left", "taxable_gain", "tax", "unrealised_gain", "net_gain"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks how much they can sell tax-free this year."},
		AvoidWhen: []string{},
		NextSteps: []string{"plan.harvest", "plan.sale"},
	},
}, planAllowance)

func planAllowance(_ context.Context, deps *registry.Deps, a PlanAllowanceArgs) (PlanAllowanceResult, []string, error) {
	prices, order, err := plan.ParsePrices(a.Prices)
	if err != nil {
		return PlanAllowanceResult{}, nil, err
	}
	p, err := newPlanner(deps, a.PlanArgs)
	if err != nil {
		return PlanAllowanceResult{}, nil, err
	}
	if err := p.yearArg(a.Year, a.Date != ""); err != nil {
		return PlanAllowanceResult{}, p.warnings(), err
	}
	if p.Income, err = incomeFor(a.TaxableIncome, p.Year); err != nil {
		return PlanAllowanceResult{}, p.warnings(), err
	}
	notes, err := p.CheckPrices(order, prices)
	if err != nil {
		return PlanAllowanceResult{}, p.warnings(), err
	}
	res, more, err := p.Allowance(prices, order, a.TaxableIncome != nil, p.ledger)
	if err != nil {
		return PlanAllowanceResult{}, p.warnings(), err
	}
	return PlanAllowanceResult{AllowanceResult: res}, p.warnings(append(notes, more...)...), nil
}

// yearArg makes the plan about the year asked for; a year given without a date puts the
// plan's date in that year (today when today is in it, else its last day).
func (p *planner) yearArg(v any, dateGiven bool) error {
	if v == nil || v == "" {
		return nil
	}
	y, _, err := parseYear(v)
	if err != nil {
		return err
	}
	if !dateGiven && !y.Contains(p.Date) {
		p.Date = y.EndDate()
		if y.Contains(p.today) {
			p.Date = p.today
		}
	}
	p.SetYear(y)
	return nil
}
