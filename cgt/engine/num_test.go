package engine

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// randomDecimal draws decimals of every size the engine meets: ledger figures, 20-place
// quotients, values near the 64- and 128-bit limits and beyond them.
func randomDecimal(rng *rand.Rand) decimal.Decimal {
	var c big.Int
	switch rng.IntN(6) {
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
	default:
		c.SetInt64(rng.Int64N(1 << 40))
	}
	if rng.IntN(3) == 0 {
		c.Neg(&c)
	}
	return decimal.NewFromBigInt(&c, int32(rng.IntN(30))-24)
}

// same reports whether two decimals have the same coefficient and exponent, which is what
// makes them write the same way everywhere.
func same(a, b decimal.Decimal) bool {
	return a.Exponent() == b.Exponent() && a.Coefficient().Cmp(b.Coefficient()) == 0
}

func TestNumMatchesDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 200_000 {
		a, b := randomDecimal(rng), randomDecimal(rng)
		na, nb := numOf(a), numOf(b)
		check := func(op string, got num, want decimal.Decimal) {
			t.Helper()
			if g := got.decimal(); !same(g, want) {
				t.Fatalf("#%d %s(%s, %s) = %s (exp %d), want %s (exp %d)", i, op, a, b, g, g.Exponent(), want, want.Exponent())
			}
		}
		check("add", na.add(nb), a.Add(b))
		check("sub", na.sub(nb), a.Sub(b))
		check("mul", na.mul(nb), a.Mul(b))
		check("neg", na.negate(), a.Neg())
		check("abs", na.abs(), a.Abs())
		places := int32(rng.IntN(24))
		check("round", na.round(places), a.Round(places))
		if !b.IsZero() {
			check("divRound", na.divRound(nb, places), a.DivRound(b, places))
			check("divRound20", na.divRound(nb, divPlaces), a.DivRound(b, divPlaces))
		}
		if got, want := na.cmp(nb), a.Cmp(b); got != want {
			t.Fatalf("#%d cmp(%s, %s) = %d, want %d", i, a, b, got, want)
		}
		if got, want := na.sign(), a.Sign(); got != want {
			t.Fatalf("#%d sign(%s) = %d, want %d", i, a, got, want)
		}
	}
}

// TestMulDivMatchesDecimal checks a × b ÷ c against decimal.Decimal, with operands that
// often carry trailing zeros (whole numbers held at 20 places), which take the trimmed path.
func TestMulDivMatchesDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	padded := func() decimal.Decimal {
		d := randomDecimal(rng)
		if rng.IntN(2) == 0 { // the same value written with up to 24 more zeros
			k := int32(rng.IntN(25))
			d = decimal.NewFromBigInt(new(big.Int).Mul(d.Coefficient(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)), d.Exponent()-k)
		}
		return d
	}
	for i := range 200_000 {
		a, b, c := padded(), padded(), padded()
		if c.IsZero() {
			continue
		}
		want := a.Mul(b).DivRound(c, divPlaces)
		if b.Equal(c) {
			want = a
		}
		if got := mulDivNum(numOf(a), numOf(b), numOf(c)).decimal(); !same(got, want) {
			t.Fatalf("#%d %s × %s ÷ %s = %s (exp %d), want %s (exp %d)", i, a, b, c, got, got.Exponent(), want, want.Exponent())
		}
	}
}

func TestTrimKeepsTheValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	for i := range 100_000 {
		d := randomDecimal(rng)
		got := numOf(d).trim()
		if !got.decimal().Equal(d) || (got.big == nil && !got.isZero() && got.lo%10 == 0 && got.hi%10 == 0 &&
			new(big.Int).Rem(got.decimal().Coefficient(), big.NewInt(10)).Sign() == 0) {
			t.Fatalf("#%d trim(%s) = %s (exp %d)", i, d, got.decimal(), got.exp)
		}
	}
}
