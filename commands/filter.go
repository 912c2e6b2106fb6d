package commands

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
)

// TickerArg is the ticker filter of the ledger-reading commands.
type TickerArg struct {
	Ticker any `json:"ticker,omitempty" jsonschema:"oneof_type=string;array" jsonschema_description:"Only these tickers."`
}

// PeriodArgs are the date filters of the ledger-reading commands. They pick what is shown;
// the calculation always reads the whole ledger (a pool is built from every earlier purchase).
type PeriodArgs struct {
	From string `json:"from,omitempty" jsonschema:"format=date" jsonschema_description:"From this date."`
	To   string `json:"to,omitempty" jsonschema:"format=date" jsonschema_description:"To this date."`
}

// FilterArgs are the ticker and date filters together.
type FilterArgs struct {
	TickerArg
	PeriodArgs
}

// filter is the parsed filters: empty tickers and zero dates mean no limit.
type filter struct {
	tickers  map[string]bool
	from, to model.Date
	hasFrom  bool
	hasTo    bool
}

func (a TickerArg) filter() (filter, error) {
	var f filter
	var items []string
	switch t := a.Ticker.(type) {
	case nil:
	case string:
		items = []string{t}
	case []any:
		for _, it := range t {
			s, ok := it.(string)
			if !ok {
				return f, envelope.New(envelope.InvalidArgument, fmt.Sprintf("ticker: %v is not a ticker", it),
					"Give a ticker, or a list of tickers.", `{"ticker":["AAPL","VOD.L"]}`).With("argument", "ticker")
			}
			items = append(items, s)
		}
	}
	for _, it := range items {
		for _, p := range strings.Split(it, ",") {
			if p = strings.ToUpper(strings.TrimSpace(p)); p != "" {
				if f.tickers == nil {
					f.tickers = map[string]bool{}
				}
				f.tickers[p] = true
			}
		}
	}
	return f, nil
}

func (a FilterArgs) filter() (filter, error) {
	f, err := a.TickerArg.filter()
	if err != nil {
		return f, err
	}
	for _, d := range []struct {
		name, value string
		to          *model.Date
		set         *bool
	}{{"from", a.From, &f.from, &f.hasFrom}, {"to", a.To, &f.to, &f.hasTo}} {
		if d.value == "" {
			continue
		}
		t, err := model.ParseDate(d.value)
		if err != nil {
			return f, envelope.New(envelope.InvalidArgument, d.name+": "+err.Error(), "Give the date as YYYY-MM-DD.",
				`{"`+d.name+`":"2024-04-06"}`).With("argument", d.name).With("value", d.value)
		}
		*d.to, *d.set = t, true
	}
	if f.hasFrom && f.hasTo && f.to < f.from {
		return f, envelope.New(envelope.InvalidArgument, fmt.Sprintf("from %s is after to %s", f.from, f.to),
			"Give from on or before to.", `{"from":"2024-04-06","to":"2025-04-05"}`).With("argument", "to")
	}
	return f, nil
}

