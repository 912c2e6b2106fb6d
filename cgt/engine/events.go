package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/internal/order"
)

// smallLimit is the amount of a capital distribution that is small whatever its share of the
// holding's value (CG57835, CG57836: £3,000 or less).
var smallLimit = numInt(3000)

// small reports whether a distribution a is small beside the value b of the holding after it:
// £3,000 or less, or 5% or less of the value before it, a + b (CG57835).
func small(a, b num) bool {
	return a.cmp(smallLimit) <= 0 || (b.sign() > 0 && a.mul(numInt(20)).cmp(a.add(b)) <= 0)
}

// joinPool adds an opening holding (POOL) or rights shares taken up (RIGHTS) to the Section 104
// pool. Neither is an acquisition for the same-day or 30-day rules: the pool holds them from
// the start of the day. (Shares from a spouse are an acquisition: see addToDay.)
func (r *tickerRun) joinPool(e *entry) error {
	t := e.t
	event, ref := EventPool, RefPool
	switch t.Action {
	case model.Rights:
		if r.held.sign() <= 0 {
			return eventNoHolding(t, t.Date.String()+" RIGHTS "+t.Ticker+" 20 @ 3.50")
		}
		event, ref = EventRights, RefRights
	default:
		if t.Date == model.NewDate(1982, 3, 31) {
			ref = RefRebasing
		}
	}
	r.pool.qty = r.pool.qty.add(e.qty)
	r.pool.cost = r.pool.cost.add(e.value)
	r.held = r.held.add(e.qty)
	r.recordRef(t, event, ref, e.qty, e.value)
	return nil
}

// receive adds the shares of a takeover or demerger, with the cost the old ticker passed on.
func (r *tickerRun) receive(e *entry) {
	t := e.t
	event, ref := EventTakeover, RefTakeover
	if t.Action == model.Demerger {
		event, ref = EventDemerger, RefDemerger
	}
	r.pool.qty = r.pool.qty.add(e.qty)
	r.pool.cost = r.pool.cost.add(e.value)
	r.held = r.held.add(e.qty)
	r.recordRef(t, event, ref, e.qty, e.value)
}

// transfer notes the cost a TAKEOVER or DEMERGER line passes to its new ticker.
func (r *tickerRun) transfer(t *model.Transaction, cost num) {
	if r.out.transfers == nil {
		r.out.transfers = map[*model.Transaction]num{}
	}
	r.out.transfers[t] = cost
}

// takeover exchanges the whole holding for the new shares (s127, s135). Cash received as well
// is a capital distribution (s128(3)): when small it reduces the cost (s122(2)), otherwise it
// is a part disposal with cost × A ÷ (A + B), B the value of the new shares.
func (r *tickerRun) takeover(e *entry) error {
	t := e.t
	if r.pool.qty.sign() <= 0 {
		return eventNoHolding(t, t.Date.String()+" TAKEOVER "+t.Ticker+" "+t.NewTicker()+" 50")
	}
	if a, b := e.value, e.extra; a.sign() > 0 {
		switch {
		case small(a, b):
			if a.cmp(r.pool.cost) > 0 {
				return aboveCostError(t, "cash of", a, r.pool.cost)
			}
			r.pool.cost = r.pool.cost.sub(a)
			r.recordRef(t, EventTakeoverCash, RefTakeoverCash, num{}, a.negate())
		case b.isZero():
			e := lineError(t, fmt.Sprintf("TAKEOVER %s %s on %s: the cash of £%s is more than £3,000, so it may be a part disposal, "+
				"which needs VALUE, the market value of the new shares", t.Ticker, t.NewTicker(), t.Date, a.money()),
				"add VALUE with the market value of the new shares received (on the first day they are quoted); cash of 5% or less of "+
					"the whole value is then deducted from cost (CG57836), more is a part disposal (TCGA92 s128(3), s122)",
				t.Date.String()+" TAKEOVER "+t.Ticker+" "+t.NewTicker()+" 50 CASH "+t.Cash().Value.String()+" VALUE 25000")
			e.Context["cash"] = a.money().String()
			return e
		default:
			if err := r.partDisposal(t, a, num{}, b, RefTakeoverCash); err != nil {
				return err
			}
		}
	}
	qty, moved := r.pool.qty, r.pool.cost
	r.pool, r.held = pool{}, num{}
	r.recordRef(t, EventTakeover, RefTakeover, qty.negate(), moved.negate())
	r.transfer(t, moved)
	return nil
}

