//go:build js

package order

import "cmp"

// Hot sorts s by cmp with Sort, which places every element where slices.SortFunc does: the
// browser module keeps one copy of the sorting code.
func Hot[S ~[]E, E any](s S, cmp func(a, b E) int) { Sort(s, cmp) }

// HotStable sorts s by cmp with Stable, which places every element where
// slices.SortStableFunc does.
func HotStable[S ~[]E, E any](s S, cmp func(a, b E) int) { Stable(s, cmp) }

// Ascending sorts s into increasing order through sort.Slice, as slices.Sort does.
func Ascending[S ~[]E, E cmp.Ordered](s S) { ascending(s) }
