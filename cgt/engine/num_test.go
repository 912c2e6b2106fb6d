package engine

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cgt-tools/cgt/cgt/internal/wide/widetest"
	"github.com/shopspring/decimal"
)

func TestNumMatchesDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 200_000 {
		a, b := widetest.Decimal(rng, -24, 5), widetest.Decimal(rng, -24, 5)
		na, nb := numOf(a), numOf(b)
		check := func(op string, got num, want decimal.Decimal) {
			t.Helper()
			if g := got.decimal(); !widetest.Same(g, want) {
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
		d := widetest.Decimal(rng, -24, 5)
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
		if got := mulDivNum(numOf(a), numOf(b), numOf(c)).decimal(); !widetest.Same(got, want) {
			t.Fatalf("#%d %s × %s ÷ %s = %s (exp %d), want %s (exp %d)", i, a, b, c, got, got.Exponent(), want, want.Exponent())
		}
	}
}

func TestTrimKeepsTheValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	for i := range 100_000 {
		d := widetest.Decimal(rng, -24, 5)
		got := numOf(d).trim()
		if !got.decimal().Equal(d) || (got.big == nil && !got.isZero() && got.lo%10 == 0 && got.hi%10 == 0 &&
			new(big.Int).Rem(got.decimal().Coefficient(), big.NewInt(10)).Sign() == 0) {
			t.Fatalf("#%d trim(%s) = %s (exp %d)", i, d, got.decimal(), got.exp)
		}
	}
}