// demerge passes the stated fraction of the parent's cost to the demerged shares (s192 with
// s127–s130); the parent keeps its shares and the rest of the cost.
func (r *tickerRun) demerge(e *entry) error {
	t := e.t
	if r.pool.qty.sign() <= 0 {
		return eventNoHolding(t, t.Date.String()+" DEMERGER "+t.Ticker+" "+t.NewTicker()+" 50 RATIO 0.25")
	}
	moved := r.pool.cost.mul(numOfDecimal(t.Ratio()))
	r.pool.cost = r.pool.cost.sub(moved)
	r.recordRef(t, EventDemerger, RefDemerger, num{}, moved.negate())
	r.transfer(t, moved)
	return nil
}

// capReturn applies a CAPRETURN. With VALUE (the market value of the holding after it) it is
// a capital distribution (s122): small, it reduces the cost; otherwise it is a part disposal.
// Without VALUE it reduces the cost (equalisation, return of capital: CG57705), with a warning
// when it is over £3,000.
func (r *tickerRun) capReturn(e *entry) error {
	t := e.t
	if e.value.isZero() {
		return nil
	}
	if r.held.sign() <= 0 {
		return noHoldingError(t)
	}
	a, err := r.conv.gbpNum(t, numOfDecimal(t.Total.Value), t.Total.Currency)
	if err != nil {
		return err
	}
	b := e.extra
	if b.sign() > 0 && !small(a, b) {
		return r.partDisposal(t, a, a.sub(e.value), b, RefCapitalDist)
	}
	if e.value.cmp(r.pool.cost) > 0 {
		return capReturnAboveCostError(t, e.value.decimal(), r.pool.cost.decimal())
	}
	ref := ""
	if b.sign() > 0 {
		ref = RefCapitalDist + "(2)"
	} else if a.cmp(smallLimit) > 0 {
		r.out.warnings = append(r.out.warnings, fmt.Sprintf("CAPRETURN %s on %s of £%s was deducted from the cost (CG57705); "+
			"if it is a capital distribution (TCGA92 s122) of more than 5%% of the holding's value it is a part disposal: "+
			"add VALUE with the market value of the holding after it", r.ticker, t.Date, a.money()))
	}
	r.pool.cost = r.pool.cost.sub(e.value)
	r.recordRef(t, EventCapReturn, ref, num{}, e.value.negate())
	return nil
}

// partDisposal makes a capital distribution a of the pool a part disposal (s122(1)): the cost
// of the part disposed of is cost × a ÷ (a + b), b the market value of what remains (s42).
// The shares stay in the pool; its cost falls by the part's cost.
func (r *tickerRun) partDisposal(t *model.Transaction, a, fees, b num, ref string) error {
	if !taxyear.InScope(t.Date) {
		return beforeScopeError(t, r.ticker)
	}
	before := r.pool
	part := mulDivNum(before.cost, a, a.add(b))
	r.pool.cost = before.cost.sub(part)
	r.recordRef(t, EventPartDisposal, RefPartDisposal, num{}, part.negate())
	gain := a.sub(fees).sub(part)
	d := &Disposal{Date: t.Date, Ticker: r.ticker, Quantity: num{}.quantity(), Proceeds: a.money(), SaleFees: fees.money(),
		IdentifiedCost: part.money(), AllowableCost: addNZ(part, fees).money(), Gain: gain.money(),
		Rules: []string{RulePartDisposal}, Kind: KindCapitalDistribution, Reference: ref, Source: sourceRef(t.Source)}
	d.Sources = []SourceRef{d.Source}
	what := "capital distribution"
	if t.Action == model.Takeover {
		what = "cash received on the takeover by " + t.NewTicker()
	}
	pb := PoolState{Quantity: before.qty.quantity(), Cost: before.cost.money()}
	pa := PoolState{Quantity: r.pool.qty.quantity(), Cost: r.pool.cost.money()}
	d.Matches = []Match{{Rule: RulePartDisposal, Reference: RefPartDisposal, Quantity: d.Quantity,
		Proceeds: d.Proceeds, SaleFees: d.SaleFees, Cost: d.IdentifiedCost, Gain: d.Gain,
		PoolBefore: &pb, PoolAfter: &pa, disposal: d,
		Steps: []string{
			what + " A = " + gbp(a.money()) + " on " + shares(pb.Quantity) + " costing " + gbp(pb.Cost) + " (" + ref + ")",
			"B = market value of the holding after it (VALUE) = " + gbp(b.money()) +
				"; A is more than £3,000 and more than 5% of A + B, so it is a part disposal (CG57835)",
			"cost = " + gbp(pb.Cost) + " × A ÷ (A + B) = " + gbp(pb.Cost) + " × " + gbp(a.money()) + " ÷ " +
				gbp(a.add(b).money()) + " = " + gbp(d.IdentifiedCost) + " (" + RefPartDisposal + ")",
			"pool after: " + shares(pa.Quantity) + " costing " + gbp(pa.Cost),
			"gain = " + gbp(d.Proceeds) + " − " + gbp(d.SaleFees) + " − " + gbp(d.IdentifiedCost) + " = " + gbp(d.Gain),
		}}}
	r.out.extra = append(r.out.extra, d)
	return nil
}

