package engine

import (
	"math"
	"math/big"
	"math/bits"

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
// change a figure or the way it is written.
type num struct {
	hi, lo uint64           // magnitude of the coefficient, when big is nil
	big    *decimal.Decimal // the value, when its coefficient does not fit in 128 bits
	exp    int32
	neg    bool // negative; never set for a zero magnitude
}

// numOf holds d.
func numOf(d decimal.Decimal) num {
	if d.NumDigits() <= 18 {
		c := d.CoefficientInt64()
		if c < 0 {
			return num{lo: uint64(-c), exp: d.Exponent(), neg: true}
		}
		return num{lo: uint64(c), exp: d.Exponent()}
	}
	if c := d.Coefficient(); bits.UintSize == 64 && c.BitLen() <= 128 {
		var words [2]uint64
		for i, w := range c.Bits() { // little-endian 64-bit words
			words[i] = uint64(w)
		}
		return compact(words[1], words[0], d.Exponent(), c.Sign() < 0)
	}
	return num{big: &d, exp: d.Exponent()}
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
	if n.hi == 0 && n.lo <= math.MaxInt64 {
		if n.lo == 0 && n.exp == 0 {
			return decimal.Decimal{}
		}
		c := int64(n.lo)
		if n.neg {
			c = -c
		}
		return decimal.New(c, n.exp)
	}
	words := [2]big.Word{big.Word(n.lo), big.Word(n.hi)}
	var v big.Int // copied by NewFromBigInt, so it can live on the stack
	v.SetBits(words[:])
	if n.neg {
		v.Neg(&v)
	}
	return decimal.NewFromBigInt(&v, n.exp)
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

// pow10s are the powers of ten that fit in a uint64.
var pow10s = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// mul64 multiplies a 128-bit magnitude by m; ok is false on overflow.
func mul64(hi, lo, m uint64) (uint64, uint64, bool) {
	h1, l1 := bits.Mul64(lo, m)
	h2, l2 := bits.Mul64(hi, m)
	if h2 != 0 {
		return 0, 0, false
	}
	h, carry := bits.Add64(h1, l2, 0)
	return h, l1, carry == 0
}

// scale10 multiplies a 128-bit magnitude by 10^k (k ≥ 0); ok is false on overflow.
func scale10(hi, lo uint64, k int64) (uint64, uint64, bool) {
	if hi|lo == 0 {
		return 0, 0, true
	}
	ok := true
	for k > 0 && ok {
		step := min(k, 19)
		hi, lo, ok = mul64(hi, lo, pow10s[step])
		k -= step
	}
	return hi, lo, ok
}

// align brings a and b to the smaller of their exponents; ok is false when a magnitude would
// overflow.
func align(a, b num) (num, num, bool) {
	var ok bool
	switch {
	case a.exp > b.exp:
		a.hi, a.lo, ok = scale10(a.hi, a.lo, int64(a.exp)-int64(b.exp))
		a.exp = b.exp
	case b.exp > a.exp:
		b.hi, b.lo, ok = scale10(b.hi, b.lo, int64(b.exp)-int64(a.exp))
		b.exp = a.exp
	default:
		ok = true
	}
	return a, b, ok
}

// cmpMag compares two magnitudes.
func cmpMag(ahi, alo, bhi, blo uint64) int {
	switch {
	case ahi != bhi:
		if ahi < bhi {
			return -1
		}
		return 1
	case alo != blo:
		if alo < blo {
			return -1
		}
		return 1
	}
	return 0
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
		lo, carry := bits.Add64(a.lo, b.lo, 0)
		hi, carry := bits.Add64(a.hi, b.hi, carry)
		return compact(hi, lo, a.exp, a.neg), carry == 0
	}
	if cmpMag(a.hi, a.lo, b.hi, b.lo) < 0 {
		a, b = b, a
	}
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
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
			if hi, lo, ok := mul64(b.hi, b.lo, a.lo); ok {
				return compact(hi, lo, n.exp+m.exp, n.neg != m.neg), true
			}
		}
	}
	return num{}, false
}

// trimPowers are the powers of ten trim divides by, largest first: after the largest has
// been taken out as often as it goes, each smaller one goes at most once.
var trimPowers = [...]int32{16, 8, 4, 2, 1}

// trim removes the coefficient's trailing decimal zeros and raises the exponent to match:
// the same value with a shorter coefficient. A quantity that passed through a 20-place
// division is often a whole number held as N × 10²⁰; trimmed, it multiplies and divides
// within 128 bits.
func (n num) trim() num {
	if n.big != nil || n.isZero() || n.exp > math.MaxInt32/2 {
		return n
	}
	for _, k := range trimPowers {
		p := pow10s[k]
		for {
			qhi, r := n.hi/p, n.hi%p
			qlo, rest := bits.Div64(r, n.lo, p)
			if rest != 0 {
				break
			}
			n.hi, n.lo, n.exp = qhi, qlo, n.exp+k
		}
	}
	return n
}

