package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
	"github.com/cgt-tools/cgt/reportview"
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

// PlanSaleResult is a hypothetical sale and what it does to its tax year (cgt/plan).
type PlanSaleResult struct {
	_ struct{} `record:"kind=plan_sale"`
	plan.SaleResult
}

// WriteText is the plan for people.
func (r PlanSaleResult) WriteText(w io.Writer, warnings []string) error {
	return reportview.PlanSale(w, r.SaleResult, warnings)
}

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
	KeyFields:      []string{"gain", "tax_cost", "after.taxable_gain", "after.tax", "after.exempt_left", "first_safe_rebuy"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks what selling some shares would cost in tax."},
		AvoidWhen: []string{},
		NextSteps: []string{"plan.allowance", "plan.harvest"},
	},
}, planSale)

func planSale(_ context.Context, deps *registry.Deps, a PlanSaleArgs) (PlanSaleResult, []string, error) {
	pr, err := plan.ParsePrice("price", a.Price)
	if err != nil {
		return PlanSaleResult{}, nil, err
	}
	var fees *plan.Price
	if a.Fees != nil && a.Fees != "" {
		f, err := plan.ParsePrice("fees", a.Fees)
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
	priceNotes, err := p.CheckSalePrice(ticker, pr)
	if err != nil {
		return PlanSaleResult{}, p.warnings(), err
	}
	var qty decimal.Decimal
	if q := strings.TrimSpace(a.Quantity); strings.EqualFold(q, "all") {
		qty = held.Quantity.Exact()
	} else if qty, err = plan.PlainDecimal(q); err != nil || qty.Sign() <= 0 {
		return PlanSaleResult{}, nil, envelope.New(envelope.InvalidArgument, fmt.Sprintf("quantity %q is not a number of shares", a.Quantity),
			"Give a positive number of shares, or all.", "quantity=37").With("argument", "quantity").With("value", a.Quantity)
	}
	if qty.GreaterThan(held.Quantity.Exact()) {
		return PlanSaleResult{}, p.warnings(), envelope.New(envelope.InvalidArgument,
			fmt.Sprintf("quantity %s is more than the %s %s held on %s", qty, held.Quantity.Exact(), ticker, p.Date),
			"Sell at most the shares held, or quantity=all.", "quantity=all").With("argument", "quantity").With("value", a.Quantity).With("held", held.Quantity.Exact().String())
	}
	res, notes, err := p.Sell(plan.Sale{Ticker: ticker, Quantity: qty, Price: pr, Fees: fees}, p.ledger)
	if err != nil {
		return PlanSaleResult{}, p.warnings(), p.remedy(err)
	}
	notes = append(priceNotes, notes...)
	if a.TaxableIncome == nil {
		notes = append(notes, "tax not worked out: give taxable_income for the tax this sale costs.")
	}
	return PlanSaleResult{SaleResult: res}, p.warnings(notes...), nil
}
