package engine

import (
	"slices"

	"github.com/cgt-tools/cgt/cgt/model"
)

// entry is one transaction with its amounts in GBP.
type entry struct {
	t     *model.Transaction
	qty   num // BUY, SELL, SPOUSEIN, SPOUSEOUT, POOL, RIGHTS, ERI, TAKEOVER, DEMERGER: shares
	value num // BUY, RIGHTS: cost incl. fees; SELL: gross proceeds; ACCUMULATION, DIVIDEND, ERI: total;
	// CAPRETURN: total − fees; SPOUSEIN, POOL: cost; TAKEOVER: cash; the new ticker's
	// TAKEOVER or DEMERGER: the cost passed to it
	extra num  // SELL: fees; DIVIDEND, ACCUMULATION: tax withheld; CAPRETURN, TAKEOVER: value
	in    bool // a TAKEOVER or DEMERGER in its new ticker's list: shares arriving
}

// day is everything one ticker did on one date. Same-day acquisitions are one acquisition and
// same-day disposals one disposal (TCGA 1992 s105(1)(a), CG51560), so they are summed here.
type day struct {
	date           model.Date
	lo, hi         int32 // the day's entries
	buyLo, buyHi   int32 // its BUY and SPOUSEIN entries (sorted together, see rank)
	sellLo, sellHi int32 // its SELL entries
	outLo, outHi   int32 // its SPOUSEOUT entries
	buyQty         num
	buyCost        num
	sellQty        num
	spouseQty      num // shares transferred to a spouse: part of the day's one disposal
	gross          num
	fees           num
	// avail is the part of the day's acquisition not yet identified: after the day's own
	// disposal has taken its same-day share, earlier disposals take from it under the 30-day
	// rule and what is left enters the Section 104 pool.
	avail num
	// splitNum/splitDen is the combined effect of the day's splits and consolidations: one
	// share before becomes splitNum/splitDen shares after. Zero when the day has none.
	splitNum, splitDen num
	// splitOver is the SPLIT or UNSPLIT line at which the combined ratio passed
	// maxSplitDigits; nil when it did not (the lines after it are no longer multiplied in).
	splitOver *model.Transaction
	buySrc    []SourceRef // ledger lines of the day's acquisitions, built when first matched
	acq       *stepRecipe // the acquisition's figures for the Steps of its matches, likewise
}

func (d *day) hasSplit() bool { return !d.splitNum.isZero() }

// outQty is the day's whole disposal: the shares sold and those transferred to a spouse, one
// disposal for the identification rules (TCGA 1992 s105(1)(a)).
func (d *day) outQty() num { return addNZ(d.sellQty, d.spouseQty) }

// scratch holds one worker's per-ticker working slices, reused from one ticker to the next:
// nothing in the report points into them.
type scratch struct {
	entries []entry
	days    []day
	events  []PoolEvent
}

// convertEntries converts ticker id's transactions, already in processing order, to GBP, in
// buf's storage. A corporate action given twice in different files is kept once (see
// repeated); a TAKEOVER or DEMERGER arriving from another ticker takes the cost that ticker
// passed on.
func (c *calc) convertEntries(id int32, idx []int32, conv *converter, buf []entry, res *tickerResult) ([]entry, error) {
	out := slices.Grow(buf[:0], len(idx))[:len(idx)]
	clear(out)
	n := 0
	for _, i := range idx {
		t := &c.txns[i]
		if isCorporateAction(t.Action) && c.repeated(out[:n], t, res) {
			continue
		}
		e := &out[n]
		n++
		e.t = t
		if err := convertEntry(t, e, conv); err != nil {
			return nil, err
		}
		if (t.Action == model.Takeover || t.Action == model.Demerger) && c.led.of[i] != id {
			e.in = true
			e.value = c.results[c.led.of[i]].transfers[t]
		}
	}
	return out[:n], nil
}

