package model

import (
	"math"

	"github.com/cgt-tools/cgt/cgt/internal/wide"
	"github.com/shopspring/decimal"
)

// exact is an exact decimal, (−1)^neg × (hi·2⁶⁴ + lo) × 10^exp, held in 24 bytes without a
// heap object when the coefficient fits in 96 bits (28 digits: a pound amount of up to
// £790 million at the engine's 20 decimal places) and the exponent in 16. A report holds
// millions of figures, and a decimal.Decimal costs two allocations each and a pointer for
// the collector to follow; this form costs neither. Any other value is kept as a
// decimal.Decimal in big. The arithmetic on the magnitude is package wide's.
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
	if neg, hi, lo, exp, ok := wide.FromDecimal(d); ok {
		if e, ok := compactExact(neg, hi, lo, exp); ok {
			return e
		}
	}
	v := d // only a value that does not fit is copied to the heap
	return exact{big: &v}
}

// exactParts holds the given sign, magnitude and exponent.
func exactParts(neg bool, hi, lo uint64, exp int32) exact {
	if e, ok := compactExact(neg, hi, lo, exp); ok {
		return e
	}
	d := wide.ToDecimal(neg, hi, lo, exp)
	return exact{big: &d}
}

// compactExact is the compact form of the given parts; ok is false when the magnitude does
// not fit in 96 bits or the exponent in 16.
func compactExact(neg bool, hi, lo uint64, exp int32) (exact, bool) {
	if hi > math.MaxUint32 || exp < math.MinInt16 || exp > math.MaxInt16 {
		return exact{}, false
	}
	return exact{lo: lo, hi: uint32(hi), exp: int16(exp), neg: neg && hi|lo != 0}, true
}

// decimal returns the value as a decimal.Decimal. A zero at exponent 0 is the zero
// decimal.Decimal.
func (e exact) decimal() decimal.Decimal {
	if e.big != nil {
		return *e.big
	}
	return wide.ToDecimal(e.neg, uint64(e.hi), e.lo, int32(e.exp))
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

// round rounds half away from zero to places decimal places, at exponent −places, as
// decimal.Decimal.Round does. ok is false when the result does not fit the compact form.
func (e exact) round(places int32) (exact, bool) {
	if e.big != nil {
		return exact{}, false
	}
	hi, lo, ok := wide.Round(uint64(e.hi), e.lo, int32(e.exp), places)
	if !ok {
		return exact{}, false
	}
	return compactExact(e.neg, hi, lo, -places)
}

// appendString appends the value as decimal.Decimal's string form writes it with
// scientific notation off, trailing fraction zeros removed when trim is set.
func (e exact) appendString(b []byte, trim bool) []byte {
	return wide.AppendString(b, e.neg, uint64(e.hi), e.lo, int32(e.exp), trim)
}
