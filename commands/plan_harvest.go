package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
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
// the target as whole shares allow without passing it.
type PlanHarvestResult struct {
	_          struct{}    `record:"kind=plan_harvest"`
	Projection bool        `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note       string      `json:"note" jsonschema_description:"What a projection is."`
	TaxYear    string      `json:"tax_year" record:"period" jsonschema_description:"Tax year of the sales."`
	Date       model.Date  `json:"date" record:"timestamp" jsonschema_description:"Day of the planned sales."`
	Target     model.Money `json:"target" jsonschema_description:"The year's net gain aimed at (GBP)."`
	Margin     model.Money `json:"margin" jsonschema_description:"Pounds left unused short of the target (GBP)."`
	Realised   model.Money `json:"realised_gain" jsonschema_description:"Net gain the sales realise together (negative: loss) (GBP)."`
	PlanTotals
	Bounded   bool          `json:"search_bounded" jsonschema_description:"The search stopped at its time bound: the sales are the closest found, maybe not the closest."`
	Direction string        `json:"direction" jsonschema_description:"gains (selling at a gain up to the target), losses (selling at a loss down to it) or none."`
	Before    YearFigures   `json:"before" jsonschema_description:"The year's figures without the sales."`
	After     YearFigures   `json:"after" jsonschema_description:"The year's figures with every sale suggested."`
	Lines     string        `json:"lines" jsonschema_description:"The sales as ledger lines (pass as extra to check them)."`
	SafeRebuy model.Date    `json:"first_safe_rebuy" jsonschema_description:"First day a purchase of a security sold is not matched with the sale (the 31st day)."`
	Defeats   string        `json:"defeats" jsonschema_description:"What would undo the plan."`
	Sales     []HarvestSale `json:"sales" record:"rows=sale" jsonschema_description:"The sales, each with its gain by the engine."`

	ledger string
}

// HarvestSale is one suggested sale.
type HarvestSale struct {
	Ticker       string        `json:"ticker" record:"entity" jsonschema_description:"Security to sell."`
	Quantity     model.Decimal `json:"quantity" jsonschema_description:"Shares to sell."`
	Held         model.Decimal `json:"held" jsonschema_description:"Shares held on the date."`
	Price        string        `json:"price" jsonschema_description:"Price given."`
	Gain         model.Money   `json:"gain" jsonschema_description:"Change in the year's net gain when this sale alone is appended (GBP)."`
	WholeHolding bool          `json:"whole_holding" jsonschema_description:"The whole holding is sold."`
	OneMore      *bool         `json:"one_more_exceeds,omitempty" jsonschema_description:"Checked: one more share would pass the target."`
	Line         string        `json:"line" jsonschema_description:"The sale as a ledger line."`

	price price
}

// RecordEntity names records that have no ticker of their own.
func (r PlanHarvestResult) RecordEntity() string { return r.ledger }

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
	Agent: registry.Agent{
		UseWhen:   []string{"The user wants to use this year's allowance or harvest losses."},
		AvoidWhen: []string{},
		NextSteps: []string{"plan.sale", "plan.allowance"},
	},
}, planHarvest)

// harvestUnit is the smallest quantity planned for a holding.
func harvestUnit(q decimal.Decimal) decimal.Decimal { return plan.Unit(q) }

// harvestOptions reads the target (default: the exempt amount), margin, fees, only, exclude
// and income, and marks the currencies whose rate for the plan's month is not published.
func (p *planner) harvestOptions(a PlanHarvestArgs, prices map[string]price) (plan.HarvestOptions, bool, error) {
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
		f, err := parsePrice("fees", a.Fees)
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
	prices, order, err := parsePrices(a.Prices)
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
	priceNotes, err := p.checkPrices(order, prices)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), err
	}
	o, defaultTarget, err := p.harvestOptions(a, prices)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), err
	}
	h, err := p.Harvest(o)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), p.remedy(err)
	}
	target := o.Target
	var sales []plan.Sale
	for _, c := range h.Sales {
		sales = append(sales, c.Sale)
	}
	r, err := p.Apply(sales)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), p.remedy(err)
	}
	after, totals := p.outcome(r)
	_, safe := engine.ThirtyDayWindow(p.Date)
	res := PlanHarvestResult{Projection: true, Note: planNote, TaxYear: p.Year.Period(), Date: p.Date, Target: model.NewMoney(target),
		Margin: model.NewMoney(o.Margin), Realised: model.NewMoney(r.Gain), PlanTotals: totals, Bounded: h.Bounded,
		Direction: h.Direction, Before: p.Figures(p.BaseTY), After: after, SafeRebuy: safe, Sales: harvestSales(h.Sales, p.Date), ledger: p.ledger,
		Defeats: fmt.Sprintf("Buying a security sold back on or before %s (30 days, \"bed and breakfast\") matches the purchase with the sale and undoes its gain or loss; buying it in an ISA, or by a spouse or civil partner, does not. From %s a purchase is safe.",
			safe.AddDays(-1), safe)}
	notes := append(priceNotes, h.Notes(o)...)
	var lines []string
	for _, s := range res.Sales {
		lines = append(lines, s.Line)
	}
	res.Lines = strings.Join(lines, "\n")
	for _, t := range order {
		if _, ok := p.HeldAt(t); !ok {
			notes = append(notes, fmt.Sprintf("prices names %s, which is not held on %s; it is not used.", t, p.Date))
		}
	}
	for _, s := range res.Sales {
		notes = append(notes, plan.MatchNotes(p.Disposal(r.Report, s.Ticker))...)
	}
	switch {
	case h.Direction == "none":
		notes = append(notes, fmt.Sprintf("the year's net gain is already %s, the target: nothing to sell.", gbp(p.BaseTY.NetGain)))
	case len(res.Sales) == 0 && h.Direction == "gains":
		notes = append(notes, "no holding priced shows a gain small enough to sell without passing the target.")
	case len(res.Sales) == 0:
		notes = append(notes, "no holding priced shows a loss to sell.")
	}
	if a.TaxableIncome == nil {
		notes = append(notes, "tax not worked out: give taxable_income for the tax at the result.")
	}
	if defaultTarget && res.Before.LossesAvailable.Sign() > 0 && h.Direction == "gains" {
		notes = append(notes, fmt.Sprintf("losses brought forward (%s) are set only against gains above the exempt amount; aiming higher (target_gain) would use them up instead of the tax.", gbp(res.Before.LossesAvailable)))
	}
	return res, p.warnings(notes...), nil
}

// harvestSales are the chosen sales as results.
func harvestSales(cs []plan.Chosen, d model.Date) []HarvestSale {
	out := []HarvestSale{}
	for _, c := range cs {
		out = append(out, HarvestSale{Ticker: c.Ticker, Quantity: model.NewDecimal(c.Quantity), Held: model.NewDecimal(c.Held),
			Price: c.Price.String(), Gain: c.Gain, WholeHolding: c.Whole, OneMore: c.OneMore, Line: c.Line(d), price: c.Price})
	}
	return out
}

// WriteText is the plan for people.
func (r PlanHarvestResult) WriteText(w io.Writer, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Tax year %s: net gain so far %s; target %s", r.TaxYear, gbp(r.Before.NetGain), gbp(r.Target))
	if r.Margin.Sign() > 0 {
		fmt.Fprintf(&b, ", less a margin of %s", gbp(r.Margin))
	}
	b.WriteString(".\n")
	for _, s := range r.Sales {
		word, amt := "gain", s.Gain
		if amt.Sign() < 0 {
			word, amt = "loss", model.NewMoney(amt.Exact().Neg())
		}
		fmt.Fprintf(&b, "Sell %s %s at %s: %s %s", s.Quantity.Exact(), s.Ticker, priceText(s.price), word, gbp(amt))
		if s.WholeHolding {
			b.WriteString(" (the whole holding)")
		}
		b.WriteString(".\n")
	}
	if len(r.Sales) == 0 {
		b.WriteString("Nothing to sell.\n")
	}
	totalsText(&b, r.Realised, r.PlanTotals, r.After)
	fmt.Fprintf(&b, "After the sales on %s: net gain %s; %s of your allowance left.\n", r.Date, gbp(r.After.NetGain), gbp(r.After.ExemptLeft))
	if len(r.Sales) > 0 {
		fmt.Fprintf(&b, "%s\n", r.Defeats)
		b.WriteString("Ledger lines, once sold:\n")
		for _, l := range strings.Split(r.Lines, "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	for _, wn := range warnings {
		fmt.Fprintf(&b, "note: %s\n", wn)
	}
	b.WriteString(planNote + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