// spouseTransfer takes the part of day d's disposal transferred to a spouse or civil partner
// out of the builder's legs and lists it as a transfer at no gain and no loss (s58): the
// transfer is identified like any disposal (s105, s106A), and its cost, the cost of the shares
// identified with it, becomes the transferee's. When the day also has sales, each leg is
// shared pro rata to quantity (the transfer's part of the last leg takes what is left of its
// shares, so the parts add up exactly) and the sale keeps the rest.
func (r *tickerRun) spouseTransfer(b *disposalBuilder) {
	d := b.d
	t := r.entries[d.outLo].t
	out, whole := d.outQty(), d.sellQty.isZero()
	legs := make([]leg, len(b.legs))
	left := d.spouseQty
	for k := range b.legs {
		l := &b.legs[k]
		if whole {
			legs[k] = *l
			continue
		}
		q := mulDivNum(l.qty, d.spouseQty, out)
		if k == len(b.legs)-1 {
			q = left
		}
		left = left.sub(q)
		c := mulDivNum(l.cost, q, l.qty)
		part := leg{match: l.match, qty: q, cost: c}
		if aq := l.match.AcquisitionQuantity; aq != nil { // across a split: the acquisition's shares too
			all := numOfDecimal(*aq)
			mine := mulDivNum(all, q, l.qty)
			pa, sa := r.arena.decimals.next(), r.arena.decimals.next()
			*pa, *sa = mine.quantity(), all.sub(mine).quantity()
			part.match.AcquisitionQuantity, l.match.AcquisitionQuantity = pa, sa
		}
		l.qty, l.cost = l.qty.sub(q), l.cost.sub(c)
		legs[k] = part
	}
	if whole {
		b.legs = b.legs[:0]
	}
	var cost num
	var mask uint8
	for _, l := range legs {
		cost = addNZ(cost, l.cost)
		mask |= ruleBit(l.match.Rule)
	}
	zero := num{}.money()
	disp := &Disposal{Date: d.date, Ticker: r.ticker, Quantity: d.spouseQty.quantity(), Proceeds: cost.money(), SaleFees: zero,
		IdentifiedCost: cost.money(), AllowableCost: cost.money(), Gain: zero, Rules: rulesFor(mask),
		Kind: KindSpouseTransfer, Reference: RefSpouse, Source: sourceRef(t.Source), Sources: r.sources(d.outLo, d.outHi)}
	disp.Matches = make([]Match, len(legs))
	for k, l := range legs {
		m := &disp.Matches[k]
		*m = l.match
		m.Quantity, m.Proceeds, m.SaleFees, m.Cost, m.Gain = l.qty.quantity(), l.cost.money(), zero, l.cost.money(), zero
		m.disposal = &Disposal{Quantity: m.Quantity} // the leg's own cost lines, without a share of proceeds
		lines := m.lines()
		steps := make([]string, 0, len(lines)+1)
		if k == 0 {
			steps = append(steps, "transfer to a spouse or civil partner: no gain, no loss ("+RefSpouse+"); the shares transferred are "+
				"identified as for any disposal (same day, then the next 30 days, then the pool: TCGA92/S105, S106A), and their cost is the transferee's cost")
			if !whole {
				steps = append(steps, "the day's sales and transfers are one disposal of "+shares(out.quantity())+" (TCGA92/S105(1)(a)): each rule's shares "+
					"are shared between them pro rata, "+shares(disp.Quantity)+" of "+shares(out.quantity())+" to the transfer")
			}
		}
		steps = append(steps, lines[:len(lines)-1]...)
		steps = append(steps, "deemed proceeds = cost = "+gbp(m.Cost)+", so gain = £0.00")
		m.Steps, m.disposal = steps, disp
	}
	r.out.extra = append(r.out.extra, disp)
}

