package engine

import (
	"cmp"
	"runtime"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
	"github.com/cgt-tools/cgt/cgt/internal/fresh"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// rank orders the events of one ticker on one date, so that the result never depends on the
// order of the input lines (docs/tax-rules.md, "Order of events on one date"):
// splits and consolidations first (the day's trades are quoted in the new shares), then
// opening pools, accumulations, capital returns, rights issues, excess
// reportable income, takeovers and demergers (they belong to the shares held going into the
// day), then a negligible value claim on the holding as it then stands, then the day's
// acquisitions and disposals, which same-day matching treats as one of each (a transfer from a
// spouse is part of the day's acquisition, among its purchases; a transfer to a spouse part
// of the day's disposal, after its sales), then dividends.
func rank(a model.Action) uint8 {
	switch a {
	case model.Split, model.Unsplit:
		return 0
	case model.Pool:
		return 1
	case model.Accumulation:
		return 2
	case model.CapReturn:
		return 3
	case model.Rights:
		return 4
	case model.ERI:
		return 5
	case model.Takeover, model.Demerger:
		return 6
	case model.Negligible:
		return 7
	case model.Buy, model.SpouseIn:
		return 8
	case model.Sell:
		return 9
	case model.SpouseOut:
		return 10
	case model.Dividend:
		return 11
	}
	return 255
}

// ledger is the input grouped by ticker: tickers in name order, and for each ticker the
// indexes of its transactions in input order (each worker sorts its ticker's; see sortEvents).
type ledger struct {
	tickers []string
	txns    [][]int32
	// of is each transaction's ticker number (-1 for a declaration or a transaction outside
	// CGT); a TAKEOVER or DEMERGER is also in its new ticker's list.
	of []int32
	// stages orders the tickers when shares pass from one to another (see stagesOf); nil
	// when none do, and every ticker is worked on at once.
	stages [][]int32
}

// shard is one worker's share of the first pass over the input: a run of transactions, the
// tickers it met (numbered in the order met) and its SELL lines as sale keys (see saleKey).
type shard struct {
	lo, hi   int
	ids      map[string]int32
	names    []string
	counts   []int32
	sales    []int64
	err      error
	toGlobal []int32 // the shard's ticker numbers → the ledger's (name order)
	// special is set when the shard met a declaration, an account label or an ISIN: the
	// identity of securities and accounts must be resolved (see resolveIdentity).
	special bool
	cross   []crossRef // TAKEOVER and DEMERGER lines, with their new ticker
}

// crossRef is a TAKEOVER or DEMERGER line (i) and the number of the ticker it passes shares to.
type crossRef struct{ i, to int32 }

// groupByTicker validates each transaction's shape, groups the transactions by ticker and
// places every disposal (see placement). The input is read once, in order, in as many shards
// as there are workers; a shape error is the first one in input order. When ident is given,
// declarations and transactions outside CGT are left out and tickers take their security's
// name; without it, special reports whether the ledger needs one.
func groupByTicker(txns []model.Transaction, ident *identity) (led *ledger, place placement, special bool, err error) {
	tickerOf := make([]int32, len(txns))
	shards := shardsFor(len(txns))
	fanout.Each(len(shards), func(w int) { shards[w].scan(txns, tickerOf, ident) })
	for w := range shards {
		if shards[w].err != nil {
			return nil, placement{}, false, shards[w].err
		}
		special = special || shards[w].special
	}
	if special && ident == nil {
		return nil, placement{}, true, nil
	}
	names := mergeNames(shards)
	counts := make([]int32, len(names))
	for w := range shards {
		for id, n := range shards[w].counts {
			counts[shards[w].toGlobal[id]] += n
		}
	}
	fanout.Each(len(shards), func(w int) { shards[w].renumber(tickerOf) })
	led = &ledger{tickers: names, txns: bucket(tickerOf, counts, shards), of: tickerOf}
	if led.stages, err = stagesOf(txns, led, shards); err != nil {
		return nil, placement{}, false, err
	}
	return led, placeDisposals(shards, len(names)), special, nil
}

// shardsFor cuts n transactions into one run per worker (one run for a small ledger).
func shardsFor(n int) []shard {
	k := 1
	if n >= parallelMin {
		k = runtime.GOMAXPROCS(0)
	}
	out := make([]shard, k)
	for w := range out {
		out[w] = shard{lo: n * w / k, hi: n * (w + 1) / k, ids: make(map[string]int32)}
	}
	return out
}

// scan checks the shard's transactions, numbers their tickers and notes its sales.
func (s *shard) scan(txns []model.Transaction, tickerOf []int32, ident *identity) {
	for i := s.lo; i < s.hi; i++ {
		t := &txns[i]
		if err := checkShape(t); err != nil {
			s.err = err
			return
		}
		if isDeclaration(t.Action) {
			s.special = true
			tickerOf[i] = -1
			continue
		}
		if ident == nil {
			s.special = s.special || len(t.Account)|len(t.ISIN) != 0
		} else if ident.outside(t) {
			tickerOf[i] = -1
			continue
		}
		id := s.number(ident.name(t.Ticker))
		tickerOf[i] = id
		s.counts[id]++
		switch t.Action {
		case model.Sell:
			s.sales = append(s.sales, saleKey(t.Date, id))
		case model.Takeover, model.Demerger:
			to := s.number(ident.name(t.NewTicker()))
			s.counts[to]++
			s.cross = append(s.cross, crossRef{int32(i), to})
		}
	}
}

// number returns the shard's number for a ticker name, numbering it when first met.
func (s *shard) number(name string) int32 {
	id, ok := s.ids[name]
	if !ok {
		id = int32(len(s.names))
		s.ids[name] = id
		s.names = append(s.names, name)
		s.counts = append(s.counts, 0)
	}
	return id
}

// renumber turns the shard's ticker numbers into the ledger's, in tickerOf and in its sales,
// and sorts its sales, one key per ticker and date (see placeDisposals).
func (s *shard) renumber(tickerOf []int32) {
	for i := s.lo; i < s.hi; i++ {
		if tickerOf[i] >= 0 {
			tickerOf[i] = s.toGlobal[tickerOf[i]]
		}
	}
	for k, key := range s.sales {
		date, id := splitSaleKey(key)
		s.sales[k] = saleKey(date, s.toGlobal[id])
	}
	for k := range s.cross {
		s.cross[k].to = s.toGlobal[s.cross[k].to]
	}
	order.Ascending(s.sales)
	s.sales = slices.Compact(s.sales)
}

// mergeNames lists every shard's tickers once, in name order, and sets each shard's map
// from its numbers to positions in that list.
func mergeNames(shards []shard) []string {
	var names []string
	for w := range shards {
		names = append(names, shards[w].names...)
	}
	order.Ascending(names)
	names = slices.Compact(names)
	for w := range shards {
		s := &shards[w]
		s.toGlobal = make([]int32, len(s.names))
		for id, name := range s.names {
			pos, _ := slices.BinarySearch(names, name)
			s.toGlobal[id] = int32(pos)
		}
	}
	return names
}

// saleKey packs a sale's date and ticker number so that keys sort by date, then ticker.
func saleKey(d model.Date, ticker int32) int64 { return int64(d)<<32 | int64(ticker) }

func splitSaleKey(k int64) (model.Date, int32) { return model.Date(k >> 32), int32(k & 0xFFFFFFFF) }

// bucket splits transaction indexes by ticker id with a counting sort over one backing array.
// A TAKEOVER or DEMERGER goes into its new ticker's list as well.
func bucket(tickerOf, counts []int32, shards []shard) [][]int32 {
	n := 0
	for _, c := range counts {
		n += int(c)
	}
	all := make([]int32, n)
	out := make([][]int32, len(counts))
	start := int32(0)
	for id, n := range counts {
		out[id] = all[start : start : start+n]
		start += n
	}
	for i, id := range tickerOf {
		if id >= 0 {
			out[id] = append(out[id], int32(i))
		}
	}
	for w := range shards {
		for _, c := range shards[w].cross {
			out[c.to] = append(out[c.to], c.i)
		}
	}
	return out
}

// warm reads every cache line of the transactions of idx, which lie scattered over the input,
// in a loop whose loads do not wait on one another, so that the memory fetches overlap. The
// passes that follow (sortEvents, convertEntries) then find them in the cache instead of
// waiting on each in turn. The fields read are at most 64 bytes apart, so none of a
// transaction's cache lines is skipped. It is not inlined, so that the loads, whose sum
// nobody needs, are not optimized away.
//
//go:noinline
func warm(txns []model.Transaction, idx []int32) int {
	sum := 0
	for _, i := range idx {
		t := &txns[i]
		sum += int(t.Date) + len(t.Action) + len(t.Ticker) + len(t.Price.Currency) + len(t.Fees.Currency) +
			len(t.Total.Currency) + len(t.Tax().Currency) + t.Source.Line + t.Source.Index
	}
	return sum
}

// sortEvents puts one ticker's transactions in processing order: date, then rank, then the
// ledger position, which makes the order total and independent of the input order.
func sortEvents(txns []model.Transaction, idx []int32) {
	order.Hot(idx, func(a, b int32) int {
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

// mergeKeys merges two sorted runs of distinct keys into one, each key once.
func mergeKeys(a, b []int64) []int64 {
	out := make([]int64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// placeDisposals orders the dates on which a ticker disposes of shares (one disposal each,
// however many SELL lines) by date, then ticker, and gives each ticker its disposals' places.
func placeDisposals(shards []shard, tickers int) placement {
	keys := shards[0].sales
	for w := 1; w < len(shards); w++ {
		keys = mergeKeys(keys, shards[w].sales) // same ticker, same date: one disposal
	}
	counts := make([]int32, tickers)
	for _, k := range keys {
		_, id := splitSaleKey(k)
		counts[id]++
	}
	p := placement{all: fresh.Slice[Disposal](len(keys), len(shards)), slots: make([][]int32, tickers)}
	backing := make([]int32, len(keys))
	start := int32(0)
	for i, n := range counts {
		p.slots[i] = backing[start : start : start+n]
		start += n
	}
	for pos, k := range keys {
		_, id := splitSaleKey(k)
		p.slots[id] = append(p.slots[id], int32(pos))
	}
	return p
}
