package engine

import (
	"fmt"
	"time"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
)

// fxPlaces is the precision of every conversion to GBP: amount ÷ rate, rounded half away from
// zero to 6 decimal places (docs/tax-rules.md, "Foreign currencies").
const fxPlaces = 6

// divPlaces is the precision of divisions that need not terminate (a share of a pool cost, a
// share of proceeds); far below a penny, so that rounding to 2 places is never affected.
const divPlaces = 20

// converter turns ledger amounts into GBP. It remembers the last rate it looked up, because
// consecutive lines of one ticker are usually in the same month and currency. One converter
// serves one goroutine.
type converter struct {
	rates fx.Source
	later *laterRows // set in a lenient pass: a later month is recorded, not an error
	last  fx.Rate
	month int // year*12+month of last, 0 when none
}

// isGBP reports whether an amount needs no conversion.
func isGBP(a model.Amount) bool { return a.Currency == "" || a.Currency == model.GBP }

// gbpNum converts value, in currency, on the transaction's date to GBP.
func (c *converter) gbpNum(t *model.Transaction, value num, currency string) (num, error) {
	if currency == "" || currency == model.GBP || value.isZero() {
		return value, nil
	}
	r, err := c.rate(t, currency)
	if err != nil {
		return num{}, err
	}
	return value.divRound(numOf(r.PerGBP), fxPlaces), nil
}

// rate returns the HMRC rate of the currency for the transaction's month.
func (c *converter) rate(t *model.Transaction, currency string) (fx.Rate, error) {
	tm := t.Date.Time()
	key := tm.Year()*12 + int(tm.Month())
	if c.month == key && c.last.Currency == currency {
		return c.last, nil
	}
	if c.rates == nil {
		return fx.Rate{}, withLine(t, fmt.Errorf("no exchange rates were supplied to convert %s on %s", currency, t.Date))
	}
	r, err := c.rates.Rate(currency, tm.Year(), tm.Month())
	if err != nil {
		if last, later := fx.Later(err); later && c.later != nil {
			c.month = 0 // every row of the month is recorded
			return c.later.standIn(t, currency, monthString(tm), last), nil
		}
		return fx.Rate{}, withLine(t, err)
	}
	if r.PerGBP.Sign() <= 0 {
		return fx.Rate{}, withLine(t, fmt.Errorf("the %s rate for %s is not a positive number", currency, monthString(tm)))
	}
	c.last, c.month = r, key
	return r, nil
}

// converted describes an amount with its GBP value and the rate used.
func (c *converter) converted(t *model.Transaction, a model.Amount) Converted {
	out := Converted{Amount: a.Value, Currency: a.Currency}
	if isGBP(a) {
		out.Currency = model.GBP
		out.GBP = numOfDecimal(a.Value).money()
		return out
	}
	r, err := c.rate(t, a.Currency)
	if err != nil { // cannot happen: the same rate converted this line before
		return out
	}
	rate := model.NewDecimal(r.PerGBP)
	out.Rate, out.RatePeriod = &rate, r.Period
	out.GBP = model.NewMoney(a.Value.Exact().DivRound(r.PerGBP, fxPlaces))
	return out
}

func monthString(t time.Time) string { return t.Format("2006-01") }
