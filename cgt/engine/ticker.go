package engine

import (
	"fmt"
	"slices"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// bnbWindow is the 30-day rule's reach: an acquisition on day D+30 is inside, D+31 outside.
const bnbWindow = 30

// ThirtyDayWindow is the reach of the 30-day rule (TCGA92 s106A(5)) for a disposal on d: an
// acquisition up to last is matched with it, and from firstOutside one is not.
func ThirtyDayWindow(d model.Date) (last, firstOutside model.Date) {
	return d.AddDays(bnbWindow), d.AddDays(bnbWindow + 1)
}

// pool is a Section 104 holding: the shares not identified under the same-day or 30-day
// rules, at their total cost (TCGA 1992 s104).
type pool struct {
	qty, cost num
}

// income is one DIVIDEND or ACCUMULATION row, kept for the tax-year totals.
type income struct {
	_ model.NotComparable

	date         model.Date
	accumulation bool
	eri          bool // excess reportable income of an offshore reporting fund
	noISIN       bool // a pound dividend taken as UK for want of an ISIN (foreignDividend)
	foreign      bool // paid from abroad (foreignDividend)
	amount, tax  num
	ticker       string
	src          model.Source
}

// foreignDividend says whether a dividend comes from abroad: paid in a currency other than
// pounds, or on a security whose ISIN names another country — the line's own ISIN, else the
// security's (isin: declared by an ISIN line, labelled on another of its lines, or its
// name). A pound dividend on a security without an ISIN counts as UK; the ledger can say
// otherwise by giving the ISIN.
func foreignDividend(t *model.Transaction, isin string) bool {
	if t.Total.Currency != "" && t.Total.Currency != model.GBP {
		return true
	}
	if t.ISIN != "" {
		isin = t.ISIN
	}
	return len(isin) >= 2 && isin[:2] != "GB"
}

// dividend is the income of a DIVIDEND (or, accumulation, ACCUMULATION) line.
func (r *tickerRun) dividend(t *model.Transaction, e *entry, accumulation bool) income {
	in := income{date: t.Date, accumulation: accumulation, foreign: foreignDividend(t, r.isin), amount: e.value, tax: e.extra, ticker: r.ticker, src: t.Source}
	in.noISIN = !in.foreign && t.ISIN == "" && r.isin == ""
	return in
}

// tickerResult is everything one ticker contributes to the report.
type tickerResult struct {
	history PoolHistory
	pool    pool
	incomes []income
	// extra are the disposals made by events rather than SELL lines (part disposals, spouse
	// transfers), which have no place in the report's disposals until assemble merges them.
	extra []*Disposal
	// transfers is the cost each TAKEOVER or DEMERGER line of this ticker passes to its new
	// ticker, which is worked through in a later stage.
	transfers map[*model.Transaction]num
	warnings  []string
	// eri lists the excess reportable income applied to the holding.
	eri []ExcessIncome
	// notes are the checks' warnings about the ticker's lines, and unheld its SPLIT and
	// UNSPLIT lines applied with no shares held (guards.go); last is its last line's date.
	notes  []guardNote
	unheld []*model.Transaction
	last   model.Date
	err    error
}

// tickerRun is the state of one ticker's single pass through its days.
type tickerRun struct {
	ticker  string
	entries []entry
	days    []day
	pool    pool
	held    num // shares actually held (differs from the pool while a 30-day match is pending)
	conv    *converter
	out     *tickerResult
	builder disposalBuilder
	arena   arena
	events  []PoolEvent // the pool's history so far, in the worker's buffer
	// report and slots place the ticker's disposals: the k-th goes to report[slots[k]].
	report []Disposal
	slots  []int32
	// done lists the ticker's disposals so far, kept only when an ERI line may amend them.
	done      []*Disposal
	trackDone bool
	fund      *fundRun // bundled ERI of the holding; nil when none applies
	isin      string   // the security's ISIN, when the ledger gives one (calc.isinOf)
}

// runTicker identifies every disposal of ticker i, writing each into its place in the
// report (see placement), and records its pool's history.
// Its working slices come from, and go back to, sc.
func (c *calc) runTicker(i int, conv *converter, sc *scratch) tickerResult {
	ticker, idx := c.led.tickers[i], c.led.txns[i]
	res := tickerResult{history: PoolHistory{Ticker: ticker}}
	warm(c.txns, idx)
	sortEvents(c.txns, idx)
	es, err := c.convertEntries(int32(i), idx, conv, sc.entries, &res)
	if err != nil {
		res.err = err
		return res
	}
	r := &tickerRun{ticker: ticker, entries: es, days: buildDays(es, sc.days), conv: conv, out: &res,
		report: c.place.all, slots: c.place.slots[i], isin: c.isinOf(ticker)}
	sc.entries, sc.days = es, r.days
	if err := checkSplitDays(r.days); err != nil {
		res.err = err
		return res
	}
	bound, eri := eventBound(es, r.days)
	r.fund = c.fundFor(ticker, es)
	if r.fund != nil {
		bound += len(r.fund.figures)
		eri = true
	}
	r.events, r.trackDone = slices.Grow(sc.events[:0], bound), eri
	for i := range r.days {
		// One ticker's history can be long: a cancelled calculation stops within it too.
		if i&1023 == 1023 && c.ctx != nil && c.ctx.Err() != nil {
			res.err = c.ctx.Err()
			return res
		}
		if r.fund != nil {
			if err := r.fundsBefore(r.days[i].date, false); err != nil {
				res.err = err
				return res
			}
		}
		if err := r.processDay(i); err != nil {
			res.err = err
			return res
		}
	}
	if r.fund != nil {
		if err := r.fundsBefore(0, true); err != nil {
			res.err = err
			return res
		}
		r.missingWarning()
	}
	// The bound counts every day's purchase, most of which a large ledger matches rather than
	// pools: the history is kept at its length (a quarter of the bound on the generated
	// million-line ledger, 107 MB less) and the bound's storage serves the next ticker.
	res.history.Events = slices.Clone(r.events)
	sc.events = r.events[:0]
	res.pool = r.pool
	r.checkTrades()
	if len(es) > 0 {
		res.last = es[len(es)-1].t.Date
	}
	return res
}

// eventBound is the most pool events a ticker's days can record: at most two for each event
// line (a takeover with cash records the cash, then the exchange), and one for each day's
// acquisition and disposal. The history is written straight into a slice of that capacity.
// eri reports whether the ticker has an ERI line, which may amend earlier disposals.
func eventBound(es []entry, days []day) (n int, eri bool) {
	for k := range es {
		switch es[k].t.Action {
		case model.Buy, model.Sell, model.Dividend:
		case model.ERI:
			n, eri = n+1, true
		case model.Takeover, model.CapReturn:
			n += 2
		default:
			n++
		}
	}
	for k := range days {
		if days[k].buyQty.sign() > 0 {
			n++
		}
		if days[k].sellQty.sign() > 0 {
			n++
		}
	}
	return n, eri
}

// processDay applies one date's events in the documented order: splits, then the events that
// belong to the shares held going into the day (see rank), the day's disposal (its sales and
// transfers to a spouse), then whatever of the day's acquisition is left.
func (r *tickerRun) processDay(i int) error {
	d := &r.days[i]
	if d.hasSplit() {
		if err := r.applySplits(d); err != nil {
			return err
		}
	}
	for k := d.lo; k < d.hi; k++ {
		if err := r.applyAdjustment(&r.entries[k]); err != nil {
			return err
		}
	}
	if d.outQty().sign() > 0 {
		if err := r.dispose(i); err != nil {
			return err
		}
	}
	r.held = addNZ(r.held, d.buyQty)
	if d.avail.sign() > 0 {
		r.addToPool(d)
	}
	return nil
}

// applySplits rescales the pool and the holding; the cost does not change. A holding that
// would grow past maxSplitDigits is an error naming the line.
func (r *tickerRun) applySplits(d *day) error {
	for k := d.lo; k < d.hi; k++ {
		t := r.entries[k].t
		if t.Action != model.Split && t.Action != model.Unsplit {
			continue
		}
		if r.held.sign() <= 0 && r.pool.qty.sign() <= 0 {
			r.splitOfNothing(t)
		}
		before := r.pool.qty
		ratio := numOfDecimal(t.Ratio())
		if t.Action == model.Split {
			r.pool.qty = r.pool.qty.mul(ratio).shortened()
			r.held = r.held.mul(ratio).shortened()
		} else {
			r.pool.qty = r.pool.qty.divRound(ratio, divPlaces)
			r.held = r.held.divRound(ratio, divPlaces)
		}
		if n := max(r.pool.qty.writtenDigits(), r.held.writtenDigits()); n > maxSplitDigits {
			return splitTooLarge(t, "the holding of "+t.Ticker, n)
		}
		event := EventSplit
		if t.Action == model.Unsplit {
			event = EventUnsplit
		}
		r.record(t, event, r.pool.qty.sub(before), num{})
	}
	return nil
}

// applyAdjustment applies an event line that belongs to the shares held going into its day:
// an ACCUMULATION (adds to cost), a CAPRETURN, an opening POOL, a SPOUSEIN, RIGHTS, ERI, a
// TAKEOVER or DEMERGER (events.go); dividends are collected as income.
func (r *tickerRun) applyAdjustment(e *entry) error {
	t := e.t
	switch t.Action {
	case model.Dividend:
		r.out.incomes = append(r.out.incomes, r.dividend(t, e, false))
		return nil
	case model.Accumulation:
		if e.value.isZero() {
			return nil
		}
		if r.held.sign() <= 0 {
			return noHoldingError(t)
		}
		if numOfDecimal(t.Quantity).cmp(r.held) > 0 {
			r.accumulationAboveHolding(t, e.value)
		}
		r.out.incomes = append(r.out.incomes, r.dividend(t, e, true))
		r.pool.cost = r.pool.cost.add(e.value)
		r.record(t, EventAccumulation, num{}, e.value)
	case model.CapReturn:
		return r.capReturn(e)
	case model.Pool, model.Rights:
		return r.joinPool(e)
	case model.ERI:
		return r.excessReportableIncome(e)
	case model.Negligible:
		return r.negligible(e)
	case model.Takeover, model.Demerger:
		if e.in {
			r.receive(e)
			return nil
		}
		if t.Action == model.Takeover {
			return r.takeover(e)
		}
		return r.demerge(e)
	}
	return nil
}

// addToPool adds the day's unidentified acquisition to the Section 104 pool: its purchases,
// or, on a day with none, the shares received from a spouse.
func (r *tickerRun) addToPool(d *day) {
	cost := mulDivNum(d.buyCost, d.avail, d.buyQty)
	r.pool.qty = r.pool.qty.add(d.avail)
	r.pool.cost = r.pool.cost.add(cost)
	event, ref := EventSpouseIn, RefSpouse
	first := r.entries[d.buyLo].t
	for k := d.buyLo; k < d.buyHi; k++ {
		if t := r.entries[k].t; t.Action == model.Buy {
			event, ref, first = EventBuy, "", t
			break
		}
	}
	r.recordRef(first, event, ref, d.avail, cost)
	d.avail = num{}
}

// record appends a pool event with the pool as it now stands.
func (r *tickerRun) record(t *model.Transaction, event string, dq, dc num) {
	r.recordRef(t, event, "", dq, dc)
}

// recordRef is record with the statutory reference of the event.
func (r *tickerRun) recordRef(t *model.Transaction, event, ref string, dq, dc num) {
	r.events = append(r.events, PoolEvent{
		Reference:      ref,
		Date:           t.Date,
		Event:          event,
		QuantityChange: dq.quantity(),
		CostChange:     dc.money(),
		Quantity:       r.pool.qty.quantity(),
		Cost:           r.pool.cost.money(),
		Source:         sourceRef(t.Source),
	})
}

// sourceRef converts a transaction's source to the report's form.
func sourceRef(s model.Source) SourceRef {
	ref := SourceRef{File: s.File, Line: s.Line}
	if s.Line == 0 && s.Index >= 0 {
		i := s.Index
		ref.Index = &i
	}
	return ref
}

// dispose identifies the disposal of day i: same day first, then acquisitions in the next 30
// days earliest first, then the Section 104 pool. The day's sales and transfers to a spouse
// are one disposal for these rules (TCGA 1992 s105(1)(a)); its legs are then shared between
// them pro rata to quantity (see spouseTransfer).
func (r *tickerRun) dispose(i int) error {
	d := &r.days[i]
	out := d.outQty()
	sale := r.entries[d.sellLo].t
	if d.sellQty.isZero() {
		sale = r.entries[d.outLo].t
	} else if !taxyear.InScope(d.date) {
		return beforeScopeError(sale, r.ticker)
	}
	held := r.held.add(d.buyQty)
	if out.cmp(held) > 0 {
		if d.sellQty.isZero() {
			return spouseOverError(sale, r.ticker, out, held)
		}
		return oversellError(sale, r.ticker, out.decimal(), held.decimal())
	}
	b := r.builder.start(r, d)
	rest := out
	if sd := minNum(out, d.buyQty); sd.sign() > 0 {
		b.sameDay(sd)
		rest = rest.sub(sd)
	}
	if rest.sign() > 0 {
		rest = r.matchWithin30Days(b, i, rest)
	}
	if rest.sign() > 0 {
		if rest.cmp(r.pool.qty) > 0 { // cannot happen while held ≤ pool; kept as a guard
			return oversellError(sale, r.ticker, out.decimal(), held.decimal())
		}
		b.section104(rest)
	}
	r.held = r.held.sub(out) // processDay then adds the day's acquisition
	if d.spouseQty.sign() > 0 {
		r.spouseTransfer(b)
	}
	if d.sellQty.isZero() {
		return nil
	}
	dst := &r.report[r.slots[0]]
	b.finish(dst)
	r.slots = r.slots[1:]
	if r.trackDone {
		r.done = append(r.done, dst)
	}
	return nil
}

// matchWithin30Days identifies up to rest shares of day i's disposal with acquisitions in
// the following 30 days, earliest first (TCGA 1992 s106A(5)). Each acquisition offers only
// what its own day's disposal left (same-day priority) and what earlier disposals did not
// take. A split or consolidation in between converts the acquisition into the disposal's
// units. It returns what is still unmatched.
func (r *tickerRun) matchWithin30Days(b *disposalBuilder, i int, rest num) num {
	last := r.days[i].date.AddDays(bnbWindow)
	var sn, sd num // acquisition shares per disposal share; zero while 1
	for j := i + 1; j < len(r.days) && r.days[j].date <= last && rest.sign() > 0; j++ {
		a := &r.days[j]
		if a.hasSplit() {
			sn, sd = scaleBy(sn, sd, a)
		}
		if a.avail.sign() <= 0 {
			continue
		}
		offer := a.avail // in the disposal's units
		if !sn.isZero() {
			offer = mulDivNum(a.avail, sd, sn)
		}
		take, used := offer, a.avail
		if rest.cmp(offer) < 0 {
			take = rest
			used = take
			if !sn.isZero() {
				used = mulDivNum(take, sn, sd)
			}
		}
		b.bedAndBreakfast(a, take, used, sn, sd)
		a.avail = a.avail.sub(used)
		rest = rest.sub(take)
	}
	return rest
}

// scaleBy folds a day's splits into the running conversion factor.
func scaleBy(sn, sd num, a *day) (num, num) {
	if sn.isZero() {
		return a.splitNum, a.splitDen
	}
	return sn.mul(a.splitNum), sd.mul(a.splitDen)
}

// noHoldingError reports an ACCUMULATION or CAPRETURN with no shares to attach it to.
func noHoldingError(t *model.Transaction) error {
	e := lineError(t, fmt.Sprintf("%s %s on %s: no shares of %s are held on that date, so there is no cost to adjust",
		t.Action, t.Ticker, t.Date, t.Ticker),
		"check the date and ticker; a distribution belongs to shares held on its date",
		t.Date.String()+" "+string(t.Action)+" "+t.Ticker+" 10 TOTAL 5.00")
	return e
}

// capReturnAboveCostError reports a capital return larger than the pool's cost.
func capReturnAboveCostError(t *model.Transaction, amount, cost decimal.Decimal) error {
	e := lineError(t, fmt.Sprintf("CAPRETURN %s on %s of £%s is more than the £%s cost of the shares held; "+
		"a capital distribution above the allowable cost is a part disposal, which this calculator does not handle",
		t.Ticker, t.Date, amount.StringFixed(2), cost.StringFixed(2)),
		"check the amount; if it is right, the excess must be treated as a disposal (TCGA 1992 s122, CG57800) outside this tool",
		t.Date.String()+" CAPRETURN "+t.Ticker+" 100 TOTAL 25.00")
	e.Context["amount"] = amount.StringFixed(2)
	e.Context["pool_cost"] = cost.StringFixed(2)
	return e
}

// oversellError reports a disposal of more shares than were held.
func oversellError(t *model.Transaction, ticker string, sold, held decimal.Decimal) error {
	e := lineError(t, fmt.Sprintf("SELL %s on %s: %s shares sold but only %s held; short sales are not supported",
		ticker, t.Date, sold, held),
		"check for a missing BUY, a split, or a wrong quantity; the 30-day rule decides which cost is used, it does not allow selling shares not yet held",
		"2024-01-10 BUY "+ticker+" 100 @ 10.00", "2024-02-01 SELL "+ticker+" 100 @ 12.00")
	e.Context["ticker"] = ticker
	e.Context["quantity_sold"] = sold.String()
	e.Context["quantity_held"] = held.String()
	return e
}

// beforeScopeError rejects a disposal before 6 April 2008.
func beforeScopeError(t *model.Transaction, ticker string) error {
	return lineError(t, fmt.Sprintf("SELL %s on %s: disposals before 6 April 2008 are outside the rules this calculator applies",
		ticker, t.Date),
		"remove disposals before the 2008/09 tax year; acquisitions from any date can stay and build the pool",
		"2008-04-06 SELL "+ticker+" 100 @ 12.00")
}