// spouseOverError reports a transfer to a spouse of more shares than are held.
func spouseOverError(t *model.Transaction, ticker string, q, held num) error {
	err := lineError(t, fmt.Sprintf("SPOUSEOUT %s on %s: %s shares transferred but only %s held", ticker, t.Date, q.quantity(), held.quantity()),
		"check for a missing BUY or a wrong quantity", t.Date.String()+" SPOUSEOUT "+t.Ticker+" 10")
	err.Context["quantity_held"] = held.quantity().String()
	return err
}

// negligible applies a negligible value claim (TCGA92 s24(2); CG13120–CG13135): the shares
// held are treated as sold for the value claimed and immediately reacquired for it. The
// deemed sale is identified with the Section 104 pool alone and the reacquisition goes
// straight into it: neither is an acquisition or disposal for the same-day or 30-day rules,
// so no trade is matched with either. The loss (or gain) arises on the claim's date; the pool
// keeps its shares at the claimed value.
func (r *tickerRun) negligible(e *entry) error {
	t, v := e.t, e.value
	q := minNum(r.held, r.pool.qty)
	if q.sign() <= 0 {
		return eventNoHolding(t, t.Date.String()+" NEGLIGIBLE "+t.Ticker)
	}
	if !taxyear.InScope(t.Date) {
		return lineError(t, fmt.Sprintf("NEGLIGIBLE %s on %s: a claim before 6 April 2008 is outside the rules this calculator applies", r.ticker, t.Date),
			"date the claim on or after 6 April 2008", "2024-11-20 NEGLIGIBLE "+t.Ticker)
	}
	before := r.pool
	c := before.cost
	if q.cmp(before.qty) != 0 {
		c = mulDivNum(before.cost, q, before.qty)
	}
	r.pool.cost = before.cost.sub(c).add(v)
	r.recordRef(t, EventNegligible, RefNegligible, num{}, v.sub(c))
	gain := v.sub(c)
	zero := num{}.money()
	d := &Disposal{Date: t.Date, Ticker: r.ticker, Quantity: q.quantity(), Proceeds: v.money(), SaleFees: zero,
		IdentifiedCost: c.money(), AllowableCost: c.money(), Gain: gain.money(), Rules: rulesFor(ruleBit(RuleSection104)),
		Kind: KindNegligible, Reference: RefNegligible, Source: sourceRef(t.Source)}
	d.Sources = []SourceRef{d.Source}
	pb := PoolState{Quantity: before.qty.quantity(), Cost: before.cost.money()}
	pa := PoolState{Quantity: r.pool.qty.quantity(), Cost: r.pool.cost.money()}
	avg := before.cost.divRound(before.qty, avgPlaces).quantity()
	costLine := "cost = the whole pool's cost = " + gbp(d.IdentifiedCost)
	if q.cmp(before.qty) != 0 {
		costLine = "cost = " + shares(d.Quantity) + " × " + gbp(pb.Cost) + " ÷ " + shares(pb.Quantity) + " = " + gbp(d.IdentifiedCost)
	}
	d.Matches = []Match{{Rule: RuleSection104, Reference: RefSection104, Quantity: d.Quantity, Proceeds: d.Proceeds,
		SaleFees: zero, Cost: d.IdentifiedCost, Gain: d.Gain, PoolBefore: &pb, PoolAfter: &pa, AverageCost: &avg, disposal: d,
		Steps: []string{
			"negligible value claim (" + RefNegligible + "): the " + shares(d.Quantity) + " held are treated as sold on " + t.Date.String() +
				" for the value claimed, " + gbp(d.Proceeds) + ", and immediately reacquired for it; neither the deemed sale nor the " +
				"reacquisition is matched with any trade by the same-day or 30-day rules",
			"Section 104 pool before: " + shares(pb.Quantity) + " costing " + gbp(pb.Cost) + " (" + RefSection104 + ")",
			costLine,
			"pool after, with the shares reacquired at " + gbp(d.Proceeds) + ": " + shares(pa.Quantity) + " costing " + gbp(pa.Cost),
			"gain = " + gbp(d.Proceeds) + " − £0.00 − " + gbp(d.IdentifiedCost) + " = " + gbp(d.Gain),
		}}}
	r.out.extra = append(r.out.extra, d)
	result := "a loss of £" + gain.negate().money().String()
	if gain.sign() >= 0 {
		result = "a gain of £" + d.Gain.String()
	}
	r.out.warnings = append(r.out.warnings, fmt.Sprintf("NEGLIGIBLE %s on %s: the deemed sale gives %s, counted in %s; it stands only "+
		"if HMRC receives the claim (with the return or in writing, naming the shares, the value and the date: CG13135), and a date before the "+
		"claim may be at most two tax years before the start of the tax year in which it is made (TCGA92 s24(2)(b), CG13130)",
		r.ticker, t.Date, result, taxyear.For(t.Date).Period()))
	return nil
}

