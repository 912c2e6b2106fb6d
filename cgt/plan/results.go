package plan

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
)

// The results of the three plans (a sale, the allowance left, a harvest), built from the
// engine's figures, with the notes that go with them. The planning commands publish them as
// they are; their text for people is in reportview.

// SaleResult is a hypothetical sale and what it does to its tax year.
type SaleResult struct {
	_ model.NotComparable

	Projection bool          `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note       string        `json:"note" jsonschema_description:"What a projection is."`
	Ticker     string        `json:"ticker" record:"entity" jsonschema_description:"Security sold."`
	Date       model.Date    `json:"date" record:"timestamp" jsonschema_description:"Day of the planned sale."`
	Quantity   model.Decimal `json:"quantity" jsonschema_description:"Shares sold."`
	Line       string        `json:"line" jsonschema_description:"The sale as a ledger line (append it to record the sale once made)."`
	TaxYear    string        `json:"tax_year" record:"period" jsonschema_description:"Tax year of the sale."`
	Gain       model.Money   `json:"gain" jsonschema_description:"The sale's gain (negative: loss): the change in the year's net gain (GBP)."`
	Before     Figures       `json:"before" jsonschema_description:"The year's figures without the sale."`
	After      Figures       `json:"after" jsonschema_description:"The year's figures with the sale."`
	Totals
	MatchedTo model.Date       `json:"rebuy_matched_until" jsonschema_description:"A purchase of the security up to this day (30 days) would be matched with the sale and change its gain."`
	SafeRebuy model.Date       `json:"first_safe_rebuy" jsonschema_description:"First day a purchase outside an ISA is not matched with the sale."`
	Disposal  *engine.Disposal `json:"disposal,omitempty" record:"rows=disposal" jsonschema_description:"The disposal as the engine identifies it: matches and rules."`

	ledger string
	price  Price
}

// RecordEntity names records that have no ticker of their own: the ledger.
func (r SaleResult) RecordEntity() string { return r.ledger }

// PriceGiven is the price the sale was planned at, as given.
func (r SaleResult) PriceGiven() Price { return r.price }

// Sell works out one planned sale s: its result, for a ledger named ledger, and the notes
// about it (how it is matched, a sale already on the day, an offshore income gain, the
// 30-day window it opens).
func (p *Planner) Sell(s Sale, ledger string) (SaleResult, []string, error) {
	r, err := p.Apply([]Sale{s})
	if err != nil {
		return SaleResult{}, nil, err
	}
	after, totals := p.Outcome(r)
	until, safe := engine.ThirtyDayWindow(p.Date)
	res := SaleResult{Projection: true, Note: Note, Ticker: s.Ticker, Date: p.Date, Quantity: model.NewDecimal(s.Quantity),
		Line: s.Line(p.Date), TaxYear: p.Year.Period(), Before: p.Figures(p.BaseTY), After: after, Gain: model.NewMoney(r.Gain),
		Totals: totals, MatchedTo: until, SafeRebuy: safe, Disposal: p.Disposal(r.Report, s.Ticker), ledger: ledger, price: s.Price}
	notes := MatchNotes(res.Disposal)
	if old := FindDisposal(p.BaseTY, s.Ticker, p.Date); old != nil {
		notes = append(notes, fmt.Sprintf("the ledger already has a sale of %s on %s: same-day sales are one disposal, so the disposal shown includes it; gain is the change it makes.", s.Ticker, p.Date))
	}
	if res.OffshoreIncome != nil {
		notes = append(notes, fmt.Sprintf("%s is a non-reporting offshore fund: the gain of %s is an offshore income gain, charged to income tax (SI 2009/3001 regs 17-18) and entered on SA106, not a capital gain; it does not use the exempt amount.", s.Ticker, res.OffshoreIncome.GBP()))
	}
	notes = append(notes, fmt.Sprintf("buying %s again up to %s (30 days) would be matched with this sale and change its gain; a purchase in an ISA or by a spouse is not; from %s a purchase is safe.", s.Ticker, until, safe))
	return res, notes, nil
}

// AllowanceResult is how much of a tax year's annual exempt amount is used and left.
type AllowanceResult struct {
	Projection         bool        `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note               string      `json:"note" jsonschema_description:"What a projection is."`
	TaxYear            string      `json:"tax_year" record:"period" jsonschema_description:"The tax year."`
	Date               model.Date  `json:"date" record:"timestamp" jsonschema_description:"The day the plan is made for."`
	DisposalCount      int         `json:"disposal_count" jsonschema_description:"Disposals in the year so far."`
	AnnualExemptAmount model.Money `json:"annual_exempt_amount" jsonschema_description:"The year's annual exempt amount (GBP)."`
	Figures
	Holdings    []Unrealised `json:"holdings" record:"rows=holding" jsonschema_description:"Holdings on the date, with the gain a full sale at the prices given would realise."`
	OpenWindows []Window     `json:"open_windows" record:"rows=window" jsonschema_description:"Recent sales a purchase up to until would still be matched with (30-day rule)."`
	ledger      string
}

