package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// PlanAllowanceArgs are the arguments of plan.allowance.
type PlanAllowanceArgs struct {
	Year   any `json:"year,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Tax year." cgt:"alias=tax_year"`
	Prices any `json:"prices,omitempty" jsonschema:"oneof_type=string;array;object" jsonschema_description:"Prices, e.g. \"AAPL=190.50 USD,VWRL=98.2\"."`
	// TaxableIncome gives the year's tax so far.
	TaxableIncome *YearAmounts `json:"taxable_income,omitempty" jsonschema_description:"Income after allowances (GBP)." cgt:"alias=income"`
	PlanArgs
}

// PlanAllowanceResult is how much of a tax year's annual exempt amount is used and left.
type PlanAllowanceResult struct {
	_                  struct{}    `record:"kind=plan_allowance"`
	Projection         bool        `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note               string      `json:"note" jsonschema_description:"What a projection is."`
	TaxYear            string      `json:"tax_year" record:"period" jsonschema_description:"The tax year."`
	Date               model.Date  `json:"date" record:"timestamp" jsonschema_description:"The day the plan is made for."`
	DisposalCount      int         `json:"disposal_count" jsonschema_description:"Disposals in the year so far."`
	AnnualExemptAmount model.Money `json:"annual_exempt_amount" jsonschema_description:"The year's annual exempt amount (GBP)."`
	YearFigures
	Holdings    []Unrealised `json:"holdings" record:"rows=holding" jsonschema_description:"Holdings on the date, with the gain a full sale at the prices given would realise."`
	OpenWindows []OpenWindow `json:"open_windows" record:"rows=window" jsonschema_description:"Recent sales a purchase up to until would still be matched with (30-day rule)."`
	ledger      string
	year        taxyear.Year
	unpriced    []string
	anyPrice    bool
}

// Unrealised is a holding and what selling all of it at the price given would realise.
type Unrealised struct {
	Ticker   string        `json:"ticker" record:"entity" jsonschema_description:"Security."`
	Quantity model.Decimal `json:"quantity" jsonschema_description:"Shares in the Section 104 pool on the date."`
	Cost     model.Money   `json:"cost" jsonschema_description:"Pool cost (GBP)."`
	Price    string        `json:"price,omitempty" jsonschema_description:"Price given."`
	Gain     *model.Money  `json:"unrealised_gain,omitempty" jsonschema_description:"Gain (negative: loss) a full sale on the date at the price would realise, by the engine with every rule (GBP)."`
	// NonReporting marks a non-reporting offshore fund, whose gain on a sale is income.
	NonReporting   bool         `json:"non_reporting,omitempty" jsonschema_description:"A non-reporting offshore fund: a gain on its sale is an offshore income gain, taxed as income, not a capital gain."`
	OffshoreIncome *model.Money `json:"offshore_income_gain,omitempty" jsonschema_description:"Offshore income gain a full sale at the price would realise (GBP)."`
}

// OpenWindow is a recent sale whose 30-day window is still open.
type OpenWindow = plan.Window

// RecordEntity names records that have no ticker of their own.
func (r PlanAllowanceResult) RecordEntity() string { return r.ledger }

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
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks how much they can sell tax-free this year."},
		AvoidWhen: []string{},
		NextSteps: []string{"plan.harvest", "plan.sale"},
	},
}, planAllowance)

func planAllowance(_ context.Context, deps *registry.Deps, a PlanAllowanceArgs) (PlanAllowanceResult, []string, error) {
	prices, order, err := parsePrices(a.Prices)
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
	notes, err := p.checkPrices(order, prices)
	if err != nil {
		return PlanAllowanceResult{}, p.warnings(), err
	}
	res := PlanAllowanceResult{Projection: true, Note: planNote, TaxYear: p.Year.Period(), Date: p.Date,
		DisposalCount: p.BaseTY.DisposalCount, AnnualExemptAmount: p.BaseTY.AnnualExemptAmount,
		YearFigures: p.Figures(p.BaseTY), Holdings: []Unrealised{}, OpenWindows: []OpenWindow{}, ledger: p.ledger, year: p.Year}
	used := map[string]bool{}
	for _, h := range p.Holdings() {
		u := Unrealised{Ticker: h.Ticker, Quantity: h.Quantity, Cost: h.Cost, NonReporting: p.NonReporting(h.Ticker)}
		pr, ok := prices[strings.ToUpper(h.Ticker)]
		if ok {
			used[strings.ToUpper(h.Ticker)] = true
			u.Price = pr.String()
			r, err := p.ApplyOwn(plan.Sale{Ticker: h.Ticker, Quantity: h.Quantity.Exact(), Price: pr})
			if deps.Context != nil && deps.Context.Err() != nil {
				return PlanAllowanceResult{}, p.warnings(), deps.Context.Err()
			}
			if err != nil {
				// A full sale the ledger's later transactions cannot follow (they sell shares it
				// would have sold): no figure, and why.
				notes = append(notes, fmt.Sprintf("%s: no unrealised gain: a sale of all %s on %s fails with the ledger's later transactions: %s",
					h.Ticker, h.Quantity.Exact(), p.Date, envelope.FromError(err).Message))
			} else {
				g := model.NewMoney(r.Gain)
				u.Gain = &g
				if r.OffshoreIncome.Sign() > 0 {
					o := model.NewMoney(r.OffshoreIncome)
					u.OffshoreIncome = &o
				}
				res.anyPrice = true
			}
		} else {
			res.unpriced = append(res.unpriced, h.Ticker)
		}
		res.Holdings = append(res.Holdings, u)
	}
	res.OpenWindows = plan.OpenWindows(p.Base, p.Date)
	for _, u := range res.Holdings {
		if u.NonReporting {
			notes = append(notes, fmt.Sprintf("%s is a non-reporting offshore fund: a gain on its sale is an offshore income gain, taxed as income (SI 2009/3001 regs 17-18), and does not use the exempt amount.", u.Ticker))
		}
	}
	if a.TaxableIncome == nil {
		notes = append(notes, "tax not worked out: give taxable_income for the year's tax so far.")
	}
	for _, t := range order {
		if !used[t] {
			notes = append(notes, fmt.Sprintf("prices names %s, which is not held on %s; it is not used.", t, p.Date))
		}
	}
	if len(prices) > 0 && len(res.unpriced) > 0 {
		notes = append(notes, "no price given for "+strings.Join(res.unpriced, ", ")+": no unrealised gain shown.")
	}
	return res, p.warnings(notes...), nil
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

// WriteText is the allowance for people.
func (r PlanAllowanceResult) WriteText(w io.Writer, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Tax year %s, as of %s\n", r.TaxYear, r.Date)
	fmt.Fprintf(&b, "  Realised so far        %12s  net gain (%d disposal%s; gains %s, losses %s)\n", gbp(r.NetGain), r.DisposalCount, plural(r.DisposalCount), gbp(r.Gains), gbp(r.Losses))
	fmt.Fprintf(&b, "  Annual exempt amount   %12s\n", gbp(r.AnnualExemptAmount))
	fmt.Fprintf(&b, "  Left to use            %12s\n", gbp(r.ExemptLeft))
	fmt.Fprintf(&b, "  Losses available       %12s  (brought forward; used only on gains above the exempt amount)\n", gbp(r.LossesAvailable))
	fmt.Fprintf(&b, "  Losses used            %12s\n", gbp(r.LossesUsed))
	fmt.Fprintf(&b, "  Losses carried forward %12s  (after the year)\n", gbp(r.LossesCarried))
	if r.Tax != nil {
		fmt.Fprintf(&b, "  Capital Gains Tax      %12s  (on the gains so far)\n", gbp(*r.Tax))
	}
	if len(r.Holdings) > 0 {
		b.WriteString("Holdings\n")
		for _, h := range r.Holdings {
			fmt.Fprintf(&b, "  %-10s %12s shares  cost %12s", h.Ticker, h.Quantity.Exact(), gbp(h.Cost))
			switch {
			case h.OffshoreIncome != nil:
				fmt.Fprintf(&b, "  at %s: offshore income gain %s (non-reporting fund: income)", h.Price, gbp(*h.OffshoreIncome))
			case h.Gain != nil:
				fmt.Fprintf(&b, "  at %s: unrealised %s", h.Price, gbp(*h.Gain))
			}
			if h.NonReporting && h.OffshoreIncome == nil {
				b.WriteString("  (non-reporting fund)")
			}
			b.WriteString("\n")
		}
	}
	for _, o := range r.OpenWindows {
		fmt.Fprintf(&b, "30-day window open: %s %s sold on %s; buying it back up to %s is matched with that sale (safe from %s).\n", o.Open.Exact(), o.Ticker, o.SaleDate, o.Until, o.SafeRebuy)
	}
	for _, wn := range warnings {
		fmt.Fprintf(&b, "note: %s\n", wn)
	}
	b.WriteString(planNote + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
