package fanout

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestEachRunsEveryPieceOnce(t *testing.T) {
	for _, n := range []int{1, 2, 7} {
		got := make([]int, n)
		Each(n, func(k int) { got[k]++ })
		for k, c := range got {
			if c != 1 {
				t.Fatalf("n=%d: piece %d ran %d times", n, k, c)
			}
		}
	}
}

func TestShareRunsEveryPieceOnceOnAtMostWorkers(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 3} {
		for _, n := range []int{0, 1, 2, 7, 100} {
			got := make([]int, n)
			var running, most atomic.Int64
			Share(workers, n, func(k int) {
				now := running.Add(1)
				for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
				}
				got[k]++
				runtime.Gosched() // let another worker start if one could
				running.Add(-1)
			})
			for k, c := range got {
				if c != 1 {
					t.Fatalf("workers=%d n=%d: piece %d ran %d times", workers, n, k, c)
				}
			}
			if m := most.Load(); m > int64(max(workers, 1)) {
				t.Fatalf("workers=%d n=%d: %d pieces ran at once", workers, n, m)
			}
		}
	}
}
