package commands

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// PlanHarvestArgs are the arguments of plan.harvest.
type PlanHarvestArgs struct {
	Prices     any `json:"prices" jsonschema:"required,oneof_type=string;array;object" jsonschema_description:"Prices, e.g. \"AAPL=190.50 USD,VWRL=98.2\"."`
	TargetGain any `json:"target_gain,omitempty" jsonschema:"oneof_type=number;string" jsonschema_description:"Net gain to aim for (default the exempt amount; negative: losses)."`
	Year       any `json:"year,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Tax year." cgt:"alias=tax_year"`
	PlanArgs
}

// PlanHarvestResult is one combined set of sales that brings the year's net gain as close to
// the target as whole shares allow without passing it.
type PlanHarvestResult struct {
	_          struct{}      `record:"kind=plan_harvest"`
	Projection bool          `json:"projection" jsonschema_description:"Always true: a projection, not a record."`
	Note       string        `json:"note" jsonschema_description:"What a projection is."`
	TaxYear    string        `json:"tax_year" record:"period" jsonschema_description:"Tax year of the sales."`
	Date       model.Date    `json:"date" record:"timestamp" jsonschema_description:"Day of the planned sales."`
	Target     model.Money   `json:"target" jsonschema_description:"The year's net gain aimed at (GBP)."`
	Direction  string        `json:"direction" jsonschema_description:"gains (selling at a gain up to the target), losses (selling at a loss down to it) or none."`
	Before     YearFigures   `json:"before" jsonschema_description:"The year's figures without the sales."`
	After      YearFigures   `json:"after" jsonschema_description:"The year's figures with every sale suggested."`
	Lines      string        `json:"lines" jsonschema_description:"The sales as ledger lines (pass as extra to check them)."`
	SafeRebuy  model.Date    `json:"first_safe_rebuy" jsonschema_description:"First day a purchase of a security sold is not matched with the sale (the 31st day)."`
	Defeats    string        `json:"defeats" jsonschema_description:"What would undo the plan."`
	Sales      []HarvestSale `json:"sales" record:"rows=sale" jsonschema_description:"The sales, each with its gain by the engine."`

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
	Usage:       "cgt plan.harvest FILE... prices=\"TICKER=PRICE [CCY],...\" [target_gain=AMOUNT] [date=YYYY-MM-DD]",
	Examples: []registry.Example{
		{Description: "Use the rest of the 2026/27 exempt amount on 20 March 2027", Args: []string{"examples/planning.cgt", "date=2027-03-20", "prices=VWRL=98.20,AAPL=230 USD,VOD.L=0.72,LGEN=2.55"}},
		{Description: "Realise £1,000 of losses instead", Args: []string{"examples/planning.cgt", "date=2027-03-20", "prices=VWRL=98.20,AAPL=230 USD,VOD.L=0.72,LGEN=2.55", "target_gain=-1000"}},
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

// harvestUnit is the smallest quantity planned for a holding: one share, or the holding's own
// smallest decimal place when it holds a fraction of a share.
func harvestUnit(q decimal.Decimal) decimal.Decimal {
	if q.Equal(q.Truncate(0)) {
		return decimal.NewFromInt(1)
	}
	exp := q.Exponent()
	if exp < -10 {
		exp = -10
	}
	return decimal.New(1, exp)
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
	if !p.year.Contains(p.date) {
		return PlanHarvestResult{}, p.warnings(), envelope.New(envelope.InvalidArgument,
			fmt.Sprintf("date %s is not in tax year %s", p.date, p.year.Period()), "Give a date in the year, or leave one of them out.",
			"date=2027-03-20").With("argument", "date")
	}
	target := p.baseTY.AnnualExemptAmount.Exact()
	defaultTarget := true
	if a.TargetGain != nil && a.TargetGain != "" {
		ts := strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(fmt.Sprint(a.TargetGain)), ",", ""), "£")
		t, err := plainDecimal(strings.TrimPrefix(ts, "-"))
		if strings.HasPrefix(ts, "-") {
			t = t.Neg()
		}
		if err != nil {
			return PlanHarvestResult{}, nil, envelope.New(envelope.InvalidArgument, fmt.Sprintf("target_gain %v is not an amount of pounds", a.TargetGain),
				"Give the year's net gain to aim at in GBP; negative for a net loss.", "target_gain=-1000").With("argument", "target_gain").With("value", fmt.Sprint(a.TargetGain))
		}
		target, defaultTarget = t, false
	}
	h, err := p.harvest(prices, target)
	if err != nil {
		return PlanHarvestResult{}, p.warnings(), err
	}
	if h.sales == nil {
		h.sales = []HarvestSale{}
	}
	_, safe := rebuyWindow(p.date)
	res := PlanHarvestResult{Projection: true, Note: planNote, TaxYear: p.year.Period(), Date: p.date, Target: model.NewMoney(target),
		Direction: h.direction, Before: p.figures(p.baseTY), After: p.figures(h.after), SafeRebuy: safe, Sales: h.sales, ledger: p.ledger,
		Defeats: fmt.Sprintf("Buying a security sold back on or before %s (30 days, \"bed and breakfast\") matches the purchase with the sale and undoes its gain or loss; buying it in an ISA, or by a spouse or civil partner, does not. From %s a purchase is safe.",
			safe.AddDays(-1), safe)}
	var lines []string
	for _, s := range h.sales {
		lines = append(lines, s.Line)
	}
	res.Lines = strings.Join(lines, "\n")
	var notes []string
	for _, t := range order {
		if _, ok := p.heldAt(t); !ok {
			notes = append(notes, fmt.Sprintf("prices names %s, which is not held on %s; it is not used.", t, p.date))
		}
	}
	for _, s := range h.sales {
		if sameDay, later := p.purchasesWithin(s.Ticker, p.date); sameDay || len(later) > 0 {
			notes = append(notes, fmt.Sprintf("30-day rule: the ledger has a purchase of %s on or within 30 days after %s: it is matched with the planned sale first, which the gain shown includes.", s.Ticker, p.date))
		}
	}
	if len(h.unpriced) > 0 {
		notes = append(notes, "no price given for "+strings.Join(h.unpriced, ", ")+": not considered.")
	}
	switch {
	case h.direction == "none":
		notes = append(notes, fmt.Sprintf("the year's net gain is already %s, the target: nothing to sell.", gbp(p.baseTY.NetGain)))
	case len(h.sales) == 0 && h.direction == "gains":
		notes = append(notes, "no holding priced shows a gain small enough to sell without passing the target.")
	case len(h.sales) == 0:
		notes = append(notes, "no holding priced shows a loss to sell.")
	}
	if defaultTarget && res.Before.LossesAvailable.Sign() > 0 && h.direction == "gains" {
		notes = append(notes, fmt.Sprintf("losses brought forward (%s) are set only against gains above the exempt amount; aiming higher (target_gain) would use them up instead of the tax.", gbp(res.Before.LossesAvailable)))
	}
	return res, p.warnings(notes...), nil
}