// excessReportableIncome adds an offshore reporting fund's excess reportable income to the
// cost of the units held at the end of its reporting period (reg 94, reg 99(2)–(4)). QUANTITY
// is the units held then; any more than are held on the ERI date were disposed of since, and
// their share is added to the cost of those disposals, the most recent first within the six
// months before the ERI date (reg 99(5)).
func (r *tickerRun) excessReportableIncome(e *entry) error {
	t, units, eri := e.t, e.qty, e.value
	if eri.isZero() {
		return nil
	}
	toPool := eri
	if excess := units.sub(r.held); excess.sign() > 0 {
		from := model.Date(t.Date.Time().AddDate(0, -6, 0).Unix() / 86400)
		for k := len(r.done) - 1; k >= 0 && excess.sign() > 0 && r.done[k].Date >= from; k-- {
			d := r.done[k]
			take := minNum(excess, numOfDecimal(d.Quantity))
			share := mulDivNum(eri, take, units)
			amendCost(d, share, t)
			r.out.warnings = append(r.out.warnings, fmt.Sprintf("ERI %s on %s: £%s of the excess reportable income is for %s units disposed of on %s "+
				"and is added to that disposal's allowable cost (SI 2009/3001 reg 99(5)); the disposal is amended",
				r.ticker, t.Date, share.money(), take.quantity(), d.Date))
			excess = excess.sub(take)
			toPool = toPool.sub(share)
		}
		if excess.sign() > 0 {
			err := lineError(t, fmt.Sprintf("ERI %s on %s is for %s units, but %s are held and the disposals of the six months before account for no more",
				r.ticker, t.Date, units.quantity(), r.held.quantity()),
				"QUANTITY is the units held at the end of the fund's reporting period; check it, and the disposals since",
				t.Date.String()+" ERI "+t.Ticker+" 100 TOTAL 12.34")
			err.Context["quantity_held"] = r.held.quantity().String()
			return err
		}
	}
	if toPool.sign() > 0 {
		r.pool.cost = r.pool.cost.add(toPool)
		r.recordRef(t, EventERI, RefERI, num{}, toPool)
	}
	r.writtenERI(t, units, eri, eri.sub(toPool))
	return nil
}

// writtenERI lists an ERI line and counts it as income of the year of its date.
func (r *tickerRun) writtenERI(t *model.Transaction, units, gbp, toDisposals num) {
	src := sourceRef(t.Source)
	row := ExcessIncome{Ticker: r.ticker, ISIN: t.ISIN, DistributionDate: t.Date, TaxYear: taxyear.For(t.Date).Period(),
		Currency: model.GBP, Units: units.quantity(), Amount: gbp.quantity(), GBP: gbp.money(), Origin: OriginLedger, Source: &src, ToDisposals: toDisposals.money()}
	if !isGBP(t.Total) {
		row.Currency, row.Amount = t.Total.Currency, t.Total.Value
		if rate, err := r.conv.rate(t, t.Total.Currency); err == nil {
			row.Rate = rate.Text()
		}
	}
	if row.ISIN == "" {
		row.ISIN = r.isin // the security's, whether or not the bundled table has the fund
	}
	r.out.incomes = append(r.out.incomes, income{date: t.Date, eri: true, foreign: true, amount: gbp, ticker: r.ticker, src: t.Source})
	r.out.eri = append(r.out.eri, row)
}

// amendCost adds an amount received after a disposal to its allowable cost.
func amendCost(d *Disposal, amount num, t *model.Transaction) {
	d.Adjustments = append(d.Adjustments, Adjustment{
		Reason:    "excess reportable income for the units disposed of, treated as received before the disposal (ERI on " + t.Date.String() + ")",
		Reference: RefERIAfterSale, Cost: amount.money(), Source: sourceRef(t.Source)})
	d.AllowableCost = numOfMoney(d.AllowableCost).add(amount).money()
	d.Gain = numOfMoney(d.Gain).sub(amount).money()
}

