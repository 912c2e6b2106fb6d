// Package fanout runs a fixed number of independent pieces of work at once. The ledger reader
// and the engine both split large inputs this way.
package fanout

import (
	"sync"
	"sync/atomic"
)

// Each runs fn(0) … fn(n−1), each on its own goroutine when n > 1, and returns when all
// have returned. fn must write only to the k-th piece of any shared result.
func Each(n int, fn func(k int)) {
	if n == 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(k)
		}()
	}
	wg.Wait()
}

// Share runs fn(0) … fn(n−1) on up to workers goroutines, each taking the next piece as it
// finishes one, and returns when all have returned: pieces that cost unequal work keep
// every worker busy to the end, where Each with one piece per worker waits for the
// slowest. fn must write only to the k-th piece of any shared result.
func Share(workers, n int, fn func(k int)) {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	Each(workers, func(int) {
		for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
			fn(k)
		}
	})
}
