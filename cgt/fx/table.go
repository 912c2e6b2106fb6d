package fx

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// Table holds HMRC monthly rates and answers strict lookups by month. It has two layers: an
// optional base (the embedded table) and rates merged in by the caller, which take precedence
// month by month. A Table is safe for concurrent use.
type Table struct {
	base *packed // nil for a table built only from merged rates

	mu     sync.RWMutex
	merged map[string]map[month]Rate
}

// NewTable returns an empty table; fill it with Merge.
func NewTable() *Table { return &Table{} }

// Embedded returns a table over the rates bundled with the program (HMRC's monthly rates from
// 2014-02, see rates.csv). It parses nothing until a rate is asked for. Each call returns a
// new table, so rates merged into one do not affect another; the parsed rates are shared.
func Embedded() *Table { return &Table{base: embedded} }

// Merge adds one month's rates (as ReadMonthlyXML returns them) to the table, replacing any
// rate the table already had for the same currency and month. A rate with no Source is
// cited as HMRC's. Nothing is merged if any rate is invalid.
func (t *Table) Merge(period string, rates []Rate) error {
	m, ok := parsePeriod(period)
	if !ok {
		return invalid(fmt.Sprintf("period %q is not a month in the form YYYY-MM", period), "2024-03")
	}
	for _, r := range rates {
		if !ValidCurrencyCode(r.Currency) || !r.PerGBP.IsPositive() {
			return invalid(fmt.Sprintf("rate %s %s for %s is not a positive rate for a three-letter currency code", r.Currency, r.PerGBP, period), "USD 1.2745")
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.merged == nil {
		t.merged = map[string]map[month]Rate{}
	}
	for _, r := range rates {
		r.Period = period
		if r.Source == "" {
			r.Source = SourceFor(period)
		}
		if t.merged[r.Currency] == nil {
			t.merged[r.Currency] = map[month]Rate{}
		}
		t.merged[r.Currency][m] = r
	}
	return nil
}

// Rate returns HMRC's rate for currency in the given month: units of currency per £1. The
// lookup is strict: a month without a published rate is an error (code fx_rate_unavailable)
// naming the nearest months that have one, never a silent fallback. GBP is 1. Currency codes
// are matched case-insensitively, except "GBp" (pence), which is refused.
func (t *Table) Rate(currency string, year int, mon time.Month) (Rate, error) {
	code, err := normalizeCurrency(currency)
	if err != nil {
		return Rate{}, err
	}
	if mon < time.January || mon > time.December || year < 1000 || year > 9999 {
		return Rate{}, invalid(fmt.Sprintf("%d-%02d is not a calendar month", year, int(mon)), "fx.rate USD 2024 3")
	}
	m := monthOf(year, mon)
	if code == model.GBP {
		return Rate{Currency: model.GBP, Period: m.String(), PerGBP: decimal.NewFromInt(1), Source: GBPSource}, nil
	}
	if r, ok := t.mergedRate(code, m); ok {
		return r, nil
	}
	if t.base != nil {
		if v, ok := t.base.lookup(code, m); ok {
			return Rate{Currency: code, Period: m.String(), PerGBP: v, Source: SourceFor(m.String())}, nil
		}
	}
	return Rate{}, t.unavailable(code, m)
}

func (t *Table) mergedRate(code string, m month) (Rate, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	r, ok := t.merged[code][m]
	return r, ok
}

// Currencies lists every currency code the table has a rate for, sorted (GBP, which needs no
// rate, is not listed).
func (t *Table) Currencies() []string {
	set := map[string]bool{}
	if t.base != nil {
		codes, _, _ := t.base.summary()
		for _, c := range codes {
			set[c] = true
		}
	}
	t.mu.RLock()
	for c := range t.merged {
		set[c] = true
	}
	t.mu.RUnlock()
	return sortedKeys(set)
}

// Range returns the first and last months ("2014-02", "2026-08") with a rate for currency;
// there may be months without one in between. ok is false if the table has none.
func (t *Table) Range(currency string) (first, last string, ok bool) {
	ms := t.available(strings.ToUpper(strings.TrimSpace(currency)))
	if len(ms) == 0 {
		return "", "", false
	}
	return ms[0].String(), ms[len(ms)-1].String(), true
}

// Months returns the first and last months of the table as a whole; both are empty for an
// empty table.
func (t *Table) Months() (first, last string) {
	lo, hi := month(-1), month(-1)
	widen := func(a, b month) {
		if lo < 0 || a < lo {
			lo = a
		}
		if b > hi {
			hi = b
		}
	}
	if t.base != nil {
		if _, a, b := t.base.summary(); a >= 0 {
			widen(a, b)
		}
	}
	t.mu.RLock()
	for _, byMonth := range t.merged {
		for m := range byMonth {
			widen(m, m)
		}
	}
	t.mu.RUnlock()
	if lo < 0 {
		return "", ""
	}
	return lo.String(), hi.String()
}

// available lists the months with a rate for code in either layer, in order.
func (t *Table) available(code string) []month {
	set := map[month]bool{}
	if t.base != nil {
		for _, m := range t.base.months(code) {
			set[m] = true
		}
	}
	t.mu.RLock()
	for m := range t.merged[code] {
		set[m] = true
	}
	t.mu.RUnlock()
	out := make([]month, 0, len(set))
	for m := range set {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