// isCorporateAction reports whether an action is a corporate action, which a ledger and a
// broker export may both give (see repeated).
func isCorporateAction(a model.Action) bool {
	switch a {
	case model.Split, model.Unsplit, model.CapReturn, model.Rights, model.Takeover, model.Demerger, model.ERI:
		return true
	}
	return false
}

// repeated reports whether t gives again, from another file, a corporate action among the
// entries kept so far on its date (same kind, tickers and figures); it is then applied once,
// with a warning (written by the ticker the line belongs to).
//
// It looks back over at most maxRepeatScan entries of the date: a day with more corporate
// actions of one security than that is no real history (a generated chain of SPLIT lines), and
// without the cap each line of such a day would compare itself with every line before it.
func (c *calc) repeated(kept []entry, t *model.Transaction, res *tickerResult) bool {
	for k := len(kept) - 1; k >= 0 && k >= len(kept)-maxRepeatScan && kept[k].t.Date == t.Date; k-- {
		o := kept[k].t
		if o.Action != t.Action || o.Source.File == t.Source.File || !c.sameAction(o, t) {
			continue
		}
		if c.ident.name(res.history.Ticker) == c.ident.name(t.Ticker) {
			res.warnings = append(res.warnings, fmt.Sprintf("%s %s on %s is given in %s and again in %s: applied once",
				t.Action, c.ident.name(t.Ticker), t.Date, where(o.Source), where(t.Source)))
		}
		return true
	}
	return false
}

// maxRepeatScan is how many of a date's entries repeated compares a corporate action with.
const maxRepeatScan = 256

// sameAction compares two corporate action lines' tickers and figures.
func (c *calc) sameAction(a, b *model.Transaction) bool {
	same := func(x, y model.Decimal) bool { return numOfDecimal(x).equal(numOfDecimal(y)) }
	amt := func(x, y model.Amount) bool {
		return same(x.Value, y.Value) && (x.Currency == y.Currency || isGBP(x) && isGBP(y))
	}
	return c.ident.name(a.Ticker) == c.ident.name(b.Ticker) && c.ident.name(a.NewTicker()) == c.ident.name(b.NewTicker()) &&
		same(a.Quantity, b.Quantity) && same(a.Ratio(), b.Ratio()) && amt(a.Price, b.Price) && amt(a.Total, b.Total) &&
		amt(a.Fees, b.Fees) && amt(a.Cash(), b.Cash()) && amt(a.Value(), b.Value())
}

// where names a ledger line for a message.
func where(s model.Source) string {
	f := s.File
	if f == "" {
		f = "the inline ledger"
	}
	if s.Line > 0 {
		return fmt.Sprintf("%s line %d", f, s.Line)
	}
	return fmt.Sprintf("%s item %d", f, s.Index)
}

// stagesOf orders the tickers when a TAKEOVER or DEMERGER passes shares from one to another:
// a ticker is worked through after every ticker that passes it shares. It returns nil when
// no line does, and an error when the lines pass shares round in a circle.
func stagesOf(txns []model.Transaction, led *ledger, shards []shard) ([][]int32, error) {
	type edge struct{ i, from, to int32 }
	var edges []edge
	for w := range shards {
		for _, c := range shards[w].cross {
			from := led.of[c.i]
			if from == c.to {
				t := &txns[c.i]
				return nil, lineError(t, fmt.Sprintf("%s %s %s: both tickers are the same security", t.Action, t.Ticker, t.NewTicker()),
					"name the security given up and the one received; if they are one security, no TAKEOVER is needed",
					t.Date.String()+" TAKEOVER OLDCO NEWCO 50")
			}
			edges = append(edges, edge{c.i, from, c.to})
		}
	}
	if len(edges) == 0 {
		return nil, nil
	}
	order.Sort(edges, func(a, b edge) int { return cmp.Compare(a.i, b.i) })
	stage := make([]int32, len(led.tickers))
	for round := 0; ; round++ {
		changed := -1
		for k, e := range edges {
			if stage[e.to] < stage[e.from]+1 {
				stage[e.to] = stage[e.from] + 1
				changed = k
			}
		}
		if changed < 0 {
			break
		}
		if round > len(edges) {
			t := &txns[edges[changed].i]
			return nil, lineError(t, fmt.Sprintf("%s %s %s on %s: takeovers and demergers pass shares from %s back to itself",
				t.Action, t.Ticker, t.NewTicker(), t.Date, t.Ticker),
				"a ticker reused for a different security needs a name of its own (say OLDCO-2010) in the lines about the later one",
				t.Date.String()+" TAKEOVER OLDCO NEWCO 50")
		}
	}
	out := make([][]int32, slices.Max(stage)+1)
	for i, s := range stage {
		out[s] = append(out[s], int32(i))
	}
	return out, nil
}

