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

// PlanSaleArgs are the arguments of plan.sale.
type PlanSaleArgs struct {
	Ticker        string       `json:"ticker" jsonschema:"required" jsonschema_description:"Security to sell."`
	Quantity      string       `json:"quantity" jsonschema:"required" jsonschema_description:"Shares to sell, or all."`
	Price         any          `json:"price" jsonschema:"required,oneof_type=string;number;object" jsonschema_description:"Price, e.g. \"230.00 USD\"."`
	Fees          any          `json:"fees,omitempty" jsonschema:"oneof_type=string;number;object" jsonschema_description:"Sale fees."`
	TaxableIncome *YearAmounts `json:"taxable_income,omitempty" jsonschema_description:"Income after allowances (GBP)." cgt:"alias=income"`
	PlanArgs
}

// PlanSaleResult is a hypothetical sale and what it does to its tax year.
type PlanSaleResult struct {
	_          struct{}      `record:"kind=plan_sale"`
	Projection bool          `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note       string        `json:"note" jsonschema_description:"What a projection is."`
	Ticker     string        `json:"ticker" record:"entity" jsonschema_description:"Security sold."`
	Date       model.Date    `json:"date" record:"timestamp" jsonschema_description:"Day of the planned sale."`
	Quantity   model.Decimal `json:"quantity" jsonschema_description:"Shares sold."`
	Line       string        `json:"line" jsonschema_description:"The sale as a ledger line (append it to record the sale once made)."`
	TaxYear    string        `json:"tax_year" record:"period" jsonschema_description:"Tax year of the sale."`
	Gain       model.Money   `json:"gain" jsonschema_description:"The sale's gain (negative: loss): the change in the year's net gain (GBP)."`
	Before     YearFigures   `json:"before" jsonschema_description:"The year's figures without the sale."`
	After      YearFigures   `json:"after" jsonschema_description:"The year's figures with the sale."`
	PlanTotals
	MatchedTo model.Date       `json:"rebuy_matched_until" jsonschema_description:"A purchase of the security up to this day (30 days) would be matched with the sale and change its gain."`
	SafeRebuy model.Date       `json:"first_safe_rebuy" jsonschema_description:"First day a purchase outside an ISA is not matched with the sale."`
	Disposal  *engine.Disposal `json:"disposal,omitempty" record:"rows=disposal" jsonschema_description:"The disposal as the engine identifies it: matches and rules."`

	ledger string
	price  price
}

// RecordEntity names records that have no ticker of their own.
func (r PlanSaleResult) RecordEntity() string { return r.ledger }

// PlanSale works out a hypothetical sale.
var PlanSale = registry.NewCommand(registry.Meta{
	Name:        "plan.sale",
	MCPName:     "plan_sale",
	Summary:     "What a sale would realise and the tax it adds, before it is made",
	Description: "Works out a sale that has not happened by appending it to the ledger and running the full calculation.",
	Usage:       "cgt plan.sale FILE... ticker=TICKER quantity=N|all price=\"AMOUNT [CCY]\" [date=YYYY-MM-DD] [fees=AMOUNT] [taxable_income=AMOUNT]",
	Examples: []registry.Example{
		{Description: "Sell 20 VWRL at £98.20 on 20 March 2027", Args: []string{"examples/planning.cgt", "ticker=VWRL", "quantity=20", "price=98.20", "date=2027-03-20"}},
		{Description: "Sell all AAPL at $230 with the tax at £60,000 income", Args: []string{"examples/planning.cgt", "ticker=AAPL", "quantity=all", "price=230.00 USD", "date=2027-03-20", "taxable_income=60000"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None.",
	CitationFields: []string{"gain", "after.exempt_left", "disposal.matches[].rule"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks what selling some shares would cost in tax."},
		AvoidWhen: []string{},
		NextSteps: []string{"plan.allowance", "plan.harvest"},
	},
}, planSale)

func planSale(_ context.Context, deps *registry.Deps, a PlanSaleArgs) (PlanSaleResult, []string, error) {
	pr, err := parsePrice("price", a.Price)
	if err != nil {
		return PlanSaleResult{}, nil, err
	}
	var fees *price
	if a.Fees != nil && a.Fees != "" {
		f, err := parsePrice("fees", a.Fees)
		if err != nil {
			return PlanSaleResult{}, nil, err
		}
		fees = &f
	}
	p, err := newPlanner(deps, a.PlanArgs)
	if err != nil {
		return PlanSaleResult{}, nil, err
	}
	if p.Income, err = incomeFor(a.TaxableIncome, p.Year); err != nil {
		return PlanSaleResult{}, nil, err
	}
	ticker := strings.ToUpper(strings.TrimSpace(a.Ticker))
	held, ok := p.HeldAt(ticker)
	if !ok {
		return PlanSaleResult{}, p.warnings(), p.NotHeld(ticker)
	}
	ticker = held.Ticker
	priceNotes, err := p.checkSalePrice(ticker, pr)
	if err != nil {
		return PlanSaleResult{}, p.warnings(), err
	}
	var qty decimal.Decimal
	if q := strings.TrimSpace(a.Quantity); strings.EqualFold(q, "all") {
		qty = held.Quantity.Exact()
	} else if qty, err = plainDecimal(q); err != nil || qty.Sign() <= 0 {
		return PlanSaleResult{}, nil, envelope.New(envelope.InvalidArgument, fmt.Sprintf("quantity %q is not a number of shares", a.Quantity),
			"Give a positive number of shares, or all.", "quantity=37").With("argument", "quantity").With("value", a.Quantity)
	}
	if qty.GreaterThan(held.Quantity.Exact()) {
		return PlanSaleResult{}, p.warnings(), envelope.New(envelope.InvalidArgument,
			fmt.Sprintf("quantity %s is more than the %s %s held on %s", qty, held.Quantity.Exact(), ticker, p.Date),
			"Sell at most the shares held, or quantity=all.", "quantity=all").With("argument", "quantity").With("value", a.Quantity).With("held", held.Quantity.Exact().String())
	}
	s := plan.Sale{Ticker: ticker, Quantity: qty, Price: pr, Fees: fees}
	r, err := p.Apply([]plan.Sale{s})
	if err != nil {
		return PlanSaleResult{}, p.warnings(), p.remedy(err)
	}
	after, totals := p.outcome(r)
	until, safe := engine.ThirtyDayWindow(p.Date)
	res := PlanSaleResult{Projection: true, Note: planNote, Ticker: ticker, Date: p.Date, Quantity: model.NewDecimal(qty),
		Line: s.Line(p.Date), TaxYear: p.Year.Period(), Before: p.Figures(p.BaseTY), After: after, Gain: model.NewMoney(r.Gain),
		PlanTotals: totals, MatchedTo: until, SafeRebuy: safe, Disposal: p.Disposal(r.Report, ticker), ledger: p.ledger, price: pr}
	notes := append(priceNotes, plan.MatchNotes(res.Disposal)...)
	if old := plan.FindDisposal(p.BaseTY, ticker, p.Date); old != nil {
		notes = append(notes, fmt.Sprintf("the ledger already has a sale of %s on %s: same-day sales are one disposal, so the disposal shown includes it; gain is the change it makes.", ticker, p.Date))
	}
	if res.OffshoreIncome != nil {
		notes = append(notes, fmt.Sprintf("%s is a non-reporting offshore fund: the gain of %s is an offshore income gain, charged to income tax (SI 2009/3001 regs 17-18) and entered on SA106, not a capital gain; it does not use the exempt amount.", ticker, gbp(*res.OffshoreIncome)))
	}
	notes = append(notes, fmt.Sprintf("buying %s again up to %s (30 days) would be matched with this sale and change its gain; a purchase in an ISA or by a spouse is not; from %s a purchase is safe.", ticker, until, safe))
	if a.TaxableIncome == nil {
		notes = append(notes, "tax not worked out: give taxable_income for the tax this sale costs.")
	}
	return res, p.warnings(notes...), nil
}

// WriteText is the plan for people.
func (r PlanSaleResult) WriteText(w io.Writer, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Sell %s %s at %s on %s: ", r.Quantity.Exact(), r.Ticker, priceText(r.price), r.Date)
	if r.OffshoreIncome != nil {
		fmt.Fprintf(&b, "offshore income gain %s, taxed as income, not as a capital gain", gbp(*r.OffshoreIncome))
	} else if r.Gain.Sign() < 0 {
		fmt.Fprintf(&b, "loss %s", gbp(model.NewMoney(r.Gain.Exact().Neg())))
	} else {
		fmt.Fprintf(&b, "gain %s", gbp(r.Gain))
	}
	fmt.Fprintf(&b, "; %s of your allowance left (%s before).\n", gbp(r.After.ExemptLeft), gbp(r.Before.ExemptLeft))
	if r.OffshoreIncome != nil && r.IncomeTax != nil {
		fmt.Fprintf(&b, "Income tax on the offshore income gain at your marginal rates: %s.\n", gbp(*r.IncomeTax))
	}
	fmt.Fprintf(&b, "Tax year %s: net gain %s -> %s; taxable gain %s -> %s.\n", r.TaxYear, gbp(r.Before.NetGain), gbp(r.After.NetGain),
		gbp(r.Before.TaxableGain), gbp(r.After.TaxableGain))
	if r.TaxCost != nil {
		fmt.Fprintf(&b, "Capital Gains Tax: %s -> %s.\n", gbp(*r.Before.Tax), gbp(*r.After.Tax))
	}
	totalsText(&b, r.Gain, r.PlanTotals, r.After)
	if r.Disposal != nil && len(r.Disposal.Rules) > 0 {
		fmt.Fprintf(&b, "Matched by: %s.\n", strings.Join(r.Disposal.Rules, ", "))
	}
	fmt.Fprintf(&b, "Do not buy %s back before %s unless in an ISA (the 30-day rule would match it).\n", r.Ticker, r.SafeRebuy)
	fmt.Fprintf(&b, "Ledger line: %s\n", r.Line)
	for _, wn := range warnings {
		fmt.Fprintf(&b, "note: %s\n", wn)
	}
	b.WriteString(planNote + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
