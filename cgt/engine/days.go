package engine

import (
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// entry is one transaction with its amounts in GBP.
type entry struct {
	t     *model.Transaction
	value decimal.Decimal // BUY: cost incl. fees; SELL: gross proceeds; ACCUMULATION, DIVIDEND: total; CAPRETURN: total − fees
	extra decimal.Decimal // SELL: fees; DIVIDEND, ACCUMULATION: tax withheld
}

// day is everything one ticker did on one date. Same-day acquisitions are one acquisition and
// same-day disposals one disposal (TCGA 1992 s105(1)(a), CG51560), so they are summed here.
type day struct {
	date           model.Date
	lo, hi         int32 // the day's entries
	buyLo, buyHi   int32 // its BUY entries
	sellLo, sellHi int32 // its SELL entries
	buyQty         decimal.Decimal
	buyCost        decimal.Decimal
	sellQty        decimal.Decimal
	gross          decimal.Decimal
	fees           decimal.Decimal
	// avail is the part of the day's acquisition not yet identified: after the day's own
	// disposal has taken its same-day share, earlier disposals take from it under the 30-day
	// rule and what is left enters the Section 104 pool.
	avail decimal.Decimal
	// splitNum/splitDen is the combined effect of the day's splits and consolidations: one
	// share before becomes splitNum/splitDen shares after. Zero when the day has none.
	splitNum, splitDen decimal.Decimal
	buySrc             []SourceRef // ledger lines of the day's acquisitions, built when first matched
}

func (d *day) hasSplit() bool { return !d.splitNum.IsZero() }

// convertEntries converts a ticker's transactions, already in processing order, to GBP.
func convertEntries(txns []model.Transaction, idx []int32, c *converter) ([]entry, error) {
	out := make([]entry, len(idx))
	for k, i := range idx {
		t := &txns[i]
		e := &out[k]
		e.t = t
		if err := convertEntry(t, e, c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// convertEntry fills one entry's GBP amounts. A trade's consideration (quantity × price)
// converts as one amount, so that rounding the converted figure to 6 places is never
// multiplied by the quantity; fees and totals convert as stated.
func convertEntry(t *model.Transaction, e *entry, c *converter) error {
	var err error
	switch t.Action {
	case model.Buy, model.Sell:
		var gross, fees decimal.Decimal
		consideration := model.Amount{Value: t.Quantity.Mul(t.Price.Value), Currency: t.Price.Currency}
		if gross, err = c.gbp(t, consideration); err != nil {
			return err
		}
		if fees, err = c.gbp(t, t.Fees); err != nil {
			return err
		}
		if t.Action == model.Buy {
			e.value = addNonZero(gross, fees)
		} else {
			e.value, e.extra = gross, fees
		}
	case model.CapReturn:
		var total, fees decimal.Decimal
		if total, err = c.gbp(t, t.Total); err != nil {
			return err
		}
		if fees, err = c.gbp(t, t.Fees); err != nil {
			return err
		}
		e.value = subNonZero(total, fees)
	case model.Accumulation, model.Dividend:
		if e.value, err = c.gbp(t, t.Total); err != nil {
			return err
		}
		if e.extra, err = c.gbp(t, t.Tax); err != nil {
			return err
		}
	}
	return nil
}

// buildDays groups a ticker's entries by date and sums each day's trades.
func buildDays(es []entry) []day {
	n := 0
	for k := range es {
		if k == 0 || es[k].t.Date != es[k-1].t.Date {
			n++
		}
	}
	days := make([]day, 0, n)
	for k := 0; k < len(es); {
		d := day{date: es[k].t.Date, lo: int32(k), buyLo: -1, sellLo: -1}
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
		d.avail = d.buyQty
		if d.sellQty.Sign() > 0 {
			d.avail = d.buyQty.Sub(minDec(d.buyQty, d.sellQty))
		}
		days = append(days, d)
	}
	return days
}

// addToDay adds one entry to its day's totals.
func addToDay(d *day, e *entry, k int32) {
	t := e.t
	switch t.Action {
	case model.Buy:
		if d.buyLo < 0 {
			d.buyLo = k
		}
		d.buyHi = k + 1
		d.buyQty = addNonZero(d.buyQty, t.Quantity)
		d.buyCost = addNonZero(d.buyCost, e.value)
	case model.Sell:
		if d.sellLo < 0 {
			d.sellLo = k
		}
		d.sellHi = k + 1
		d.sellQty = addNonZero(d.sellQty, t.Quantity)
		d.gross = addNonZero(d.gross, e.value)
		d.fees = addNonZero(d.fees, e.extra)
	case model.Split, model.Unsplit:
		if !d.hasSplit() {
			d.splitNum, d.splitDen = decimal.NewFromInt(1), decimal.NewFromInt(1)
		}
		if t.Action == model.Split {
			d.splitNum = d.splitNum.Mul(t.Ratio)
		} else {
			d.splitDen = d.splitDen.Mul(t.Ratio)
		}
	}
}

// addNonZero adds without allocating when either side is zero, the common case for fees and
// for the first line of a day.
func addNonZero(a, b decimal.Decimal) decimal.Decimal {
	if b.IsZero() {
		return a
	}
	if a.IsZero() {
		return b
	}
	return a.Add(b)
}

// subNonZero subtracts without allocating when b is zero.
func subNonZero(a, b decimal.Decimal) decimal.Decimal {
	if b.IsZero() {
		return a
	}
	return a.Sub(b)
}

func minDec(a, b decimal.Decimal) decimal.Decimal {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// mulDiv returns a × b ÷ c, exact when the division terminates within divPlaces.
func mulDiv(a, b, c decimal.Decimal) decimal.Decimal {
	if b.Equal(c) {
		return a
	}
	return a.Mul(b).DivRound(c, divPlaces)
}