// check refuses a filter that matches nothing in the ledger, rather than answer with an
// empty result or a tax year's totals that look like the filtered figures: a ticker the
// ledger does not have (not_found, with the nearest it has), or from/to around no
// transaction (invalid_argument, with the ledger's dates).
func (f filter) check(txns []model.Transaction) error {
	if !f.active() || len(txns) == 0 {
		return nil
	}
	known := map[string]bool{}
	first, last := txns[0].Date, txns[0].Date
	inDates := false
	for i := range txns {
		t := &txns[i]
		known[strings.ToUpper(t.Ticker)] = true
		if t.NewTicker != "" {
			known[strings.ToUpper(t.NewTicker)] = true
		}
		first, last = min(first, t.Date), max(last, t.Date)
		inDates = inDates || f.date(t.Date)
	}
	var missing []string
	for t := range f.tickers {
		if !known[t] {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		names := make([]string, 0, len(known))
		for t := range known {
			if t != "" {
				names = append(names, t)
			}
		}
		slices.Sort(names)
		hint, example := "", `{"ticker":"`+firstOf(names)+`"}`
		if near := engine.NearTickers(missing[0], names); len(near) > 0 {
			hint, example = "Did you mean "+strings.Join(near, " or ")+"? ", `{"ticker":"`+near[0]+`"}`
		}
		shown := names
		if len(shown) > 20 {
			shown = shown[:20]
		}
		e := envelope.New(envelope.NotFound, fmt.Sprintf("ticker %s: the ledger has no transaction of %s", strings.Join(missing, ", "), thatTicker(missing)),
			hint+"Tickers in the ledger: "+strings.Join(shown, ", ")+andMore(len(names)-len(shown))+". Leave ticker out for every security.", example).
			With("argument", "ticker").With("value", strings.Join(missing, ",")).With("available", names)
		return e
	}
	if (f.hasFrom || f.hasTo) && !inDates {
		return envelope.New(envelope.InvalidArgument, fmt.Sprintf("from/to (%s to %s) holds none of the ledger's transactions, which run from %s to %s",
			dateOrAny(f.hasFrom, f.from), dateOrAny(f.hasTo, f.to), first, last),
			"Give dates that overlap the ledger's, or leave from and to out.", `{"from":"`+first.String()+`","to":"`+last.String()+`"}`).
			With("argument", "from").With("first", first.String()).With("last", last.String())
	}
	return nil
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func thatTicker(s []string) string {
	if len(s) == 1 {
		return "that ticker"
	}
	return "those tickers"
}

func andMore(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

func dateOrAny(set bool, d model.Date) string {
	if !set {
		return "any date"
	}
	return d.String()
}

// active reports whether any filter is set.
func (f filter) active() bool { return f.tickers != nil || f.hasFrom || f.hasTo }

func (f filter) ticker(t string) bool { return f.tickers == nil || f.tickers[strings.ToUpper(t)] }

func (f filter) date(d model.Date) bool {
	return (!f.hasFrom || d >= f.from) && (!f.hasTo || d <= f.to)
}

// overlaps reports whether the days start..end meet the filter's dates.
func (f filter) overlaps(start, end model.Date) bool {
	return (!f.hasFrom || end >= f.from) && (!f.hasTo || start <= f.to)
}

// applyToReport keeps the tax years that meet the dates, and the rows (disposals, pools,
// holdings, events) that meet every filter. The tax-year totals stay the whole year's.
func (f filter) applyToReport(rep *engine.Report) []string {
	if !f.active() {
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
		if f.ticker(h.Ticker) {
			holdings = append(holdings, h)
		}
	}
	rep.Holdings = holdings
	pools := rep.Pools[:0:0]
	for _, p := range rep.Pools {
		if !f.ticker(p.Ticker) {
			continue
		}
		events := p.Events[:0:0]
		for _, e := range p.Events {
			if f.date(e.Date) {
				events = append(events, e)
			}
		}
		if len(events) > 0 {
			p.Events = events
			pools = append(pools, p)
		}
	}
	rep.Pools = pools
	excluded := rep.Excluded[:0:0]
	for _, e := range rep.Excluded {
		if f.ticker(e.Ticker) && f.date(e.Date) {
			excluded = append(excluded, e)
		}
	}
	rep.Excluded = excluded
	if f.tickers != nil {
		return []string{"the ticker filter picks the rows shown; each tax year's totals (gains, losses, SA108) are still the whole ledger's"}
	}
	return nil
}

func (f filter) disposals(ds []engine.Disposal) []engine.Disposal {
	if ds == nil {
		return nil
	}
	out := make([]engine.Disposal, 0, len(ds))
	for _, d := range ds {
		if f.ticker(d.Ticker) && f.date(d.Date) {
			out = append(out, d)
		}
	}
	return out
}

// ledgerName names a ledger for records: its file names (with content and extra when they
// were given beside them), or what kind of inline input it was.
func (a LedgerArgs) ledgerName() string {
	var names []string
	for _, p := range a.Path {
		if p == "-" {
			names = append(names, "stdin")
			continue
		}
		names = append(names, filepath.Base(p))
	}
	if a.CGTContent != "" && len(names) > 0 {
		names = append(names, "content")
	}
	if len(names) == 0 && a.Transactions != nil {
		names = append(names, "transactions")
	}
	if len(names) == 0 {
		names = append(names, "ledger")
	}
	if len(a.Extra) > 0 {
		names = append(names, extraFile)
	}
	return strings.Join(names, "+")
}
