package engine

import (
	"cmp"
	"math"

	"github.com/cgt-tools/cgt/cgt/internal/wide"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// num is an exact decimal, coefficient × 10^exp, for the engine's arithmetic. The coefficient
// is kept as a sign and a 128-bit magnitude, which holds every realistic amount even at the
// 20 decimal places of a non-terminating division, so the common case allocates nothing.
// When a result does not fit, the value is held as a decimal.Decimal instead and the
// arithmetic continues there.
//
// Every operation gives exactly the value and the exponent decimal.Decimal gives for the same
// operation (Add and Sub at the smaller exponent, Mul at the sum of the exponents, divRound
// and round at the precision asked for), so converting to decimal.Decimal at the end cannot
// change a figure or the way it is written. The arithmetic on the magnitude is package
// wide's.
type num struct {
	hi, lo uint64           // magnitude of the coefficient, when big is nil
	big    *decimal.Decimal // the value, when its coefficient does not fit in 128 bits
	exp    int32
	neg    bool // negative; never set for a zero magnitude
}

// numOf holds d.
func numOf(d decimal.Decimal) num {
	neg, hi, lo, exp, ok := wide.FromDecimal(d)
	if ok {
		return compact(hi, lo, exp, neg)
	}
	v := d // only a value that does not fit is copied to the heap
	return num{big: &v, exp: exp}
}

// numOfMoney is the exact value of a report figure.
func numOfMoney(m model.Money) num {
	if neg, hi, lo, exp, ok := m.Parts128(); ok {
		return compact(hi, lo, exp, neg)
	}
	return numOf(m.Exact())
}

// numOfDecimal is the exact value of a ledger figure.
func numOfDecimal(d model.Decimal) num {
	if neg, hi, lo, exp, ok := d.Parts128(); ok {
		return compact(hi, lo, exp, neg)
	}
	return numOf(d.Exact())
}

// numInt is the integer v.
func numInt(v int64) num {
	if v < 0 {
		return num{lo: uint64(-v), neg: true}
	}
	return num{lo: uint64(v)}
}

// decimal returns the value as a decimal.Decimal. A zero at exponent 0 is the zero
// decimal.Decimal, which allocates nothing.
func (n num) decimal() decimal.Decimal {
	if n.big != nil {
		return *n.big
	}
	return wide.ToDecimal(n.neg, n.hi, n.lo, n.exp)
}

// money returns the value as a report figure, without building a decimal.Decimal when the
// coefficient fits in 128 bits.
func (n num) money() model.Money {
	if n.big != nil {
		return model.NewMoney(*n.big)
	}
	return model.NewMoney128(n.neg, n.hi, n.lo, n.exp)
}

// quantity returns the value as a reported quantity, price or ratio, like money.
func (n num) quantity() model.Decimal {
	if n.big != nil {
		return model.NewDecimal(*n.big)
	}
	return model.NewDecimal128(n.neg, n.hi, n.lo, n.exp)
}

// bigNum wraps the result of a decimal.Decimal operation, compacting it when it fits.
func bigNum(d decimal.Decimal) num { return numOf(d) }

func (n num) isZero() bool {
	if n.big != nil {
		return n.big.IsZero()
	}
	return n.hi == 0 && n.lo == 0
}

func (n num) sign() int {
	switch {
	case n.big != nil:
		return n.big.Sign()
	case n.hi == 0 && n.lo == 0:
		return 0
	case n.neg:
		return -1
	}
	return 1
}

// compact returns a num with the given magnitude and sign, normalizing the sign of zero.
func compact(hi, lo uint64, exp int32, neg bool) num {
	return num{hi: hi, lo: lo, exp: exp, neg: neg && (hi|lo) != 0}
}

func (n num) negate() num {
	if n.big != nil {
		return bigNum(n.big.Neg())
	}
	return compact(n.hi, n.lo, n.exp, !n.neg)
}

func (n num) abs() num {
	if n.big != nil {
		return bigNum(n.big.Abs())
	}
	if !n.neg {
		return n
	}
	return compact(n.hi, n.lo, n.exp, false)
}

// align brings a and b to the smaller of their exponents; ok is false when a magnitude would
// overflow.
func align(a, b num) (num, num, bool) {
	var ok bool
	switch {
	case a.exp > b.exp:
		a.hi, a.lo, ok = wide.Scale10(a.hi, a.lo, int64(a.exp)-int64(b.exp))
		a.exp = b.exp
	case b.exp > a.exp:
		b.hi, b.lo, ok = wide.Scale10(b.hi, b.lo, int64(b.exp)-int64(a.exp))
		b.exp = a.exp
	default:
		ok = true
	}
	return a, b, ok
}

func (n num) add(m num) num {
	if n.big == nil && m.big == nil {
		if n.exp == m.exp { // the usual case: no scaling
			if s, ok := addMag(n, m); ok {
				return s
			}
		} else if a, b, ok := align(n, m); ok {
			if s, ok := addMag(a, b); ok {
				return s
			}
		}
	}
	return bigNum(n.decimal().Add(m.decimal()))
}

// addMag adds two compact values at the same exponent; ok is false when the sum overflows.
func addMag(a, b num) (num, bool) {
	if a.neg == b.neg {
		hi, lo, ok := wide.Add(a.hi, a.lo, b.hi, b.lo)
		return compact(hi, lo, a.exp, a.neg), ok
	}
	if wide.Cmp(a.hi, a.lo, b.hi, b.lo) < 0 {
		a, b = b, a
	}
	hi, lo := wide.Sub(a.hi, a.lo, b.hi, b.lo)
	return compact(hi, lo, a.exp, a.neg), true
}

func (n num) sub(m num) num {
	if n.big == nil && m.big == nil {
		return n.add(compact(m.hi, m.lo, m.exp, !m.neg))
	}
	return bigNum(n.decimal().Sub(m.decimal()))
}

func (n num) mul(m num) num {
	if p, ok := n.mulCompact(m); ok {
		return p
	}
	return bigNum(n.decimal().Mul(m.decimal()))
}

// mulCompact is mul when the product fits in 128 bits; ok is false otherwise.
func (n num) mulCompact(m num) (num, bool) {
	if n.big == nil && m.big == nil && n.exp > math.MinInt32/2 && n.exp < math.MaxInt32/2 &&
		m.exp > math.MinInt32/2 && m.exp < math.MaxInt32/2 {
		a, b := n, m
		if a.hi != 0 {
			a, b = b, a
		}
		if a.hi == 0 {
			if hi, lo, ok := wide.Mul64(b.hi, b.lo, a.lo); ok {
				return compact(hi, lo, n.exp+m.exp, n.neg != m.neg), true
			}
		}
	}
	return num{}, false
}

// trim removes the coefficient's trailing decimal zeros and raises the exponent to match:
// the same value with a shorter coefficient. A quantity that passed through a 20-place
// division is often a whole number held as N × 10²⁰; trimmed, it multiplies and divides
// within 128 bits.
func (n num) trim() num {
	if n.big != nil || n.isZero() || n.exp > math.MaxInt32/2 {
		return n
	}
	var k int32
	n.hi, n.lo, k = wide.TrimZeros(n.hi, n.lo)
	n.exp += k
	return n
}

func (n num) cmp(m num) int {
	if n.big == nil && m.big == nil {
		if s, t := n.sign(), m.sign(); s != t || s == 0 {
			return cmp.Compare(s, t)
		}
		a, b, ok := n, m, true
		if n.exp != m.exp {
			a, b, ok = align(n, m)
		}
		if ok {
			c := wide.Cmp(a.hi, a.lo, b.hi, b.lo)
			if n.neg {
				return -c
			}
			return c
		}
	}
	return n.decimal().Cmp(m.decimal())
}

func (n num) equal(m num) bool { return n.cmp(m) == 0 }

// sameAs reports whether n and m are the same value at the same exponent, so that either
// writes the same way.
func (n num) sameAs(m num) bool {
	if n.big != nil || m.big != nil {
		return n.big != nil && m.big != nil && n.exp == m.exp && n.big.Equal(*m.big)
	}
	return n.hi == m.hi && n.lo == m.lo && n.exp == m.exp && n.neg == m.neg
}

// divRound returns n ÷ m rounded half away from zero to places decimal places, at exponent
// −places (decimal.Decimal.DivRound).
func (n num) divRound(m num, places int32) num {
	if n.big == nil && m.big == nil && !m.isZero() && places >= 0 && places <= 40 {
		if q, ok := n.divRoundCompact(m, places); ok {
			return q
		}
	}
	return bigNum(n.decimal().DivRound(m.decimal(), places))
}

// divRoundCompact is divRound when the operands, the scaled dividend or divisor and the
// quotient fit in 128 bits; ok is false otherwise.
func (n num) divRoundCompact(m num, places int32) (num, bool) {
	hi, lo, ok := wide.DivRound(n.hi, n.lo, m.hi, m.lo, int64(n.exp)-int64(m.exp)+int64(places))
	if !ok {
		return num{}, false
	}
	return compact(hi, lo, -places, n.neg != m.neg), true
}

// round rounds half away from zero to places decimal places (decimal.Decimal.Round).
func (n num) round(places int32) num {
	if n.exp == -places {
		return n
	}
	if n.big == nil && places >= 0 && places <= 40 {
		if hi, lo, ok := wide.Round(n.hi, n.lo, n.exp, places); ok {
			return compact(hi, lo, -places, n.neg)
		}
	}
	return bigNum(n.decimal().Round(places))
}

// addNZ adds without touching the other side when one side is zero, as decimal's callers
// did: a zero operand keeps the other operand's exponent.
func addNZ(a, b num) num {
	if b.isZero() {
		return a
	}
	if a.isZero() {
		return b
	}
	return a.add(b)
}

// subNZ subtracts, leaving a unchanged when b is zero.
func subNZ(a, b num) num {
	if b.isZero() {
		return a
	}
	return a.sub(b)
}

func minNum(a, b num) num {
	if a.cmp(b) <= 0 {
		return a
	}
	return b
}

// mulDivNum returns a × b ÷ c, exact when the division terminates within divPlaces.
func mulDivNum(a, b, c num) num {
	if b.equal(c) {
		return a
	}
	if q, ok := mulDivCompact(a, b, c); ok {
		return q
	}
	return a.mul(b).divRound(c, divPlaces)
}

// mulDivCompact is a × b ÷ c within 128 bits, ok false when it does not fit. The quotient is
// rounded to divPlaces, so its value and exponent do not depend on how the operands are
// written: when the plain product or division overflows, it tries again with the operands'
// trailing zeros trimmed.
func mulDivCompact(a, b, c num) (num, bool) {
	if a.big != nil || b.big != nil || c.big != nil || c.isZero() {
		return num{}, false
	}
	p, ok := a.mulCompact(b)
	if !ok {
		if p, ok = a.trim().mulCompact(b.trim()); !ok {
			return num{}, false
		}
	}
	if q, ok := p.divRoundCompact(c, divPlaces); ok {
		return q, true
	}
	return p.trim().divRoundCompact(c.trim(), divPlaces)
}
