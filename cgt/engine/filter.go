package engine

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Filter picks what a result shows: the tickers (upper case; none means every ticker) and the
// dates from and to (each when set). The calculation always reads the whole ledger; a filter
// only chooses the rows shown, and a tax year's totals stay the whole year's.
type Filter struct {
	Tickers        map[string]bool
	From, To       model.Date
	HasFrom, HasTo bool
}

// Active reports whether any filter is set.
func (f Filter) Active() bool { return f.Tickers != nil || f.HasFrom || f.HasTo }

// Ticker reports whether the filter keeps a ticker.
func (f Filter) Ticker(t string) bool { return f.Tickers == nil || f.Tickers[strings.ToUpper(t)] }

// Date reports whether the filter keeps a day.
func (f Filter) Date(d model.Date) bool {
	return (!f.HasFrom || d >= f.From) && (!f.HasTo || d <= f.To)
}

// overlaps reports whether the days start..end meet the filter's dates.
func (f Filter) overlaps(start, end model.Date) bool {
	return (!f.HasFrom || end >= f.From) && (!f.HasTo || start <= f.To)
}

// Check refuses a filter that matches nothing in the ledger, rather than answer with an
// empty result or a tax year's totals that look like the filtered figures: a ticker the
// ledger does not have (not_found, with the nearest it has), or from/to around no
// transaction (invalid_argument, with the ledger's dates).
func (f Filter) Check(txns []model.Transaction) error {
	if !f.Active() || len(txns) == 0 {
		return nil
	}
	known := map[string]bool{}
	first, last := txns[0].Date, txns[0].Date
	inDates := false
	for i := range txns {
		t := &txns[i]
		known[strings.ToUpper(t.Ticker)] = true
		if t.NewTicker() != "" {
			known[strings.ToUpper(t.NewTicker())] = true
		}
		first, last = min(first, t.Date), max(last, t.Date)
		inDates = inDates || f.Date(t.Date)
	}
	var missing []string
	for t := range f.Tickers {
		if !known[t] {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		return unknownTickers(missing, known)
	}
	if (f.HasFrom || f.HasTo) && !inDates {
		return &model.Error{Code: model.CodeInvalidArgument,
			Message: fmt.Sprintf("from/to (%s to %s) holds none of the ledger's transactions, which run from %s to %s",
				dateOrAny(f.HasFrom, f.From), dateOrAny(f.HasTo, f.To), first, last),
			Hint:     "Give dates that overlap the ledger's, or leave from and to out.",
			Examples: []string{`{"from":"` + first.String() + `","to":"` + last.String() + `"}`},
			Context:  map[string]any{"argument": "from", "first": first.String(), "last": last.String()}}
	}
	return nil
}

// unknownTickers is the not_found error for tickers the ledger does not have, naming the
// nearest it has and (up to 20 of) its tickers.
func unknownTickers(missing []string, known map[string]bool) error {
	order.Ascending(missing)
	names := make([]string, 0, len(known))
	for t := range known {
		if t != "" {
			names = append(names, t)
		}
	}
	order.Ascending(names)
	hint, example := "", `{"ticker":"`+firstOf(names)+`"}`
	if words := strings.Fields(missing[0]); len(words) > 1 && allKnown(words, known) {
		// "AAPL VWRL": a list written with spaces, which a ticker cannot hold.
		list := strings.Join(words, ",")
		hint, example = "Separate tickers with commas: ticker="+list+". ", `{"ticker":["`+strings.Join(words, `","`)+`"]}`
	} else if near := NearTickers(missing[0], names); len(near) > 0 {
		hint, example = "Did you mean "+strings.Join(near, " or ")+"? ", `{"ticker":"`+near[0]+`"}`
	}
	shown := names
	if len(shown) > 20 {
		shown = shown[:20]
	}
	that := "that ticker"
	if len(missing) > 1 {
		that = "those tickers"
	}
	more := ""
	if n := len(names) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return &model.Error{Code: model.CodeNotFound,
		Message:  fmt.Sprintf("ticker %s: the ledger has no transaction of %s", strings.Join(missing, ", "), that),
		Hint:     hint + "Tickers in the ledger: " + strings.Join(shown, ", ") + more + ". Leave ticker out for every security.",
		Examples: []string{example}, Value: strings.Join(missing, ","),
		Context: map[string]any{"argument": "ticker", "available": names}}
}

// allKnown reports whether every word is a ticker of the ledger (both upper-case).
func allKnown(words []string, known map[string]bool) bool {
	for _, w := range words {
		if !known[w] {
			return false
		}
	}
	return true
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func dateOrAny(set bool, d model.Date) string {
	if !set {
		return "any date"
	}
	return d.String()
}

// Apply keeps the tax years that meet the dates, and the rows (disposals, pools, holdings,
// events) that meet every filter. The tax-year totals stay the whole year's; the warning
// says so when tickers are picked.
func (f Filter) Apply(rep *Report) []string {
	if !f.Active() {
		return nil
	}
	years := rep.TaxYears[:0:0]
	for _, ty := range rep.TaxYears {
		if !f.overlaps(ty.StartDate, ty.EndDate) {
			continue
		}
		ty.Disposals = f.disposals(ty.Disposals)
		years = append(years, ty)
	}
	rep.TaxYears = years
	rep.ExemptDisposals = f.disposals(rep.ExemptDisposals)
	rep.OffshoreIncomeGains = f.disposals(rep.OffshoreIncomeGains)
	rep.NoGainNoLoss = f.disposals(rep.NoGainNoLoss)
	holdings := rep.Holdings[:0:0]
	for _, h := range rep.Holdings {
		if f.Ticker(h.Ticker) {
			holdings = append(holdings, h)
		}
	}
	rep.Holdings = holdings
	rep.Pools = f.pools(rep.Pools)
	excluded := rep.Excluded[:0:0]
	for _, e := range rep.Excluded {
		if f.Ticker(e.Ticker) && f.Date(e.Date) {
			excluded = append(excluded, e)
		}
	}
	rep.Excluded = excluded
	if f.Tickers != nil {
		return []string{"the ticker filter picks the rows shown; each tax year's totals (gains, losses, SA108) are still the whole ledger's"}
	}
	return nil
}

// pools keeps the pools of the tickers kept, each with its events on the days kept; a pool
// left with no event is left out.
func (f Filter) pools(ps []PoolHistory) []PoolHistory {
	out := ps[:0:0]
	for _, p := range ps {
		if !f.Ticker(p.Ticker) {
			continue
		}
		events := p.Events[:0:0]
		for _, e := range p.Events {
			if f.Date(e.Date) {
				events = append(events, e)
			}
		}
		if len(events) > 0 {
			p.Events = events
			out = append(out, p)
		}
	}
	return out
}

func (f Filter) disposals(ds []Disposal) []Disposal {
	if ds == nil {
		return nil
	}
	out := make([]Disposal, 0, len(ds))
	for _, d := range ds {
		if f.Ticker(d.Ticker) && f.Date(d.Date) {
			out = append(out, d)
		}
	}
	return out
}
