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

// ascending, the browser module's Ascending, gives slices.Sort's order for strings (bytes
// compared, as Go compares strings) and integers, duplicates included.
func TestAscendingSortsAsSlicesSort(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for n := 0; n <= 300; n += 7 {
		words := make([]string, n)
		nums := make([]int64, n)
		for i := range words {
			b := make([]byte, r.Intn(4))
			for k := range b {
				b[k] = "aAb\x00é"[r.Intn(6)]
			}
			words[i] = string(b)
			nums[i] = r.Int63n(int64(n/2+1)) - int64(n/4)
		}
		wantWords, gotWords := slices.Clone(words), slices.Clone(words)
		slices.Sort(wantWords)
		ascending(gotWords)
		if !slices.Equal(gotWords, wantWords) {
			t.Fatalf("n=%d: strings %q, want %q", n, gotWords, wantWords)
		}
		wantNums, gotNums := slices.Clone(nums), slices.Clone(nums)
		slices.Sort(wantNums)
		ascending(gotNums)
		if !slices.Equal(gotNums, wantNums) {
			t.Fatalf("n=%d: integers %v, want %v", n, gotNums, wantNums)
		}
	}
}
