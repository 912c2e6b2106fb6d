// Package fanout runs a fixed number of independent pieces of work at once. The ledger reader
// and the engine both split large inputs this way.
package fanout

import "sync"

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
