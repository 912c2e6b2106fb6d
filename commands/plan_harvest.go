package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
	"github.com/cgt-tools/cgt/reportview"
)

// PlanHarvestArgs are the arguments of plan.harvest.
type PlanHarvestArgs struct {
	Prices     any `json:"prices" jsonschema:"required,oneof_type=string;array;object" jsonschema_description:"Prices, e.g. \"AAPL=190.50 USD,VWRL=98.2\"."`
	TargetGain any `json:"target_gain,omitempty" jsonschema:"oneof_type=number;string" jsonschema_description:"Net gain to aim for (default the exempt amount; negative: losses)."`
	Year       any `json:"year,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Tax year." cgt:"alias=tax_year"`
	Margin     any `json:"margin,omitempty" jsonschema:"oneof_type=number;string" jsonschema_description:"Pounds to leave unused (default 0)."`
	Fees       any `json:"fees,omitempty" jsonschema:"oneof_type=string;number;object" jsonschema_description:"Dealing costs per sale."`
	Only       any `json:"only,omitempty" jsonschema:"oneof_type=string;array" jsonschema_description:"Holdings to use, e.g. \"VWRL,LGEN\"."`
	Exclude    any `json:"exclude,omitempty" jsonschema:"oneof_type=string;array" jsonschema_description:"Holdings not to use."`
	// TaxableIncome gives the tax at the result.
	TaxableIncome *YearAmounts `json:"taxable_income,omitempty" jsonschema_description:"Income after allowances (GBP)." cgt:"alias=income"`
	PlanArgs
}

// PlanHarvestResult is one combined set of sales that brings the year's net gain as close to
// the target as whole shares allow without passing it (cgt/plan).
type PlanHarvestResult struct {
	_ struct{} `record:"kind=plan_harvest"`
	plan.HarvestResult
}

// WriteText is the plan for people.
func (r PlanHarvestResult) WriteText(w io.Writer, warnings []string) error {
	return reportview.PlanHarvest(w, r.HarvestResult, warnings)
}

// PlanHarvest suggests the sales that use the annual exempt amount (or reach another target).
var PlanHarvest = registry.NewCommand(registry.Meta{
	Name:        "plan.harvest",
	MCPName:     "plan_harvest",
	Summary:     "Which holdings to sell, and how many, to realise gains up to the exempt amount or a target",
	Description: "Given prices, finds the sales that bring the year's net gain as close to the target as whole shares allow without passing it, each worked out by the full calculation.",
	Usage:       "cgt plan.harvest FILE... prices=\"TICKER=PRICE [CCY],...\" [target_gain=AMOUNT] [margin=AMOUNT] [fees=AMOUNT] [only=T,..] [exclude=T,..] [taxable_income=AMOUNT] [date=YYYY-MM-DD]",
	Examples: []registry.Example{
		{Description: "Use the rest of the 2026/27 exempt amount on 20 March 2027", Args: []string{"examples/planning.cgt", "date=2027-03-20", "prices=VWRL=98.20,AAPL=230 USD,VOD.L=0.72,LGEN=2.55"}},
		{Description: "Realise £1,000 of losses instead", Args: []string{"examples/planning.cgt", "date=2027-03-20", "prices=VWRL=98.20,AAPL=230 USD,VOD.L=0.72,LGEN=2.55", "target_gain=-1000"}},
		{Description: "Leave £100 unused, £5.95 dealing costs a sale, funds only", Args: []string{"examples/planning.cgt", "date=2027-03-20", "prices=VWRL=98.20,LGEN=2.55", "margin=100", "fees=5.95", "only=VWRL,LGEN"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None.",
	CitationFields: []string{"sales[].quantity", "sales[].gain", "after.exempt_left", "first_safe_rebuy"},
	KeyFields:      []string{"realised_gain", "tax_cost", "quantity", "after.taxable_gain", "after.exempt_left", "first_safe_rebuy"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user wants to use this year's allowance or harvest losses."},
		AvoidWhen: []string{},
		NextSteps: []string{"plan.sale", "plan.allowance"},
	},
}, planHarvest)

// harvestOptions reads the target (default: the exempt amount), margin, fees, only, exclude
// and income, and marks the currencies whose rate for the plan's month is not published.
func (p *planner) harvestOptions(a PlanHarvestArgs, prices map[string]plan.Price) (plan.HarvestOptions, bool, error) {
	o := plan.HarvestOptions{Prices: prices, Target: p.BaseTY.AnnualExemptAmount.Exact()}
	var err error
	if p.Income, err = incomeFor(a.TaxableIncome, p.Year); err != nil {
		return o, false, err
	}
	given := a.TargetGain != nil && a.TargetGain != ""
	if given {
		if o.Target, err = plan.Pounds("target_gain", a.TargetGain, true, "target_gain=-1000"); err != nil {
			return o, false, err
		}
	}
	if a.Margin != nil && a.Margin != "" {
		if o.Margin, err = plan.Pounds("margin", a.Margin, false, "margin=100"); err != nil {
			return o, false, err
		}
	}
	if a.Fees != nil && a.Fees != "" {
		f, err := plan.ParsePrice("fees", a.Fees)
		if err != nil {
			return o, false, err
		}
		o.Fees = &f
	}
	if o.Only, err = plan.Tickers("only", a.Only); err != nil {
		return o, false, err
	}
	if o.Exclude, err = plan.Tickers("exclude", a.Exclude); err != nil {
		return o, false, err
	}
	o.Provisional = func(ccy string) bool {
		_, err := p.rates.Base().Rate(ccy, p.Date.Year(), p.Date.Month())
		return ccy != model.GBP && err != nil
	}
	return o, !given, nil
}

func planHarvest(_ context.Context, deps *registry.Deps, a PlanHarvestArgs) (PlanHarvestResult, []string, error) {
	prices, order, err := plan.ParsePrices(a.Prices)
	if err != nil {
		return PlanHarvestResult{}, nil, err
	}
	if len(prices) == 0 {
		return PlanHarvestResult{}, nil, envelope.New(envelope.UsageError, "plan.harvest needs prices: the price of each holding to consider",
			"Give prices as TICKER=PRICE [CURRENCY], several separated by commas; cgt fetches no prices.", `prices="AAPL=190.50 USD,VWRL=98.2"`).With("argument", "prices")
	}
	p, err := newPlanner(deps, a.PlanArgs)
	if err != nil {
		return PlanHarvestResult{}, nil, err
	}
	if err := p.yearArg(a.Year, a.Date != ""); err != nil {
		return PlanHarvestResult{}, p.warnings(), err
	}
	if !p.Year.Contains(p.Date) {
		return PlanHarvestResult{}, p.warnings(), envelope.New(envelope.InvalidArgument,
			fmt.Sprintf("date %s is not in tax year %s", p.Date, p.Year.Period()), "Give a date in the year, or leave one of them out.",
			"date=2027-03-20").With("argument", "date")
	}
	priceNotes, err := p.CheckPrices(order, prices)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), err
	}
	o, defaultTarget, err := p.harvestOptions(a, prices)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), err
	}
	res, notes, err := p.HarvestPlan(o, plan.HarvestAsked{Order: order, DefaultTarget: defaultTarget, TaxGiven: a.TaxableIncome != nil, Ledger: p.ledger})
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), p.remedy(err)
	}
	return PlanHarvestResult{HarvestResult: res}, p.warnings(append(priceNotes, notes...)...), nil
}
