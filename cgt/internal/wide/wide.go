// Package wide is the project's one exact-decimal core: arithmetic on the magnitude of a
// decimal coefficient held as an unsigned 128-bit integer, hi·2⁶⁴ + lo, and the conversions
// between a sign, such a magnitude and an exponent and decimal.Decimal.
//
// Two types are built on it: model's compact storage form of Money and Decimal (24 bytes, a
// report holds millions of figures) and the engine's arithmetic form (num). Both hold a value
// as a sign, a magnitude and an exponent, and fall back to decimal.Decimal when a magnitude
// does not fit; the functions here say when that is (ok false), and never allocate except
// where they build a decimal.Decimal.
//
// Every function that stands for a decimal.Decimal operation gives exactly the coefficient
// and exponent decimal.Decimal gives, not only the same value, so a figure is written the
// same way whichever form computed it. The tests check this against decimal.Decimal and
// math/big.
package wide

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/shopspring/decimal"
)

// MaxPow10 is the largest k for which 10^k fits in a uint64.
const MaxPow10 = 19

// MaxDigits is the number of decimal digits of the largest magnitude, 2¹²⁸ − 1.
const MaxDigits = 39

var pow10 = [MaxPow10 + 1]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// Pow10 returns 10^k for 0 ≤ k ≤ MaxPow10.
func Pow10(k int) uint64 { return pow10[k] }

