// Package widetest holds what the tests of the decimal forms share: random decimals of every
// size the forms meet, and the comparison that says two decimals write the same way. It is
// imported by tests only.
package widetest

import (
	"math/big"
	"math/rand/v2"

	"github.com/shopspring/decimal"
)

// Decimal draws a decimal of any size a report holds — ledger figures, 20-place quotients,
// values near the 64- and 128-bit limits and beyond them, halves at the third place — at an
// exponent from minExp to maxExp.
func Decimal(rng *rand.Rand, minExp, maxExp int32) decimal.Decimal {
	var c big.Int
	switch rng.IntN(7) {
	case 0:
		c.SetInt64(int64(rng.IntN(10)))
	case 1:
		c.SetInt64(rng.Int64N(1_000_000))
	case 2:
		c.SetUint64(rng.Uint64())
	case 3:
		c.SetBits([]big.Word{big.Word(rng.Uint64()), big.Word(rng.Uint64() >> rng.IntN(64))})
	case 4:
		c.SetBits([]big.Word{big.Word(rng.Uint64()), big.Word(rng.Uint64()), big.Word(rng.Uint64N(4))})
	case 5:
		c.SetInt64(rng.Int64N(1000)*1000 + 5) // a half at the third decimal place
	default:
		c.SetInt64(rng.Int64N(1 << 40))
	}
	if rng.IntN(3) == 0 {
		c.Neg(&c)
	}
	return decimal.NewFromBigInt(&c, minExp+int32(rng.IntN(int(maxExp-minExp+1))))
}

// Same reports whether two decimals have the same coefficient and exponent, which is what
// makes them write the same way everywhere.
func Same(a, b decimal.Decimal) bool {
	return a.Exponent() == b.Exponent() && a.Coefficient().Cmp(b.Coefficient()) == 0
}
