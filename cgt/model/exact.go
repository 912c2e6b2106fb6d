package model

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/shopspring/decimal"
)

// exact is an exact decimal, (−1)^neg × (hi·2⁶⁴ + lo) × 10^exp, held in 24 bytes without a
// heap object when the coefficient fits in 96 bits (28 digits: a pound amount of up to
// £790 million at the engine's 20 decimal places) and the exponent in 16. A report holds
// millions of figures, and a decimal.Decimal costs two allocations each and a pointer for
// the collector to follow; this form costs neither. Any other value is kept as a
// decimal.Decimal in big.
//
// Every value keeps the coefficient and exponent it was built with, so converting to
// decimal.Decimal (and writing it) gives exactly what the decimal.Decimal it stands for would.
type exact struct {
	lo  uint64
	hi  uint32
	exp int16
	neg bool             // never set for a zero magnitude
	big *decimal.Decimal // the value, when it does not fit the fields above
}

// exactOf holds d.
func exactOf(d decimal.Decimal) exact {
	if d.NumDigits() <= 18 {
		c := d.CoefficientInt64()
		if c < 0 {
			return fit(true, 0, uint64(-c), d.Exponent(), d)
		}
		return fit(false, 0, uint64(c), d.Exponent(), d)
	}
	if c := d.Coefficient(); bits.UintSize == 64 && c.BitLen() <= 96 {
		var words [2]uint64
		for i, w := range c.Bits() { // little-endian 64-bit words
			words[i] = uint64(w)
		}
		return fit(c.Sign() < 0, words[1], words[0], d.Exponent(), d)
	}
	return exact{big: &d}
}

// exactParts holds the given sign, magnitude and exponent.
func exactParts(neg bool, hi, lo uint64, exp int32) exact {
	if hi <= math.MaxUint32 && exp >= math.MinInt16 && exp <= math.MaxInt16 {
		return exact{lo: lo, hi: uint32(hi), exp: int16(exp), neg: neg && hi|lo != 0}
	}
	d := exact{}.withParts(neg, hi, lo, exp)
	return exact{big: &d}
}

// fit holds the value d, whose parts are given, compactly when it can.
func fit(neg bool, hi, lo uint64, exp int32, d decimal.Decimal) exact {
	if hi <= math.MaxUint32 && exp >= math.MinInt16 && exp <= math.MaxInt16 {
		return exact{lo: lo, hi: uint32(hi), exp: int16(exp), neg: neg && hi|lo != 0}
	}
	return exact{big: &d}
}

// decimal returns the value as a decimal.Decimal. A zero at exponent 0 is the zero
// decimal.Decimal.
func (e exact) decimal() decimal.Decimal {
	if e.big != nil {
		return *e.big
	}
	return e.withParts(e.neg, uint64(e.hi), e.lo, int32(e.exp))
}

// withParts builds the decimal.Decimal of a sign, 128-bit magnitude and exponent.
func (exact) withParts(neg bool, hi, lo uint64, exp int32) decimal.Decimal {
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
	words := [2]big.Word{big.Word(lo), big.Word(hi)}
	var v big.Int // copied by NewFromBigInt, so it can live on the stack
	v.SetBits(words[:])
	if neg {
		v.Neg(&v)
	}
	return decimal.NewFromBigInt(&v, exp)
}

func (e exact) sign() int {
	switch {
	case e.big != nil:
		return e.big.Sign()
	case e.hi == 0 && e.lo == 0:
		return 0
	case e.neg:
		return -1
	}
	return 1
}

// pow10s are the powers of ten that fit in a uint64.
var pow10s = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// round rounds half away from zero to places decimal places, at exponent −places, as
// decimal.Decimal.Round does. ok is false when the result would not fit in 128 bits.
func (e exact) round(places int32) (exact, bool) {
	if e.big != nil {
		return exact{}, false
	}
	if int32(e.exp) == -places {
		return e, true
	}
	hi, lo := uint64(e.hi), e.lo
	d := int64(e.exp) + int64(places) + 1 // digits to add (> 0) or drop (< 0) to reach places+1
	switch {
	case d > 0:
		for d > 0 && hi|lo != 0 {
			step := min(d, 19)
			h1, l1 := bits.Mul64(lo, pow10s[step])
			h2, l2 := bits.Mul64(hi, pow10s[step])
			var carry uint64
			hi, carry = bits.Add64(h1, l2, 0)
			if h2 != 0 || carry != 0 {
				return exact{}, false
			}
			lo = l1
			d -= step
		}
	case d >= -38:
		hi, lo = div10k(hi, lo, -d)
	default:
		hi, lo = 0, 0
	}
	var carry uint64
	lo, carry = bits.Add64(lo, 5, 0)
	hi, carry = bits.Add64(hi, 0, carry)
	if carry != 0 {
		return exact{}, false
	}
	hi, lo = div10k(hi, lo, 1)
	if hi > math.MaxUint32 {
		return exact{}, false
	}
	return exactParts(e.neg, hi, lo, -places), true
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

// appendDigits appends the decimal digits of a 128-bit magnitude ("0" for zero).
func appendDigits(b []byte, hi, lo uint64) []byte {
	var buf [40]byte
	i := len(buf)
	for hi != 0 || lo >= 10 {
		var r uint64
		qhi := hi / 10
		lo, r = bits.Div64(hi%10, lo, 10)
		hi = qhi
		i--
		buf[i] = byte('0' + r)
	}
	i--
	buf[i] = byte('0' + lo)
	return append(b, buf[i:]...)
}

// appendString appends the value as decimal.Decimal's string form writes it with
// scientific notation off: the coefficient's digits with the point placed by the exponent,
// trailing fraction zeros removed when trim is set.
func (e exact) appendString(b []byte, trim bool) []byte {
	if e.neg {
		b = append(b, '-')
	}
	if e.exp >= 0 {
		b = appendDigits(b, uint64(e.hi), e.lo)
		if e.hi != 0 || e.lo != 0 {
			for range e.exp {
				b = append(b, '0')
			}
		}
		return b
	}
	var buf [40]byte
	digits := appendDigits(buf[:0], uint64(e.hi), e.lo)
	point := len(digits) + int(e.exp) // digits before the point; ≤ 0 when the value is below 1
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
