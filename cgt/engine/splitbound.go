package engine

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// maxSplitDigits bounds the numbers splits build: a holding, a pool or a day's combined ratio
// after a SPLIT or UNSPLIT has at most this many digits, as a number in a ledger may (the
// reader's limit). Real splits stay far below it (a 10-for-1 split adds one digit, a 3-for-2
// one decimal place); without the bound a chain of SPLIT lines multiplies the holding into
// numbers of thousands of digits, each split slower than the last.
const maxSplitDigits = 60

// writtenDigits is about how many digits n takes written out without trailing zeros after
// the point (150.50 is 4): exact to within one digit, which is all a bound needs. The numbers
// it is asked about were within the bound one split earlier, so it costs little.
func (n num) writtenDigits() int {
	if n.big != nil {
		s := strings.TrimPrefix(n.big.String(), "-") // without trailing zeros after the point
		return len(strings.TrimLeft(strings.Replace(s, ".", "", 1), "0"))
	}
	n = n.trim()
	bitLen := 128 - bits.LeadingZeros64(n.hi)
	if n.hi == 0 {
		bitLen = 64 - bits.LeadingZeros64(n.lo)
	}
	digits := bitLen*30103/100000 + 1 // log10(2) = 0.30103
	if n.exp > 0 {
		digits += int(n.exp)
	}
	return digits
}

// splitTooLarge is the error for the SPLIT or UNSPLIT line t that made what (the holding, the
// pool, the day's combined ratio) longer than maxSplitDigits.
func splitTooLarge(t *model.Transaction, what string, digits int) error {
	e := lineError(t, fmt.Sprintf("%s %s RATIO %s on %s: %s would become a number of about %d digits, more than the %d a quantity may have; "+
		"a chain of splits this long is almost certainly a mistake", t.Action, t.Ticker, t.Ratio(), t.Date, what, digits, maxSplitDigits),
		"Check the RATIO of this line and of the SPLIT and UNSPLIT lines of "+t.Ticker+" before it: RATIO is new shares per old share (10 for a 10-for-1 split), "+
			"a consolidation is an UNSPLIT line, and a split is written once.",
		"2024-06-10 SPLIT "+t.Ticker+" RATIO 10")
	e.Context["digits"] = digits
	e.Context["max_digits"] = maxSplitDigits
	return e
}

// checkSplitDays refuses a day whose splits combine into a ratio longer than the bound, before
// any disposal uses that ratio to convert shares across it.
func checkSplitDays(days []day) error {
	for i := range days {
		if t := days[i].splitOver; t != nil {
			return splitTooLarge(t, "the combined ratio of the day's splits", max(days[i].splitNum.writtenDigits(), days[i].splitDen.writtenDigits()))
		}
	}
	return nil
}

// shortened is n without the trailing zeros after the point, when n is past 128 bits: a ratio
// written with zeros (RATIO 1.000000000000) adds them to the coefficient at every split, and
// the coefficient, not the value, is what each multiplication and check costs. Compact numbers
// are returned as they are, so every real ledger's figures keep their form.
func (n num) shortened() num {
	if n.big == nil {
		return n
	}
	d, err := decimal.NewFromString(n.big.String()) // String drops the trailing zeros
	if err != nil {
		return n
	}
	return numOf(d)
}
