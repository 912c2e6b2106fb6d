package order

import (
	"math/rand"
	"slices"
	"testing"
)

type item struct{ key, id int }

func byKey(a, b item) int { return a.key - b.key }

// Sort leaves every element where slices.SortFunc does, elements with equal keys included,
// on every length up to 300 (insertion sort, the quicksort and its fallbacks) and on inputs
// that are sorted, reversed or mostly equal.
func TestSortPlacesEveryElementAsSlicesSortFunc(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n <= 300; n++ {
		for _, keys := range []int{1, 3, n/4 + 1, n + 1} {
			for shape := 0; shape < 3; shape++ {
				in := make([]item, n)
				for i := range in {
					in[i] = item{r.Intn(keys), i}
					switch shape {
					case 1:
						in[i].key = i / (n/keys + 1)
					case 2:
						in[i].key = (n - i) / (n/keys + 1)
					}
				}
				want := slices.Clone(in)
				slices.SortFunc(want, byKey)
				got := slices.Clone(in)
				Sort(got, byKey)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d keys=%d shape=%d: order differs from slices.SortFunc", n, keys, shape)
				}
				want = slices.Clone(in)
				slices.SortStableFunc(want, byKey)
				got = slices.Clone(in)
				Stable(got, byKey)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d keys=%d shape=%d: order differs from slices.SortStableFunc", n, keys, shape)
				}
			}
		}
	}
}

// A large input with few distinct keys takes the quicksort's every path.
func TestSortLargeInputsAsSlicesSortFunc(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, n := range []int{1000, 4096, 50000} {
		in := make([]item, n)
		for i := range in {
			in[i] = item{r.Intn(50), i}
		}
		want, got := slices.Clone(in), slices.Clone(in)
		slices.SortFunc(want, byKey)
		Sort(got, byKey)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: order differs from slices.SortFunc", n)
		}
	}
}
