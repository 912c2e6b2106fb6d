package cputime

import "testing"

func TestUsedGrowsWithWork(t *testing.T) {
	before := Used()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	if after := Used(); after <= before {
		t.Errorf("Used() = %v after work, %v before (x=%d)", after, before, x)
	}
}