// Cmp compares the magnitudes a and b: −1 if a < b, 0 if equal, 1 if a > b.
func Cmp(ahi, alo, bhi, blo uint64) int {
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

// Add returns a + b; ok is false when the sum does not fit in 128 bits.
func Add(ahi, alo, bhi, blo uint64) (hi, lo uint64, ok bool) {
	lo, carry := bits.Add64(alo, blo, 0)
	hi, carry = bits.Add64(ahi, bhi, carry)
	return hi, lo, carry == 0
}

// Sub returns a − b for a ≥ b.
func Sub(ahi, alo, bhi, blo uint64) (hi, lo uint64) {
	lo, borrow := bits.Sub64(alo, blo, 0)
	hi, _ = bits.Sub64(ahi, bhi, borrow)
	return hi, lo
}

// Mul64 returns a × m; ok is false when the product does not fit in 128 bits.
func Mul64(hi, lo, m uint64) (uint64, uint64, bool) {
	h1, l1 := bits.Mul64(lo, m)
	h2, l2 := bits.Mul64(hi, m)
	if h2 != 0 {
		return 0, 0, false
	}
	h, carry := bits.Add64(h1, l2, 0)
	return h, l1, carry == 0
}

// Scale10 returns a × 10^k for k ≥ 0; ok is false when the product does not fit in 128 bits.
// Zero scales to zero for any k.
func Scale10(hi, lo uint64, k int64) (uint64, uint64, bool) {
	if hi|lo == 0 {
		return 0, 0, true
	}
	ok := true
	for k > 0 && ok {
		step := min(k, MaxPow10)
		hi, lo, ok = Mul64(hi, lo, pow10[step])
		k -= step
	}
	return hi, lo, ok
}

// Div10k returns a ÷ 10^k, truncated, for 0 ≤ k ≤ 2·MaxPow10 (10³⁸ is the largest power of
// ten below 2¹²⁸; any larger k gives zero, which the caller knows without dividing).
func Div10k(hi, lo uint64, k int64) (uint64, uint64) {
	for k > 0 {
		step := min(k, MaxPow10)
		p := pow10[step]
		qhi, r := hi/p, hi%p
		lo, _ = bits.Div64(r, lo, p)
		hi = qhi
		k -= step
	}
	return hi, lo
}

// DivWide divides a by a divisor b of at least 2⁶⁴ (bhi ≠ 0), giving the quotient, which fits
// in 64 bits, and the remainder. It estimates the quotient from the divisor's top 64 bits
// after normalizing, then corrects it by one (Hacker's Delight, 9-5).
func DivWide(ahi, alo, bhi, blo uint64) (q, rhi, rlo uint64) {
	s := uint(bits.LeadingZeros64(bhi))
	top := bhi<<s | blo>>(64-s) // the divisor's top 64 bits; its top bit is set
	q1, _ := bits.Div64(ahi>>1, ahi<<63|alo>>1, top)
	q = q1 >> (63 - s) // undo the normalization and the halving of the dividend
	if q != 0 {
		q-- // now q is the quotient or one less
	}
	ph, pl := bits.Mul64(q, blo)
	ph += q * bhi // q × divisor ≤ dividend, so this cannot overflow
	rhi, rlo = Sub(ahi, alo, ph, pl)
	if Cmp(rhi, rlo, bhi, blo) >= 0 {
		q++
		rhi, rlo = Sub(rhi, rlo, bhi, blo)
	}
	return q, rhi, rlo
}

// DivRound returns a × 10^k ÷ b rounded half away from zero: the magnitude of
// decimal.Decimal's DivRound(a×10^ea, b×10^eb, places) at k = ea − eb + places, whose
// exponent is −places. ok is false when b is zero, k is outside ±2·MaxPow10, or a scaled
// operand or the quotient does not fit in 128 bits.
func DivRound(ahi, alo, bhi, blo uint64, k int64) (hi, lo uint64, ok bool) {
	if bhi|blo == 0 || k < -2*MaxPow10 || k > 2*MaxPow10 {
		return 0, 0, false
	}
	if k < 0 {
		bhi, blo, ok = Scale10(bhi, blo, -k)
	} else {
		ahi, alo, ok = Scale10(ahi, alo, k)
	}
	if !ok {
		return 0, 0, false
	}
	var qhi, qlo uint64
	if bhi == 0 {
		var r uint64
		qhi, r = ahi/blo, ahi%blo
		qlo, r = bits.Div64(r, alo, blo)
		if r < blo-r { // 2r < divisor: the quotient stands
			return qhi, qlo, true
		}
	} else {
		var rhi, rlo uint64
		qlo, rhi, rlo = DivWide(ahi, alo, bhi, blo)
		if dhi, dlo := Sub(bhi, blo, rhi, rlo); Cmp(rhi, rlo, dhi, dlo) < 0 { // r < divisor − r
			return 0, qlo, true
		}
	}
	return Add(qhi, qlo, 0, 1) // 2r ≥ divisor: away from zero
}

// Round rounds the magnitude of a value at exponent exp half away from zero to places
// decimal places, giving the magnitude at exponent −places, as decimal.Decimal.Round does
// (a negative places rounds to tens, hundreds, ...). A value already at exponent −places is
// returned as it is. ok is false when an intermediate does not fit in 128 bits.
func Round(hi, lo uint64, exp, places int32) (uint64, uint64, bool) {
	if int64(exp) == -int64(places) {
		return hi, lo, true
	}
	d := int64(exp) + int64(places) + 1 // digits to add (> 0) or drop (< 0) to reach places+1
	switch {
	case d > 0:
		var ok bool
		if hi, lo, ok = Scale10(hi, lo, d); !ok {
			return 0, 0, false
		}
	case d >= -2*MaxPow10:
		hi, lo = Div10k(hi, lo, -d)
	default:
		hi, lo = 0, 0
	}
	hi, lo, ok := Add(hi, lo, 0, 5)
	if !ok {
		return 0, 0, false
	}
	hi, lo = Div10k(hi, lo, 1)
	return hi, lo, true
}

// trimPowers are the powers of ten TrimZeros divides by, largest first: after the largest has
// been taken out as often as it goes, each smaller one goes at most once.
var trimPowers = [...]int32{16, 8, 4, 2, 1}

// TrimZeros removes a nonzero magnitude's trailing decimal zeros, giving the shorter
// magnitude and how many zeros it lost (the caller raises its exponent by as many). Zero is
// returned as it is.
func TrimZeros(hi, lo uint64) (uint64, uint64, int32) {
	if hi|lo == 0 {
		return 0, 0, 0
	}
	var n int32
	for _, k := range trimPowers {
		p := pow10[k]
		for {
			qhi, r := hi/p, hi%p
			qlo, rest := bits.Div64(r, lo, p)
			if rest != 0 {
				break
			}
			hi, lo, n = qhi, qlo, n+k
		}
	}
	return hi, lo, n
}

// FromDecimal splits d into its sign, the magnitude of its coefficient and its exponent; ok
// is false when the coefficient does not fit in 128 bits. It does not keep d.
func FromDecimal(d decimal.Decimal) (neg bool, hi, lo uint64, exp int32, ok bool) {
	exp = d.Exponent()
	if d.NumDigits() <= 18 {
		c := d.CoefficientInt64()
		if c < 0 {
			return true, 0, uint64(-c), exp, true
		}
		return false, 0, uint64(c), exp, true
	}
	c := d.Coefficient()
	if c.BitLen() > 128 {
		return false, 0, 0, exp, false
	}
	for i, w := range c.Bits() { // little-endian words
		if s := uint(i * bits.UintSize); s < 64 {
			lo |= uint64(w) << s
		} else {
			hi |= uint64(w) << (s - 64)
		}
	}
	return c.Sign() < 0, hi, lo, exp, true
}

// ToDecimal builds the decimal.Decimal (−1)^neg × (hi·2⁶⁴ + lo) × 10^exp, with that
// coefficient and exponent. A zero at exponent 0 is the zero decimal.Decimal, which
// allocates nothing; a zero at another exponent keeps it, as decimal.Decimal does.
func ToDecimal(neg bool, hi, lo uint64, exp int32) decimal.Decimal {
	if hi == 0 && lo <= math.MaxInt64 {
		if lo == 0 && exp == 0 {
			return decimal.Decimal{}
		}
		c := int64(lo)
		if neg {
			c = -c
		}
		return decimal.New(c, exp)
	}
	var words [128 / bits.UintSize]big.Word // little-endian
	for i := range words {
		s := uint(i * bits.UintSize)
		if s < 64 {
			words[i] = big.Word(lo >> s)
		} else {
			words[i] = big.Word(hi >> (s - 64))
		}
	}
	var v big.Int // copied by NewFromBigInt
	v.SetBits(words[:])
	if neg {
		v.Neg(&v)
	}
	return decimal.NewFromBigInt(&v, exp)
}

// AppendDigits appends the decimal digits of the magnitude ("0" for zero).
func AppendDigits(b []byte, hi, lo uint64) []byte {
	if hi == 0 {
		return strconv.AppendUint(b, lo, 10) // the usual case, two digits at a time
	}
	var buf [MaxDigits]byte
	i := len(buf)
	for hi != 0 { // peel 19 digits at a time until the rest fits in 64 bits
		var r uint64
		qhi := hi / pow10[MaxPow10]
		lo, r = bits.Div64(hi%pow10[MaxPow10], lo, pow10[MaxPow10])
		hi = qhi
		for range MaxPow10 {
			i--
			buf[i] = byte('0' + r%10)
			r /= 10
		}
	}
	b = strconv.AppendUint(b, lo, 10)
	return append(b, buf[i:]...)
}

// AppendString appends (−1)^neg × (hi·2⁶⁴ + lo) × 10^exp as decimal.Decimal's String writes
// it with scientific notation off: the coefficient's digits with the point placed by the
// exponent, and with trim set (decimal.TrimTrailingZeros) the fraction's trailing zeros
// removed. With trim unset and exp = −places it is StringFixed(places). A negative zero is
// written with its sign, so callers keep neg unset for a zero magnitude.
func AppendString(b []byte, neg bool, hi, lo uint64, exp int32, trim bool) []byte {
	if neg {
		b = append(b, '-')
	}
	if exp >= 0 {
		b = AppendDigits(b, hi, lo)
		if hi|lo != 0 {
			for range exp {
				b = append(b, '0')
			}
		}
		return b
	}
	var buf [MaxDigits]byte
	digits := AppendDigits(buf[:0], hi, lo)
	point := len(digits) + int(exp) // digits before the point; ≤ 0 when the value is below 1
	var intPart, frac []byte
	lead := 0
	if point > 0 {
		intPart, frac = digits[:point], digits[point:]
	} else {
		intPart, frac, lead = []byte{'0'}, digits, -point
	}
	if trim {
		i := len(frac)
		for i > 0 && frac[i-1] == '0' {
			i--
		}
		frac = frac[:i]
		if len(frac) == 0 {
			lead = 0
		}
	}
	b = append(b, intPart...)
	if lead+len(frac) > 0 {
		b = append(b, '.')
		for range lead {
			b = append(b, '0')
		}
		b = append(b, frac...)
	}
	return b
}