// route merges the disposals made by events into the report's, in date then ticker order,
// and sends those that are not chargeable gains or allowable losses to their own lists:
// transfers to a spouse, disposals of exempt securities and gains on non-reporting funds
// (offshore income gains). A loss on a non-reporting fund stays: it is no offshore income
// gain (SI 2009/3001 reg 42; OFM15100) but an allowable capital loss. It returns the
// disposals the tax years total, and sets the report's warnings and excluded transactions.
func (c *calc) route(rep *Report) []Disposal {
	var extra []*Disposal
	if c.ident != nil {
		rep.Warnings = append(rep.Warnings, c.ident.warnings...)
		rep.Excluded = c.ident.excluded
	}
	for i := range c.results {
		extra = append(extra, c.results[i].extra...)
		rep.Warnings = append(rep.Warnings, c.results[i].warnings...)
	}
	all := c.place.all
	apart := c.ident != nil && len(c.ident.exempt)+len(c.ident.nonReporing) > 0
	if len(extra) == 0 && !apart {
		return all
	}
	order.HotStable(extra, func(a, b *Disposal) int { return compareDisposals(a, b) })
	out := make([]Disposal, 0, len(all)+len(extra))
	send := func(d *Disposal) {
		switch {
		case d.Kind == KindSpouseTransfer:
			rep.NoGainNoLoss = append(rep.NoGainNoLoss, *d)
		case apart && c.ident.exempt[d.Ticker]:
			d.Reference = RefExempt
			rep.ExemptDisposals = append(rep.ExemptDisposals, *d)
		case apart && c.ident.nonReporing[d.Ticker] && numOfMoney(d.Gain).sign() < 0:
			// a loss is no offshore income gain (reg 42): it is an allowable capital loss
			d.Reference = RefOffshoreLoss
			out = append(out, *d)
		case apart && c.ident.nonReporing[d.Ticker]:
			d.Reference = RefOffshoreIncome
			rep.OffshoreIncomeGains = append(rep.OffshoreIncomeGains, *d)
		default:
			out = append(out, *d)
		}
	}
	j := 0
	for i := range all {
		for j < len(extra) && compareDisposals(extra[j], &all[i]) < 0 {
			send(extra[j])
			j++
		}
		send(&all[i])
	}
	for ; j < len(extra); j++ {
		send(extra[j])
	}
	return out
}

// compareDisposals orders disposals by date, then ticker, then ledger line.
func compareDisposals(a, b *Disposal) int {
	if c := cmp.Compare(a.Date, b.Date); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Ticker, b.Ticker); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Source.File, b.Source.File); c != 0 {
		return c
	}
	return cmp.Compare(a.Source.Line, b.Source.Line)
}

// eventNoHolding reports an event that needs shares held on its date.
func eventNoHolding(t *model.Transaction, example string) error {
	return lineError(t, fmt.Sprintf("%s %s on %s: no shares of %s are held on that date", t.Action, t.Ticker, t.Date, t.Ticker),
		"check the date and ticker; the event applies to shares held going into its date", example)
}

// aboveCostError reports a small distribution larger than the cost it would be deducted from.
func aboveCostError(t *model.Transaction, what string, amount, cost num) error {
	e := lineError(t, fmt.Sprintf("%s %s on %s: %s £%s is more than the £%s cost of the shares held; the election of "+
		"TCGA92 s122(4) (CG57847) is not supported", t.Action, t.Ticker, t.Date, what, amount.money(), cost.money()),
		"check the amount; if it is right, work the disposal out by hand (CG57847)", t.Date.String()+" TAKEOVER OLDCO NEWCO 50 CASH 100")
	e.Context["amount"] = amount.money().String()
	e.Context["pool_cost"] = cost.money().String()
	return e
}
