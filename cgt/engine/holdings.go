package engine

import (
	"sort"

	"github.com/cgt-tools/cgt/cgt/model"
)

// HoldingsAt returns each ticker's Section 104 pool at the end of date d, from the pool
// history. The pool is the one the identification rules settled on: shares a disposal
// identified with an acquisition up to 30 days later are still in the pool until that
// acquisition, so within such a window the pool can exceed the shares actually held.
func (r *Report) HoldingsAt(d model.Date) []Holding {
	out := []Holding{}
	for _, p := range r.Pools {
		ev := p.Events
		n := sort.Search(len(ev), func(i int) bool { return ev[i].Date > d })
		if n == 0 {
			continue
		}
		last := ev[n-1]
		if last.Quantity.Sign() > 0 {
			out = append(out, holding(p.Ticker, last.Quantity.Exact(), last.Cost.Exact()))
		}
	}
	return out
}
