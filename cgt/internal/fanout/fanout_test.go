package fanout

import "testing"

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