// RecordEntity names records that have no ticker of their own: the ledger.
func (r AllowanceResult) RecordEntity() string { return r.ledger }

// Unrealised is a holding and what selling all of it at the price given would realise.
type Unrealised struct {
	_ model.NotComparable

	Ticker   string        `json:"ticker" record:"entity" jsonschema_description:"Security."`
	Quantity model.Decimal `json:"quantity" jsonschema_description:"Shares in the Section 104 pool on the date."`
	Cost     model.Money   `json:"cost" jsonschema_description:"Pool cost (GBP)."`
	Price    string        `json:"price,omitempty" jsonschema_description:"Price given."`
	Gain     *model.Money  `json:"unrealised_gain,omitempty" jsonschema_description:"Gain (negative: loss) a full sale on the date at the price would realise, by the engine with every rule (GBP)."`
	// NonReporting marks a non-reporting offshore fund, whose gain on a sale is income.
	NonReporting   bool         `json:"non_reporting,omitempty" jsonschema_description:"A non-reporting offshore fund: a gain on its sale is an offshore income gain, taxed as income, not a capital gain."`
	OffshoreIncome *model.Money `json:"offshore_income_gain,omitempty" jsonschema_description:"Offshore income gain a full sale at the price would realise (GBP)."`
}

// Allowance is the plan's tax year so far, for a ledger named ledger: the exempt amount used
// and left, each holding with the gain a full sale at its price (prices, by upper-case
// ticker, named in order) would realise, and the open 30-day windows. The notes say what has
// no figure and why; taxGiven says whether taxable income was given (else a note asks for it).
func (p *Planner) Allowance(prices map[string]Price, order []string, taxGiven bool, ledger string) (AllowanceResult, []string, error) {
	res := AllowanceResult{Projection: true, Note: Note, TaxYear: p.Year.Period(), Date: p.Date,
		DisposalCount: p.BaseTY.DisposalCount, AnnualExemptAmount: p.BaseTY.AnnualExemptAmount,
		Figures: p.Figures(p.BaseTY), Holdings: []Unrealised{}, OpenWindows: []Window{}, ledger: ledger}
	var notes, unpriced []string
	used := map[string]bool{}
	for _, h := range p.Holdings() {
		u := Unrealised{Ticker: h.Ticker, Quantity: h.Quantity, Cost: h.Cost, NonReporting: p.NonReporting(h.Ticker)}
		pr, ok := prices[strings.ToUpper(h.Ticker)]
		if !ok {
			unpriced = append(unpriced, h.Ticker)
			res.Holdings = append(res.Holdings, u)
			continue
		}
		used[strings.ToUpper(h.Ticker)] = true
		u.Price = pr.String()
		r, err := p.ApplyOwn(Sale{Ticker: h.Ticker, Quantity: h.Quantity.Exact(), Price: pr})
		if ctxErr := p.context().Err(); ctxErr != nil {
			return AllowanceResult{}, nil, ctxErr
		}
		if err != nil {
			// A full sale the ledger's later transactions cannot follow (they sell shares it
			// would have sold): no figure, and why.
			notes = append(notes, fmt.Sprintf("%s: no unrealised gain: a sale of all %s on %s fails with the ledger's later transactions: %s",
				h.Ticker, h.Quantity.Exact(), p.Date, err.Error()))
		} else {
			g := model.NewMoney(r.Gain)
			u.Gain = &g
			if r.OffshoreIncome.Sign() > 0 {
				o := model.NewMoney(r.OffshoreIncome)
				u.OffshoreIncome = &o
			}
		}
		res.Holdings = append(res.Holdings, u)
	}
	res.OpenWindows = OpenWindows(p.Base, p.Date)
	for _, u := range res.Holdings {
		if u.NonReporting {
			notes = append(notes, fmt.Sprintf("%s is a non-reporting offshore fund: a gain on its sale is an offshore income gain, taxed as income (SI 2009/3001 regs 17-18), and does not use the exempt amount.", u.Ticker))
		}
	}
	if !taxGiven {
		notes = append(notes, "tax not worked out: give taxable_income for the year's tax so far.")
	}
	for _, t := range order {
		if !used[t] {
			notes = append(notes, fmt.Sprintf("prices names %s, which is not held on %s; it is not used.", t, p.Date))
		}
	}
	if len(prices) > 0 && len(unpriced) > 0 {
		notes = append(notes, "no price given for "+strings.Join(unpriced, ", ")+": no unrealised gain shown.")
	}
	return res, notes, nil
}