// convertEntry fills one entry's GBP amounts. A trade's consideration (quantity × price)
// converts as one amount, so that rounding the converted figure to 6 places is never
// multiplied by the quantity; fees and totals convert as stated.
func convertEntry(t *model.Transaction, e *entry, c *converter) error {
	var err error
	switch t.Action {
	case model.Buy, model.Sell:
		var gross, fees num
		e.qty = numOfDecimal(t.Quantity)
		consideration, currency := considerationOf(t, e.qty)
		if gross, err = c.gbpNum(t, consideration, currency); err != nil {
			return err
		}
		if fees, err = c.gbpNum(t, numOfDecimal(t.Fees.Value), t.Fees.Currency); err != nil {
			return err
		}
		if t.Action == model.Buy {
			e.value = addNZ(gross, fees)
		} else {
			e.value, e.extra = gross, fees
		}
	case model.CapReturn:
		var total, fees num
		if total, err = c.gbpNum(t, numOfDecimal(t.Total.Value), t.Total.Currency); err != nil {
			return err
		}
		if fees, err = c.gbpNum(t, numOfDecimal(t.Fees.Value), t.Fees.Currency); err != nil {
			return err
		}
		e.value = subNZ(total, fees)
		if e.extra, err = c.gbpNum(t, numOfDecimal(t.Value().Value), t.Value().Currency); err != nil {
			return err
		}
	case model.Accumulation, model.Dividend:
		if e.value, err = c.gbpNum(t, numOfDecimal(t.Total.Value), t.Total.Currency); err != nil {
			return err
		}
		if e.extra, err = c.gbpNum(t, numOfDecimal(t.Tax().Value), t.Tax().Currency); err != nil {
			return err
		}
	case model.Pool, model.SpouseIn:
		e.qty = numOfDecimal(t.Quantity)
		if e.value, err = c.gbpNum(t, numOfDecimal(t.Cost().Value), t.Cost().Currency); err != nil {
			return err
		}
	case model.Rights:
		var gross, fees num
		e.qty = numOfDecimal(t.Quantity)
		if gross, err = c.gbpNum(t, e.qty.mul(numOfDecimal(t.Price.Value)), t.Price.Currency); err != nil {
			return err
		}
		if fees, err = c.gbpNum(t, numOfDecimal(t.Fees.Value), t.Fees.Currency); err != nil {
			return err
		}
		e.value = addNZ(gross, fees)
	case model.ERI:
		e.qty = numOfDecimal(t.Quantity)
		if e.value, err = c.gbpNum(t, numOfDecimal(t.Total.Value), t.Total.Currency); err != nil {
			return err
		}
	case model.Takeover:
		e.qty = numOfDecimal(t.Quantity)
		if e.value, err = c.gbpNum(t, numOfDecimal(t.Cash().Value), t.Cash().Currency); err != nil {
			return err
		}
		if e.extra, err = c.gbpNum(t, numOfDecimal(t.Value().Value), t.Value().Currency); err != nil {
			return err
		}
	case model.Demerger, model.SpouseOut:
		e.qty = numOfDecimal(t.Quantity)
	case model.Negligible:
		if e.value, err = c.gbpNum(t, numOfDecimal(t.Value().Value), t.Value().Currency); err != nil {
			return err
		}
	}
	return nil
}

// considerationOf is a trade's whole consideration in its own currency: the Total when the
// line gives one (the total form), otherwise quantity × price.
func considerationOf(t *model.Transaction, qty num) (num, string) {
	if !t.Total.Value.IsZero() && t.Price.Value.IsZero() {
		return numOfDecimal(t.Total.Value), t.Total.Currency
	}
	return qty.mul(numOfDecimal(t.Price.Value)), t.Price.Currency
}

// buildDays groups a ticker's entries by date and sums each day's trades, in buf's storage.
func buildDays(es []entry, buf []day) []day {
	n := 0
	for k := range es {
		if k == 0 || es[k].t.Date != es[k-1].t.Date {
			n++
		}
	}
	days := slices.Grow(buf[:0], n)
	for k := 0; k < len(es); {
		d := day{date: es[k].t.Date, lo: int32(k), buyLo: -1, sellLo: -1, outLo: -1}
		for ; k < len(es) && es[k].t.Date == d.date; k++ {
			addToDay(&d, &es[k], int32(k))
		}
		d.hi = int32(k)
		if d.buyLo < 0 {
			d.buyLo, d.buyHi = d.lo, d.lo
		}
		if d.sellLo < 0 {
			d.sellLo, d.sellHi = d.lo, d.lo
		}
		if d.outLo < 0 {
			d.outLo, d.outHi = d.lo, d.lo
		}
		d.avail = d.buyQty
		if out := d.outQty(); out.sign() > 0 {
			d.avail = d.buyQty.sub(minNum(d.buyQty, out))
		}
		days = append(days, d)
	}
	return days
}

// addToDay adds one entry to its day's totals.
func addToDay(d *day, e *entry, k int32) {
	t := e.t
	switch t.Action {
	case model.Buy, model.SpouseIn: // shares from a spouse are acquired on their date (s58)
		if d.buyLo < 0 {
			d.buyLo = k
		}
		d.buyHi = k + 1
		d.buyQty = addNZ(d.buyQty, e.qty)
		d.buyCost = addNZ(d.buyCost, e.value)
	case model.Sell:
		if d.sellLo < 0 {
			d.sellLo = k
		}
		d.sellHi = k + 1
		d.sellQty = addNZ(d.sellQty, e.qty)
		d.gross = addNZ(d.gross, e.value)
		d.fees = addNZ(d.fees, e.extra)
	case model.SpouseOut:
		if d.outLo < 0 {
			d.outLo = k
		}
		d.outHi = k + 1
		d.spouseQty = addNZ(d.spouseQty, e.qty)
	case model.Split, model.Unsplit:
		if !d.hasSplit() {
			d.splitNum, d.splitDen = numInt(1), numInt(1)
		}
		if d.splitOver != nil {
			return
		}
		if t.Action == model.Split {
			d.splitNum = d.splitNum.mul(numOfDecimal(t.Ratio())).shortened()
		} else {
			d.splitDen = d.splitDen.mul(numOfDecimal(t.Ratio())).shortened()
		}
		if d.splitNum.writtenDigits() > maxSplitDigits || d.splitDen.writtenDigits() > maxSplitDigits {
			d.splitOver = t
		}
	}
}
