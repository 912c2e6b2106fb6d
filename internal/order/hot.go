//go:build !js

package order

import (
	"cmp"
	"slices"
)

// Hot sorts s by cmp with slices.SortFunc; in the browser module, with Sort (the same order).
// It is for the sorts that can be long (the ledger's events, its transactions, disposals).
func Hot[S ~[]E, E any](s S, cmp func(a, b E) int) { slices.SortFunc(s, cmp) }

// HotStable sorts s by cmp with slices.SortStableFunc; in the browser module, with Stable
// (the same order).
func HotStable[S ~[]E, E any](s S, cmp func(a, b E) int) { slices.SortStableFunc(s, cmp) }

// Ascending sorts s into increasing order with slices.Sort; in the browser module, through
// sort.Slice (the same order).
func Ascending[S ~[]E, E cmp.Ordered](s S) { slices.Sort(s) }
