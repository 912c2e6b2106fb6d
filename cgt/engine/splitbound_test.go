package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
)

// chainLedger is a holding of 100 X, n SPLIT lines of ratio (one a day, or all on one day),
// then a sale.
func chainLedger(n int, ratio string, sameDay bool) string {
	var b strings.Builder
	b.WriteString("2010-01-04 BUY X 100 @ 1.00\n")
	d := model.NewDate(2010, time.February, 1)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s SPLIT X RATIO %s\n", d, ratio)
		if !sameDay {
			d = d.AddDays(1)
		}
	}
	fmt.Fprintf(&b, "%s SELL X 1 @ 1.00\n", d.AddDays(1))
	return b.String()
}

// A chain of SPLIT lines stops, with an error naming the line, once the holding (or a day's
// combined ratio) would pass the digits a quantity may have, however long the chain goes on.
func TestChainedSplitsStopAtTheDigitBound(t *testing.T) {
	cases := []struct {
		name, ratio string
		sameDay     bool
		line        int
		what        string
	}{
		{"tenfold_each_day", "10", false, 59, "the holding of X"},
		{"three_for_two_each_day", "1.5", false, 53, "the holding of X"},
		{"tenfold_on_one_day", "10", true, 61, "the combined ratio of the day's splits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			txns := parseLedgerFile(t, "chain.cgt", chainLedger(20000, c.ratio, c.sameDay))
			_, err := Calculate(txns, Options{})
			var me *model.Error
			if !errors.As(err, &me) {
				t.Fatalf("got %v, want an error", err)
			}
			if me.Line != c.line || me.File != "chain.cgt" || !strings.Contains(me.Message, c.what) ||
				!strings.Contains(me.Message, fmt.Sprintf("more than the %d", maxSplitDigits)) {
				t.Errorf("got %s:%d %q, want line %d about %s", me.File, me.Line, me.Message, c.line, c.what)
			}
		})
	}
}

// Splits that keep the holding short, however many, are calculated: a ratio written with
// trailing zeros (RATIO 1.000000) does not lengthen the numbers.
func TestLongChainOfUnitSplitsIsCalculated(t *testing.T) {
	for _, sameDay := range []bool{false, true} {
		txns := parseLedgerFile(t, "chain.cgt", chainLedger(20000, "1.000000000000", sameDay))
		rep, err := Calculate(txns, Options{})
		if err != nil {
			t.Fatalf("same day %v: %v", sameDay, err)
		}
		if h := holdingOf(t, rep, "X"); h.Quantity.String() != "99" {
			t.Errorf("same day %v: holding %s, want 99", sameDay, h.Quantity)
		}
	}
}

// Real splits are untouched by the bound: a 3-for-2, a 10-for-1 and a 1-for-5 consolidation.
func TestRealSplitsAreWithinTheBound(t *testing.T) {
	src := "2010-01-04 BUY X 101 @ 1.00\n2011-01-04 SPLIT X RATIO 1.5\n2012-01-04 SPLIT X RATIO 10\n2013-01-04 UNSPLIT X RATIO 5\n2014-01-06 SELL X 1 @ 1.00\n"
	rep, err := Calculate(parseLedgerFile(t, "real.cgt", src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h := holdingOf(t, rep, "X"); h.Quantity.String() != "302" {
		t.Errorf("holding %s, want 302", h.Quantity)
	}
}
