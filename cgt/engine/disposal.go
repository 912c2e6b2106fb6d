package engine

import (
	"slices"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// leg is one identification step of a disposal while it is being built.
type leg struct {
	match Match
	qty   decimal.Decimal
	cost  decimal.Decimal
}

// disposalBuilder collects the legs of one day's disposal and turns them into a Disposal.
// One builder per ticker is reused, so its legs buffer is allocated once.
type disposalBuilder struct {
	r    *tickerRun
	d    *day
	legs []leg
}

// start resets the builder for the disposal of day d.
func (b *disposalBuilder) start(r *tickerRun, d *day) *disposalBuilder {
	b.r, b.d, b.legs = r, d, b.legs[:0]
	return b
}

// sameDay matches q shares with the day's own acquisition (TCGA 1992 s105(1)(b)).
func (b *disposalBuilder) sameDay(q decimal.Decimal) {
	d := b.d
	cost := mulDiv(d.buyCost, q, d.buyQty)
	date := d.date
	m := Match{Rule: RuleSameDay, Reference: RefSameDay, AcquisitionDate: &date,
		Sources: b.r.buySources(d)}
	m.recipe = &stepRecipe{acqDate: date, acqUsed: q, acqQty: d.buyQty, acqCost: d.buyCost}
	b.legs = append(b.legs, leg{match: m, qty: q, cost: cost})
}

// bedAndBreakfast matches take shares of the disposal with used shares of a later
// acquisition (TCGA 1992 s106A(5)); num/den converts between them when a split came between.
func (b *disposalBuilder) bedAndBreakfast(a *day, take, used, num, den decimal.Decimal) {
	cost := mulDiv(a.buyCost, used, a.buyQty)
	date := a.date
	m := Match{Rule: RuleBedAndBreakfast, Reference: RefBedAndBreakfast, AcquisitionDate: &date,
		Sources: b.r.buySources(a)}
	if !num.IsZero() {
		u := model.NewDecimal(used)
		m.AcquisitionQuantity = &u
	}
	m.recipe = &stepRecipe{acqDate: date, acqUsed: used, acqQty: a.buyQty, acqCost: a.buyCost, num: num, den: den}
	b.legs = append(b.legs, leg{match: m, qty: take, cost: cost})
}

// section104 takes q shares from the pool at its average cost (TCGA 1992 s104).
func (b *disposalBuilder) section104(q decimal.Decimal) {
	p := &b.r.pool
	before := *p
	cost := p.cost
	if q.Cmp(p.qty) != 0 {
		cost = mulDiv(p.cost, q, p.qty)
	}
	p.qty = p.qty.Sub(q)
	p.cost = p.cost.Sub(cost)
	if p.qty.IsZero() {
		p.cost = decimal.Decimal{}
	}
	avg := model.NewDecimal(before.cost.DivRound(before.qty, avgPlaces))
	m := Match{Rule: RuleSection104, Reference: RefSection104, AverageCost: &avg,
		PoolBefore: &PoolState{Quantity: model.NewDecimal(before.qty), Cost: model.NewMoney(before.cost)},
		PoolAfter:  &PoolState{Quantity: model.NewDecimal(p.qty), Cost: model.NewMoney(p.cost)}}
	m.recipe = &stepRecipe{}
	b.legs = append(b.legs, leg{match: m, qty: q, cost: cost})
	b.r.record(b.r.entries[b.d.sellLo].t, EventSell, q.Neg(), cost.Neg())
}

// avgPlaces is the precision of reported average costs per share.
const avgPlaces = 6

// finish shares the proceeds and fees among the legs (the last leg takes the remainder, so
// the legs add up exactly) and totals the disposal.
func (b *disposalBuilder) finish() Disposal {
	d := b.d
	first := b.r.entries[d.sellLo].t
	out := Disposal{
		Date:     d.date,
		Ticker:   b.r.ticker,
		Quantity: model.NewDecimal(d.sellQty),
		Proceeds: model.NewMoney(d.gross),
		SaleFees: model.NewMoney(d.fees),
		Source:   sourceRef(first.Source),
		Sources:  b.r.sources(d.sellLo, d.sellHi),
		Original: b.r.original(d),
		Matches:  make([]Match, len(b.legs)),
	}
	var cost, proceedsLeft, feesLeft decimal.Decimal = decimal.Decimal{}, d.gross, d.fees
	var mask uint8
	sale := &saleFigures{qty: d.sellQty, gross: d.gross, fees: d.fees}
	for k := range b.legs {
		l := &b.legs[k]
		proceeds, fees := proceedsLeft, feesLeft
		if k < len(b.legs)-1 {
			proceeds = mulDiv(d.gross, l.qty, d.sellQty)
			fees = mulDiv(d.fees, l.qty, d.sellQty)
			proceedsLeft, feesLeft = proceedsLeft.Sub(proceeds), feesLeft.Sub(fees)
		}
		m := l.match
		m.Quantity = model.NewDecimal(l.qty)
		m.Proceeds, m.SaleFees, m.Cost = model.NewMoney(proceeds), model.NewMoney(fees), model.NewMoney(l.cost)
		m.Gain = model.NewMoney(proceeds.Sub(fees).Sub(l.cost))
		m.recipe.sale = sale
		out.Matches[k] = m
		cost = addNonZero(cost, l.cost)
		mask |= ruleBit(m.Rule)
	}
	out.IdentifiedCost = model.NewMoney(cost)
	allowable := addNonZero(cost, d.fees)
	out.AllowableCost = model.NewMoney(allowable)
	out.Gain = model.NewMoney(d.gross.Sub(allowable))
	out.Rules = rulesFor(mask)
	out.rounded = roundedFigures{proceeds: out.Proceeds.Rounded(), cost: out.AllowableCost.Rounded(), gain: out.Gain.Rounded()}
	return out
}

// buySources lists the ledger lines of a day's acquisitions, once per day: every match with
// that day shares the (read-only) slice.
func (r *tickerRun) buySources(d *day) []SourceRef {
	if d.buySrc == nil {
		d.buySrc = r.sources(d.buyLo, d.buyHi)
	}
	return d.buySrc
}

// sources lists the ledger lines of entries [lo, hi).
func (r *tickerRun) sources(lo, hi int32) []SourceRef {
	out := make([]SourceRef, 0, hi-lo)
	for k := lo; k < hi; k++ {
		out = append(out, sourceRef(r.entries[k].t.Source))
	}
	return out
}

// original lists the day's sale lines in their own currency when any is not GBP.
func (r *tickerRun) original(d *day) []TradeLine {
	foreign := false
	for k := d.sellLo; k < d.sellHi; k++ {
		t := r.entries[k].t
		foreign = foreign || !isGBP(t.Price) || !isGBP(t.Fees)
	}
	if !foreign {
		return nil
	}
	out := make([]TradeLine, 0, d.sellHi-d.sellLo)
	for k := d.sellLo; k < d.sellHi; k++ {
		t := r.entries[k].t
		gross := model.Amount{Value: t.Quantity.Mul(t.Price.Value), Currency: t.Price.Currency}
		out = append(out, TradeLine{Quantity: model.NewDecimal(t.Quantity), Price: r.conv.converted(t, t.Price),
			Consideration: r.conv.converted(t, gross), Fees: r.conv.converted(t, t.Fees), Source: sourceRef(t.Source)})
	}
	return out
}

// ruleBit numbers the rules in the order they apply.
func ruleBit(rule string) uint8 {
	switch rule {
	case RuleSameDay:
		return 1
	case RuleBedAndBreakfast:
		return 2
	}
	return 4
}

// ruleLists holds the seven possible Rules lists, shared by every disposal (read-only).
var ruleLists = func() [8][]string {
	var out [8][]string
	for mask := 1; mask < 8; mask++ {
		for bit, name := range []string{RuleSameDay, RuleBedAndBreakfast, RuleSection104} {
			if mask&(1<<bit) != 0 {
				out[mask] = append(out[mask], name)
			}
		}
		out[mask] = slices.Clip(out[mask])
	}
	return out
}()

// rulesFor returns the rules of a mask in the order applied. The slice is shared: callers
// must not modify it.
func rulesFor(mask uint8) []string { return ruleLists[mask] }
