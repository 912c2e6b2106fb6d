package typo

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	long := strings.Repeat("A", maxLen+1)
	for _, tc := range []struct {
		name, a, b string
		want       int
	}{
		{"both_empty", "", "", 0},
		{"deletions", "ABC", "", 3},
		{"insertions", "", "AB", 2},
		{"one_missing_letter", "APPL", "AAPL", 1},
		{"swap_of_neighbours", "AAPL", "APAL", 1},
		{"swap_at_the_end", "ABCD", "ABDC", 1},
		{"keyword_swap", "SLEL", "SELL", 1},
		{"substitutions_and_insertion", "KITTEN", "SITTING", 3},
		{"exchange_suffix", "VWRL", "VWRL.L", 2},
		{"over_the_bound_is_far", long, long, maxLen + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Distance(tc.a, tc.b); got != tc.want {
				t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
