package fresh

import (
	"runtime/debug"
	"sync"
	"testing"
)

type row struct {
	name string
	n    [7]int64
}

func TestSliceIsZeroedAndSized(t *testing.T) {
	for _, n := range []int{0, 1, 1000, MinBytes/64 + 1} {
		for _, parts := range []int{0, 1, 3} {
			s := Slice[row](n, parts)
			if len(s) != n || cap(s) != n {
				t.Fatalf("n=%d parts=%d: len %d cap %d", n, parts, len(s), cap(s))
			}
			for i := range s {
				if s[i] != (row{}) {
					t.Fatalf("n=%d: element %d not zero", n, i)
				}
			}
		}
	}
}

// The collector's setting is restored once, after concurrent calls, to what it was before.
func TestSliceRestoresTheCollectorSetting(t *testing.T) {
	for _, before := range []int{100, 250, -1} {
		debug.SetGCPercent(before)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = Slice[row](MinBytes/64+1, 2)
			}()
		}
		wg.Wait()
		if got := debug.SetGCPercent(100); got != before {
			t.Errorf("setting %d before, %d after", before, got)
		}
	}
}