// harvestPlan is what harvest found.
type harvestPlan struct {
	direction string
	sales     []HarvestSale
	after     engine.TaxYear
	unpriced  []string
}

// harvest chooses the sales: holdings are taken largest gain (or loss) first; each is sold in
// full when that stays within the target, else in the largest number of whole shares that
// does (found by bisection, every step run through the engine), and the next holdings fill what
// is left. Each partial sale is then checked: one more share passes the target.
func (p *planner) harvest(prices map[string]price, target decimal.Decimal) (harvestPlan, error) {
	var hp harvestPlan
	net := p.baseTY.NetGain.Exact()
	dir := 0
	switch {
	case net.LessThan(target):
		dir, hp.direction = 1, "gains"
	case net.GreaterThan(target):
		dir, hp.direction = -1, "losses"
	default:
		hp.direction, hp.after = "none", p.baseTY
		return hp, nil
	}
	fits := func(ty engine.TaxYear) bool {
		n := ty.NetGain.Exact()
		if dir > 0 {
			return n.LessThanOrEqual(target)
		}
		return n.GreaterThanOrEqual(target)
	}
	type candidate struct {
		h    engine.Holding
		pr   price
		full decimal.Decimal
	}
	var cands []candidate
	for _, h := range p.base.HoldingsAt(p.date) {
		pr, ok := prices[strings.ToUpper(h.Ticker)]
		if !ok {
			hp.unpriced = append(hp.unpriced, h.Ticker)
			continue
		}
		g, err := p.fullSaleGain(h, pr)
		if err != nil {
			return hp, err
		}
		if g.Exact().Sign() == dir {
			cands = append(cands, candidate{h, pr, g.Exact()})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].full.Abs().GreaterThan(cands[j].full.Abs()) })
	var chosen []sale
	cur := p.baseTY
	with := func(s sale) (engine.TaxYear, error) {
		_, ty, err := p.run(append(append([]sale{}, chosen...), s))
		return ty, err
	}
	for _, c := range cands {
		if cur.NetGain.Exact().Equal(target) {
			break
		}
		held := c.h.Quantity.Exact()
		unit := harvestUnit(held)
		steps := held.Div(unit).IntPart()
		mk := func(k int64) sale {
			q := held
			if k < steps {
				q = unit.Mul(decimal.NewFromInt(k))
			}
			return sale{ticker: c.h.Ticker, quantity: q, price: c.pr}
		}
		one, err := with(mk(1))
		if err != nil {
			return hp, err
		}
		if !fits(one) {
			continue
		}
		full, err := with(mk(steps))
		if err != nil {
			return hp, err
		}
		k, best := steps, full
		if !fits(full) {
			lo, hi, loTY := int64(1), steps, one
			// A first guess from the full sale's gain per share (exact for a pool alone), tried
			// with the engine and its neighbour; the bisection then has little or nothing left.
			slack := target.Sub(cur.NetGain.Exact()).Abs()
			if perShare := c.full.Abs().Div(decimal.NewFromInt(steps)); perShare.Sign() > 0 {
				if guess := slack.Div(perShare).IntPart(); guess > lo && guess < hi {
					ty, err := with(mk(guess))
					if err != nil {
						return hp, err
					}
					if fits(ty) {
						lo, loTY = guess, ty
						if guess+1 < hi {
							next, err := with(mk(guess + 1))
							if err != nil {
								return hp, err
							}
							if fits(next) {
								lo, loTY = guess+1, next
							} else {
								hi = guess + 1
							}
						}
					} else {
						hi = guess
					}
				}
			}
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				ty, err := with(mk(mid))
				if err != nil {
					return hp, err
				}
				if fits(ty) {
					lo, loTY = mid, ty
				} else {
					hi = mid
				}
			}
			k, best = lo, loTY
		}
		chosen = append(chosen, mk(k))
		cur = best
	}
	hp.after = cur
	for i, s := range chosen {
		held, _ := p.heldAt(s.ticker)
		_, alone, err := p.run([]sale{s})
		if err != nil {
			return hp, err
		}
		hs := HarvestSale{Ticker: s.ticker, Quantity: model.NewDecimal(s.quantity), Held: held.Quantity, Price: s.price.String(),
			Gain: delta(alone.NetGain, p.baseTY.NetGain), WholeHolding: s.quantity.Equal(held.Quantity.Exact()), Line: s.line(p.date), price: s.price}
		if !hs.WholeHolding {
			more := append([]sale{}, chosen...)
			more[i].quantity = s.quantity.Add(harvestUnit(held.Quantity.Exact()))
			_, ty, err := p.run(more)
			if err != nil {
				return hp, err
			}
			exceeds := !fits(ty)
			hs.OneMore = &exceeds
		}
		hp.sales = append(hp.sales, hs)
	}
	if hp.sales == nil {
		hp.sales = []HarvestSale{}
	}
	return hp, nil
}

// WriteText is the plan for people.
func (r PlanHarvestResult) WriteText(w io.Writer, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Tax year %s: net gain so far %s; target %s.\n", r.TaxYear, gbp(r.Before.NetGain), gbp(r.Target))
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
	if len(r.Sales) > 0 {
		fmt.Fprintf(&b, "After these sales on %s: net gain %s; %s of your allowance left.\n", r.Date, gbp(r.After.NetGain), gbp(r.After.ExemptLeft))
		fmt.Fprintf(&b, "%s\n", r.Defeats)
		b.WriteString("Ledger lines, once sold:\n")
		for _, l := range strings.Split(r.Lines, "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	} else {
		b.WriteString("Nothing to sell.\n")
	}
	for _, wn := range warnings {
		fmt.Fprintf(&b, "note: %s\n", wn)
	}
	b.WriteString(planNote + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
