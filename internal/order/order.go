// Package order sorts slices as package slices does, with one copy of the sorting code for
// every element type. slices.SortFunc, slices.SortStableFunc and slices.Sort are compiled once
// per element type (a dozen functions, some 20 KB of the browser module each); sort.Slice and
// sort.SliceStable are compiled once for all. They are slower (each swap goes through
// reflection), so Sort and Stable are for the sorts of a few hundred elements; Hot, HotStable
// and Ascending are package slices in every program but the browser module, which sorts
// through sort.Slice whatever the size.
package order

import (
	"cmp"
	"sort"
)

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

// ascending sorts s into increasing order as slices.Sort(s) does; the element types sorted
// this way (strings, integers) have no two equal elements that differ.
func ascending[S ~[]E, E cmp.Ordered](s S) {
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
}