func (n num) cmp(m num) int {
	if n.big == nil && m.big == nil {
		if s, t := n.sign(), m.sign(); s != t || s == 0 {
			return cmpInt(s, t)
		}
		a, b, ok := n, m, true
		if n.exp != m.exp {
			a, b, ok = align(n, m)
		}
		if ok {
			c := cmpMag(a.hi, a.lo, b.hi, b.lo)
			if n.neg {
				return -c
			}
			return c
		}
	}
	return n.decimal().Cmp(m.decimal())
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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

func (n num) divRoundCompact(m num, places int32) (num, bool) {
	e := int64(n.exp) - int64(m.exp) + int64(places)
	if e < -38 || e > 38 {
		return num{}, false
	}
	ahi, alo, bhi, blo := n.hi, n.lo, m.hi, m.lo
	ok := true
	if e < 0 {
		bhi, blo, ok = scale10(bhi, blo, -e)
	} else {
		ahi, alo, ok = scale10(ahi, alo, e)
	}
	if !ok {
		return num{}, false
	}
	var qhi, qlo uint64
	if bhi == 0 {
		var r uint64
		qhi, r = ahi/blo, ahi%blo
		qlo, r = bits.Div64(r, alo, blo)
		if r < blo-r { // 2r < divisor: the quotient stands
			return compact(qhi, qlo, -places, n.neg != m.neg), true
		}
	} else {
		var rhi, rlo uint64
		qlo, rhi, rlo = divWide(ahi, alo, bhi, blo)
		dlo, borrow := bits.Sub64(blo, rlo, 0)
		dhi, _ := bits.Sub64(bhi, rhi, borrow)
		if cmpMag(rhi, rlo, dhi, dlo) < 0 { // r < divisor − r
			return compact(0, qlo, -places, n.neg != m.neg), true
		}
	}
	// 2r ≥ divisor: round away from zero
	var carry uint64
	qlo, carry = bits.Add64(qlo, 1, 0)
	if qhi, carry = bits.Add64(qhi, 0, carry); carry != 0 {
		return num{}, false
	}
	return compact(qhi, qlo, -places, n.neg != m.neg), true
}

// divWide divides a 128-bit magnitude by one of at least 2⁶⁴, giving the quotient, which
// fits in 64 bits, and the remainder (Hacker's Delight, 9-5: estimate the quotient from the
// divisor's top 64 bits after normalizing, then correct it by one).
func divWide(ahi, alo, bhi, blo uint64) (q, rhi, rlo uint64) {
	s := uint(bits.LeadingZeros64(bhi))
	top := bhi<<s | blo>>(64-s) // the divisor's top 64 bits; its top bit is set
	q1, _ := bits.Div64(ahi>>1, ahi<<63|alo>>1, top)
	q = q1 >> (63 - s) // undo the normalization and the halving of the dividend
	if q != 0 {
		q-- // now q is the quotient or one less
	}
	ph, pl := bits.Mul64(q, blo)
	ph += q * bhi // q × divisor ≤ dividend, so this cannot overflow
	rlo, borrow := bits.Sub64(alo, pl, 0)
	rhi, _ = bits.Sub64(ahi, ph, borrow)
	if cmpMag(rhi, rlo, bhi, blo) >= 0 {
		q++
		rlo, borrow = bits.Sub64(rlo, blo, 0)
		rhi, _ = bits.Sub64(rhi, bhi, borrow)
	}
	return q, rhi, rlo
}

// round rounds half away from zero to places decimal places (decimal.Decimal.Round).
func (n num) round(places int32) num {
	if n.exp == -places {
		return n
	}
	if n.big == nil && places >= 0 && places <= 40 {
		hi, lo := n.hi, n.lo
		target := -int64(places) - 1
		d := int64(n.exp) - target
		ok := true
		switch {
		case d > 0:
			hi, lo, ok = scale10(hi, lo, d)
		case d < 0 && d >= -38:
			hi, lo = div10k(hi, lo, -d)
		case d < 0:
			hi, lo = 0, 0
		}
		if ok {
			var carry uint64
			lo, carry = bits.Add64(lo, 5, 0)
			hi, carry = bits.Add64(hi, 0, carry)
			if carry == 0 {
				hi, lo = div10k(hi, lo, 1)
				return compact(hi, lo, -places, n.neg)
			}
		}
	}
	return bigNum(n.decimal().Round(places))
}

// div10k divides a 128-bit magnitude by 10^k (0 ≤ k ≤ 38), truncating.
func div10k(hi, lo uint64, k int64) (uint64, uint64) {
	for k > 0 {
		step := min(k, 19)
		p := pow10s[step]
		qhi, r := hi/p, hi%p
		lo, _ = bits.Div64(r, lo, p)
		hi = qhi
		k -= step
	}
	return hi, lo
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
