package engine

import (
	"github.com/cgt-tools/cgt/cgt/internal/fresh"
	"slices"

	"github.com/cgt-tools/cgt/cgt/model"
)

// leg is one identification step of a disposal while it is being built.
type leg struct {
	match Match
	qty   num
	cost  num
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
func (b *disposalBuilder) sameDay(q num) {
	d := b.d
	cost := mulDivNum(d.buyCost, q, d.buyQty)
	m := Match{Rule: RuleSameDay, Reference: RefSameDay, Sources: b.r.buySources(d)}
	m.AcquisitionDate, m.recipe = b.r.acquisition(d)
	b.legs = append(b.legs, leg{match: m, qty: q, cost: cost})
}

// bedAndBreakfast matches take shares of the disposal with used shares of a later
// acquisition (TCGA 1992 s106A(5)); num/den converts between them when a split came between.
func (b *disposalBuilder) bedAndBreakfast(a *day, take, used, sn, sd num) {
	cost := mulDivNum(a.buyCost, used, a.buyQty)
	m := Match{Rule: RuleBedAndBreakfast, Reference: RefBedAndBreakfast, Sources: b.r.buySources(a)}
	m.AcquisitionDate, m.recipe = b.r.acquisition(a)
	if !sn.isZero() { // used differs from take: both are shown, with the conversion
		u := b.r.arena.decimals.next()
		*u = used.quantity()
		m.AcquisitionQuantity = u
		split := b.r.arena.recipes.next()
		*split = *m.recipe
		split.split = &splitFactor{num: sn, den: sd}
		m.recipe = split
	}
	b.legs = append(b.legs, leg{match: m, qty: take, cost: cost})
}

// section104 takes q shares from the pool at its average cost (TCGA 1992 s104).
func (b *disposalBuilder) section104(q num) {
	p := &b.r.pool
	before := *p
	cost := p.cost
	if q.cmp(p.qty) != 0 {
		cost = mulDivNum(p.cost, q, p.qty)
	}
	p.qty = p.qty.sub(q)
	p.cost = p.cost.sub(cost)
	if p.qty.isZero() {
		p.cost = num{}
	}
	ar := &b.r.arena
	avg := ar.decimals.next()
	*avg = before.cost.divRound(before.qty, avgPlaces).quantity()
	states := ar.states.take(2)
	states[0] = PoolState{Quantity: before.qty.quantity(), Cost: before.cost.money()}
	states[1] = PoolState{Quantity: p.qty.quantity(), Cost: p.cost.money()}
	m := Match{Rule: RuleSection104, Reference: RefSection104, AverageCost: avg,
		PoolBefore: &states[0], PoolAfter: &states[1]}
	b.legs = append(b.legs, leg{match: m, qty: q, cost: cost})
	b.r.recordOut(b.d, before, q, cost)
}

// recordOut records the pool leg of day d's disposal, q shares costing cost taken from the
// pool that stood at before: a sale, a transfer to a spouse, or both in turn when the day has
// both, each with its pro rata part (as spouseTransfer shares the legs).
func (r *tickerRun) recordOut(d *day, before pool, q, cost num) {
	switch {
	case d.spouseQty.isZero():
		r.record(r.entries[d.sellLo].t, EventSell, q.negate(), cost.negate())
		return
	case d.sellQty.isZero():
		r.recordRef(r.entries[d.outLo].t, EventSpouseOut, RefSpouse, q.negate(), cost.negate())
		return
	}
	out := d.outQty()
	qs, cs := mulDivNum(q, d.spouseQty, out), mulDivNum(cost, d.spouseQty, out)
	final := r.pool
	r.pool = pool{qty: before.qty.sub(q.sub(qs)), cost: before.cost.sub(cost.sub(cs))}
	r.record(r.entries[d.sellLo].t, EventSell, q.sub(qs).negate(), cost.sub(cs).negate())
	r.pool = final
	r.recordRef(r.entries[d.outLo].t, EventSpouseOut, RefSpouse, qs.negate(), cs.negate())
}

// avgPlaces is the precision of reported average costs per share.
const avgPlaces = 6

// finish shares the proceeds and fees among the legs (the last leg takes the remainder, so
// the legs add up exactly) and totals the disposal into out.
func (b *disposalBuilder) finish(out *Disposal) {
	d := b.d
	first := b.r.entries[d.sellLo].t
	// every field of out is set, here and below, one by one: building a Disposal value first
	// and copying it in would write the whole struct twice
	out.Date, out.Ticker, out.Quantity = d.date, b.r.ticker, d.sellQty.quantity()
	out.Proceeds, out.SaleFees = d.gross.money(), d.fees.money()
	out.Source, out.Sources = sourceRef(first.Source), b.r.sources(d.sellLo, d.sellHi)
	out.Original = b.r.original(d)
	out.Matches = b.r.arena.matches.take(len(b.legs))
	var cost, proceedsLeft, feesLeft num = num{}, d.gross, d.fees
	var gain num // of the last leg, which is the disposal's gain when there is one leg
	var mask uint8
	for k := range b.legs {
		l := &b.legs[k]
		proceeds, fees := proceedsLeft, feesLeft
		if k < len(b.legs)-1 {
			proceeds = mulDivNum(d.gross, l.qty, d.sellQty)
			fees = mulDivNum(d.fees, l.qty, d.sellQty)
			proceedsLeft, feesLeft = proceedsLeft.sub(proceeds), feesLeft.sub(fees)
		}
		m := &out.Matches[k]
		*m = l.match
		m.Quantity = l.qty.quantity()
		m.Proceeds, m.SaleFees, m.Cost = proceeds.money(), fees.money(), l.cost.money()
		gain = proceeds.sub(fees).sub(l.cost)
		m.Gain = gain.money()
		m.disposal = out
		cost = addNZ(cost, l.cost)
		mask |= ruleBit(m.Rule)
	}
	out.IdentifiedCost = cost.money()
	allowable := addNZ(cost, d.fees)
	out.AllowableCost = allowable.money()
	total := d.gross.sub(allowable)
	if len(b.legs) != 1 || !total.sameAs(gain) {
		gain = total
	}
	out.Gain = gain.money()
	out.Rules = rulesFor(mask)
}

// acquisition returns a day's acquisition date and totals for the matches with it, once per
// day: every match with that day shares them (read-only).
func (r *tickerRun) acquisition(d *day) (*model.Date, *stepRecipe) {
	if d.acq == nil {
		d.acq = r.arena.recipes.next()
		*d.acq = stepRecipe{acqQty: d.buyQty, acqCost: d.buyCost, date: d.date}
	}
	return &d.acq.date, d.acq
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
	out := r.arena.sources.take(int(hi - lo))[:0]
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
		foreign = foreign || !isGBP(t.Price) || !isGBP(t.Fees) || !isGBP(t.Total)
	}
	if !foreign {
		return nil
	}
	out := make([]TradeLine, 0, d.sellHi-d.sellLo)
	for k := d.sellLo; k < d.sellHi; k++ {
		t := r.entries[k].t
		c, currency := considerationOf(t, numOfDecimal(t.Quantity))
		gross := model.Amount{Value: c.quantity(), Currency: currency}
		price := t.Price
		if currency != t.Price.Currency || price.Value.IsZero() {
			// the total form: the price per share is information only, rounded (docs/tax-rules.md)
			price = model.Amount{Value: c.divRound(numOfDecimal(t.Quantity), fxPlaces).quantity(), Currency: currency}
		}
		out = append(out, TradeLine{Quantity: t.Quantity, Price: r.conv.converted(t, price),
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

// arena hands out the small objects of one ticker's report (match legs, pool states, step
// recipes, source lists) from shared blocks, so that a disposal costs a few allocations per
// block rather than several of its own. The report keeps the blocks alive.
type arena struct {
	matches  block[Match]
	states   block[PoolState]
	decimals block[model.Decimal]
	recipes  block[stepRecipe]
	sources  block[SourceRef]
}

// blockSize is the most values a block holds; blocks start small and double up to it, so a
// ticker with few disposals reserves little.
const blockSize = 128

// block is a run of values handed out in slices; a new block starts when one is full.
type block[T any] struct{ buf []T }

// take returns n zero values, as a slice with no spare capacity (appending to it cannot
// reach a neighbour).
func (b *block[T]) take(n int) []T {
	if n > cap(b.buf)-len(b.buf) {
		b.buf = make([]T, 0, max(n, min(2*cap(b.buf), blockSize), 4))
		if !fresh.Reserved() { // reserved pages are mapped already, and make zeroed them
			clear(b.buf[:cap(b.buf)]) // map its pages for writing now (see package fresh)
		}
	}
	lo := len(b.buf)
	b.buf = b.buf[:lo+n]
	return b.buf[lo : lo+n : lo+n]
}

// next returns a pointer to one zero value.
func (b *block[T]) next() *T { return &b.take(1)[0] }
