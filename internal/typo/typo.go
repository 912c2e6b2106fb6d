// Package typo measures how far a word is from another, for the "did you mean" of the
// ledger readers (keywords, labels, JSON field names) and the engine (tickers).
package typo

// maxLen bounds the work on a pasted line or a 10 MB field: a word longer than this is
// reported as far from every other, which it is from any keyword or ticker.
const maxLen = 64

// Distance is the optimal string alignment distance between a and b: the fewest insertions,
// deletions, substitutions and swaps of neighbouring bytes that turn one into the other
// ("SLEL" is one swap from "SELL"). Words over maxLen bytes are max(len(a), len(b)) apart.
func Distance(a, b string) int {
	if len(a) > maxLen || len(b) > maxLen {
		return max(len(a), len(b))
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := 1
			if a[i-1] == b[j-1] {
				sub = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+sub)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
