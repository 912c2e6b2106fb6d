// Package order sorts slices as package slices does, with one copy of the sorting code for
// every element type. slices.SortFunc and slices.SortStableFunc are compiled once per element
// type (a dozen functions, some 20 KB of the browser module each); these go through sort.Slice
// and sort.SliceStable, shared by all. They are slower (each swap goes through reflection), so
// they are for the sorts of a few hundred elements; the hot paths keep package slices.
package order

import "sort"

// Sort sorts s by cmp exactly as slices.SortFunc(s, cmp) does: the same algorithm (pattern-
// defeating quicksort, generated from one template in the standard library), so even elements
// cmp finds equal end up in the same order.
func Sort[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// Stable sorts s by cmp as slices.SortStableFunc(s, cmp) does, keeping the order of elements
// cmp finds equal.
func Stable[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}
