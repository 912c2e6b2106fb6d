package commands

import (
	"fmt"
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
	_ model.NotComparable

	From string `json:"from,omitempty" jsonschema:"format=date" jsonschema_description:"From this date."`
	To   string `json:"to,omitempty" jsonschema:"format=date" jsonschema_description:"To this date."`
}

// FilterArgs are the ticker and date filters together.
type FilterArgs struct {
	_ model.NotComparable

	TickerArg
	PeriodArgs
}

// filter reads the ticker filter (engine.Filter picks the rows).
func (a TickerArg) filter() (engine.Filter, error) {
	var f engine.Filter
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
				if f.Tickers == nil {
					f.Tickers = map[string]bool{}
				}
				f.Tickers[p] = true
			}
		}
	}
	return f, nil
}

// filter reads the ticker and date filters.
func (a FilterArgs) filter() (engine.Filter, error) {
	f, err := a.TickerArg.filter()
	if err != nil {
		return f, err
	}
	for _, d := range []struct {
		name, value string
		to          *model.Date
		set         *bool
	}{{"from", a.From, &f.From, &f.HasFrom}, {"to", a.To, &f.To, &f.HasTo}} {
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
	if f.HasFrom && f.HasTo && f.To < f.From {
		return f, envelope.New(envelope.InvalidArgument, fmt.Sprintf("from %s is after to %s", f.From, f.To),
			"Give from on or before to.", `{"from":"2024-04-06","to":"2025-04-05"}`).With("argument", "to")
	}
	return f, nil
}
