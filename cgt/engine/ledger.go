package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// rank orders the events of one ticker on one date, so that the result never depends on the
// order of the input lines (docs/tax-rules.md, "Order of events on one date"):
// splits and consolidations first (the day's trades are quoted in the new shares), then
// accumulations and capital returns (they belong to the shares held going into the day),
// then the day's acquisitions and disposals, which same-day matching treats as one of each.
func rank(a model.Action) uint8 {
	switch a {
	case model.Split, model.Unsplit:
		return 0
	case model.Accumulation:
		return 1
	case model.CapReturn:
		return 2
	case model.Buy:
		return 3
	case model.Sell:
		return 4
	case model.Dividend:
		return 5
	}
	return 255
}

// ledger is the input grouped by ticker: tickers in name order, and for each ticker the
// indexes of its transactions sorted into the order the engine processes them.
type ledger struct {
	tickers []string
	txns    [][]int32
}

// groupByTicker validates each transaction's shape and groups the transactions by ticker. It
// does one map lookup per transaction (to number the tickers) and one sort per ticker.
func groupByTicker(txns []model.Transaction) (*ledger, error) {
	ids := make(map[string]int32)
	var names []string
	tickerOf := make([]int32, len(txns))
	var counts []int32
	for i := range txns {
		t := &txns[i]
		if err := checkShape(t); err != nil {
			return nil, err
		}
		name := strings.ToUpper(t.Ticker)
		id, ok := ids[name]
		if !ok {
			id = int32(len(names))
			ids[name] = id
			names = append(names, name)
			counts = append(counts, 0)
		}
		tickerOf[i] = id
		counts[id]++
	}
	byTicker := bucket(tickerOf, counts)
	order := make([]int32, len(names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	led := &ledger{tickers: make([]string, len(names)), txns: make([][]int32, len(names))}
	for pos, id := range order {
		led.tickers[pos] = names[id]
		led.txns[pos] = byTicker[id]
	}
	for _, idx := range led.txns {
		sortEvents(txns, idx)
	}
	return led, nil
}

// bucket splits transaction indexes by ticker id with a counting sort over one backing array.
func bucket(tickerOf, counts []int32) [][]int32 {
	all := make([]int32, len(tickerOf))
	out := make([][]int32, len(counts))
	start := int32(0)
	for id, n := range counts {
		out[id] = all[start : start : start+n]
		start += n
	}
	for i, id := range tickerOf {
		out[id] = append(out[id], int32(i))
	}
	return out
}

// sortEvents puts one ticker's transactions in processing order: date, then rank, then the
// ledger position, which makes the order total and independent of the input order.
func sortEvents(txns []model.Transaction, idx []int32) {
	slices.SortFunc(idx, func(a, b int32) int {
		ta, tb := &txns[a], &txns[b]
		if c := cmp.Compare(ta.Date, tb.Date); c != 0 {
			return c
		}
		if c := cmp.Compare(rank(ta.Action), rank(tb.Action)); c != 0 {
			return c
		}
		return compareSource(ta, tb)
	})
}

// compareSource orders two transactions by where they came from, then by content, so that
// even identical lines from unnamed sources sort the same way every time.
func compareSource(a, b *model.Transaction) int {
	if c := strings.Compare(a.Source.File, b.Source.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Source.Line, b.Source.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Source.Index, b.Source.Index); c != 0 {
		return c
	}
	if c := numOfDecimal(a.Quantity).cmp(numOfDecimal(b.Quantity)); c != 0 {
		return c
	}
	if c := numOfDecimal(a.Price.Value).cmp(numOfDecimal(b.Price.Value)); c != 0 {
		return c
	}
	if c := numOfDecimal(a.Total.Value).cmp(numOfDecimal(b.Total.Value)); c != 0 {
		return c
	}
	return numOfDecimal(a.Fees.Value).cmp(numOfDecimal(b.Fees.Value))
}

// placement is where every disposal of the report goes, decided before any is built: all
// holds them by date then ticker (the order of the tax years' lists), and slots[i][k] is the
// index in all of ticker i's k-th disposal. Each ticker writes its disposals straight into
// their places, so the tax years share all rather than copying it.
type placement struct {
	all   []Disposal
	slots [][]int32
}

// sellDay is one ticker's disposal date, while the places are worked out.
type sellDay struct {
	date   model.Date
	ticker int32
}

// placeDisposals lists every date on which a ticker disposes of shares (one disposal each,
// however many SELL lines) and orders them by date, then ticker.
func placeDisposals(txns []model.Transaction, led *ledger) placement {
	var days []sellDay
	counts := make([]int32, len(led.tickers))
	for i, idx := range led.txns {
		last, seen := model.Date(0), false
		for _, k := range idx {
			t := &txns[k]
			if t.Action == model.Sell && (!seen || t.Date != last) {
				days = append(days, sellDay{date: t.Date, ticker: int32(i)})
				last, seen = t.Date, true
				counts[i]++
			}
		}
	}
	// Tickers are in name order and each ticker's dates ascend, so a stable sort by date
	// gives date then ticker.
	slices.SortStableFunc(days, func(a, b sellDay) int { return cmp.Compare(a.date, b.date) })
	p := placement{all: make([]Disposal, len(days)), slots: make([][]int32, len(counts))}
	backing := make([]int32, len(days))
	start := int32(0)
	for i, n := range counts {
		p.slots[i] = backing[start : start : start+n]
		start += n
	}
	for pos, d := range days {
		p.slots[d.ticker] = append(p.slots[d.ticker], int32(pos))
	}
	return p
}