// HarvestResult is one combined set of sales that brings the year's net gain as close to the
// target as whole shares allow without passing it.
type HarvestResult struct {
	Projection bool        `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note       string      `json:"note" jsonschema_description:"What a projection is."`
	TaxYear    string      `json:"tax_year" record:"period" jsonschema_description:"Tax year of the sales."`
	Date       model.Date  `json:"date" record:"timestamp" jsonschema_description:"Day of the planned sales."`
	Target     model.Money `json:"target" jsonschema_description:"The year's net gain aimed at (GBP)."`
	Margin     model.Money `json:"margin" jsonschema_description:"Pounds left unused short of the target (GBP)."`
	Realised   model.Money `json:"realised_gain" jsonschema_description:"Net gain the sales realise together (negative: loss) (GBP)."`
	Totals
	Bounded   bool          `json:"search_bounded" jsonschema_description:"The search stopped at its time bound: the sales are the closest found, maybe not the closest."`
	Direction string        `json:"direction" jsonschema_description:"gains (selling at a gain up to the target), losses (selling at a loss down to it) or none."`
	Before    Figures       `json:"before" jsonschema_description:"The year's figures without the sales."`
	After     Figures       `json:"after" jsonschema_description:"The year's figures with every sale suggested."`
	Lines     string        `json:"lines" jsonschema_description:"The sales as ledger lines (pass as extra to check them)."`
	SafeRebuy model.Date    `json:"first_safe_rebuy" jsonschema_description:"First day a purchase of a security sold is not matched with the sale (the 31st day)."`
	Defeats   string        `json:"defeats" jsonschema_description:"What would undo the plan."`
	Sales     []HarvestSale `json:"sales" record:"rows=sale" jsonschema_description:"The sales, each with its gain by the engine."`

	ledger string
}

// RecordEntity names records that have no ticker of their own: the ledger.
func (r HarvestResult) RecordEntity() string { return r.ledger }

// HarvestSale is one suggested sale.
type HarvestSale struct {
	_ model.NotComparable

	Ticker       string        `json:"ticker" record:"entity" jsonschema_description:"Security to sell."`
	Quantity     model.Decimal `json:"quantity" jsonschema_description:"Shares to sell."`
	Held         model.Decimal `json:"held" jsonschema_description:"Shares held on the date."`
	Price        string        `json:"price" jsonschema_description:"Price given."`
	Gain         model.Money   `json:"gain" jsonschema_description:"Change in the year's net gain when this sale alone is appended (GBP)."`
	WholeHolding bool          `json:"whole_holding" jsonschema_description:"The whole holding is sold."`
	OneMore      *bool         `json:"one_more_exceeds,omitempty" jsonschema_description:"Checked: one more share would pass the target."`
	Line         string        `json:"line" jsonschema_description:"The sale as a ledger line."`

	price Price
}

// PriceGiven is the price the sale was planned at, as given.
func (s HarvestSale) PriceGiven() Price { return s.price }

// HarvestAsked is what a harvest was asked with besides its options: the prices' tickers in
// the order given, whether the target was left to its default (the exempt amount), whether
// taxable income was given, and the ledger's name for records.
type HarvestAsked struct {
	Order         []string
	DefaultTarget bool
	TaxGiven      bool
	Ledger        string
}

// HarvestPlan searches for the sales (Harvest) and works them out together: the result and
// the notes about it (what the search left out, how each sale is matched, why nothing is
// sold, what to give for the tax).
func (p *Planner) HarvestPlan(o HarvestOptions, asked HarvestAsked) (HarvestResult, []string, error) {
	h, err := p.Harvest(o)
	if err != nil {
		return HarvestResult{}, nil, err
	}
	var sales []Sale
	for _, c := range h.Sales {
		sales = append(sales, c.Sale)
	}
	r, err := p.Apply(sales)
	if err != nil {
		return HarvestResult{}, nil, err
	}
	after, totals := p.Outcome(r)
	_, safe := engine.ThirtyDayWindow(p.Date)
	res := HarvestResult{Projection: true, Note: Note, TaxYear: p.Year.Period(), Date: p.Date, Target: model.NewMoney(o.Target),
		Margin: model.NewMoney(o.Margin), Realised: model.NewMoney(r.Gain), Totals: totals, Bounded: h.Bounded,
		Direction: h.Direction, Before: p.Figures(p.BaseTY), After: after, SafeRebuy: safe, Sales: harvestSales(h.Sales, p.Date), ledger: asked.Ledger,
		Defeats: fmt.Sprintf("Buying a security sold back on or before %s (30 days, \"bed and breakfast\") matches the purchase with the sale and undoes its gain or loss; buying it in an ISA, or by a spouse or civil partner, does not. From %s a purchase is safe.",
			safe.AddDays(-1), safe)}
	lines := make([]string, 0, len(res.Sales))
	for _, s := range res.Sales {
		lines = append(lines, s.Line)
	}
	res.Lines = strings.Join(lines, "\n")
	return res, p.harvestNotes(o, h, r, res, asked), nil
}

// harvestNotes are the notes of a harvest's result.
func (p *Planner) harvestNotes(o HarvestOptions, h Harvest, r Result, res HarvestResult, asked HarvestAsked) []string {
	notes := h.Notes(o)
	for _, t := range asked.Order {
		if _, ok := p.HeldAt(t); !ok {
			notes = append(notes, fmt.Sprintf("prices names %s, which is not held on %s; it is not used.", t, p.Date))
		}
	}
	for _, s := range res.Sales {
		notes = append(notes, MatchNotes(p.Disposal(r.Report, s.Ticker))...)
	}
	switch {
	case h.Direction == "none":
		notes = append(notes, fmt.Sprintf("the year's net gain is already %s, the target: nothing to sell.", p.BaseTY.NetGain.GBP()))
	case len(res.Sales) == 0 && h.Direction == "gains":
		notes = append(notes, "no holding priced shows a gain small enough to sell without passing the target.")
	case len(res.Sales) == 0:
		notes = append(notes, "no holding priced shows a loss to sell.")
	}
	if !asked.TaxGiven {
		notes = append(notes, "tax not worked out: give taxable_income for the tax at the result.")
	}
	if asked.DefaultTarget && res.Before.LossesAvailable.Sign() > 0 && h.Direction == "gains" {
		notes = append(notes, fmt.Sprintf("losses brought forward (%s) are set only against gains above the exempt amount; aiming higher (target_gain) would use them up instead of the tax.", res.Before.LossesAvailable.GBP()))
	}
	return notes
}

// harvestSales are the chosen sales as results.
func harvestSales(cs []Chosen, d model.Date) []HarvestSale {
	out := []HarvestSale{}
	for _, c := range cs {
		out = append(out, HarvestSale{Ticker: c.Ticker, Quantity: model.NewDecimal(c.Quantity), Held: model.NewDecimal(c.Held),
			Price: c.Price.String(), Gain: c.Gain, WholeHolding: c.Whole, OneMore: c.OneMore, Line: c.Line(d), price: c.Price})
	}
	return out
}
