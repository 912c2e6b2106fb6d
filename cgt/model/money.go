package model

import (
	"fmt"

	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/shopspring/decimal"
)

// MoneyPlaces is the scale at which every reported GBP figure is written.
const MoneyPlaces = 2

// Money is a reported GBP figure. It keeps the exact value it was built from and writes it
// rounded to 2 decimal places, half away from zero (the rounding stated in docs/tax-rules.md).
// Arithmetic is done on decimal.Decimal; Money is for results. It holds its value without a
// heap object whenever the coefficient fits in 96 bits, so a large report stays cheap.
type Money struct{ v exact }

// NewMoney wraps an exact amount.
func NewMoney(d decimal.Decimal) Money { return Money{exactOf(d)} }

// NewMoney128 is the amount (−1)^neg × (hi·2⁶⁴ + lo) × 10^exp, built without a
// decimal.Decimal; Exact gives that coefficient and exponent.
func NewMoney128(neg bool, hi, lo uint64, exp int32) Money {
	return Money{exactParts(neg, hi, lo, exp)}
}

// MoneyFromString parses a decimal string; it panics on bad input and is meant for constants
// and tests.
func MoneyFromString(s string) Money { return NewMoney(decimal.RequireFromString(s)) }

// Exact returns the unrounded value.
func (m Money) Exact() decimal.Decimal { return m.v.decimal() }

// Rounded returns the value rounded to 2 decimal places, half away from zero.
func (m Money) Rounded() decimal.Decimal {
	if r, ok := m.v.round(MoneyPlaces); ok {
		return r.decimal()
	}
	return m.v.decimal().Round(MoneyPlaces)
}

// String writes the value with exactly two decimals ("1234.50", "-0.30").
func (m Money) String() string { return string(m.appendFixed(nil)) }

// RecordType names the field type of a Money in a rendered record.
func (Money) RecordType() string { return "money" }

// appendFixed appends the 2-decimal form.
func (m Money) appendFixed(b []byte) []byte {
	if r, ok := m.v.round(MoneyPlaces); ok {
		return r.appendString(b, false)
	}
	return append(b, m.v.decimal().StringFixed(MoneyPlaces)...)
}

// Sign returns −1, 0 or 1 for the exact (unrounded) value.
func (m Money) Sign() int { return m.v.sign() }

// IsZero reports whether the rounded value is zero.
func (m Money) IsZero() bool {
	if r, ok := m.v.round(MoneyPlaces); ok {
		return r.sign() == 0
	}
	return m.Rounded().IsZero()
}

// MarshalJSON writes the 2-decimal string form. The form has only digits, '-' and '.', so
// quoting it needs no escaping.
func (m Money) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 24)
	b = append(b, '"')
	b = m.appendFixed(b)
	return append(b, '"'), nil
}

// UnmarshalJSON reads a decimal string or number and refuses null, which decimal.Decimal
// would silently read as zero.
func (m *Money) UnmarshalJSON(b []byte) error {
	d, err := decodeDecimal(b)
	if err != nil {
		return err
	}
	*m = NewMoney(d)
	return nil
}

// Decimal is an exact quantity, price, ratio or rate. It writes its exact scale as a JSON
// string ("100", "4.1565") and, unlike decimal.Decimal, refuses null. Like Money, it holds
// its value without a heap object whenever the coefficient fits in 96 bits.
type Decimal struct{ v exact }

// NewDecimal wraps a decimal.Decimal.
func NewDecimal(d decimal.Decimal) Decimal { return Decimal{exactOf(d)} }

// NewDecimal128 is the value (−1)^neg × (hi·2⁶⁴ + lo) × 10^exp, built without a
// decimal.Decimal; Exact gives that coefficient and exponent.
func NewDecimal128(neg bool, hi, lo uint64, exp int32) Decimal {
	return Decimal{exactParts(neg, hi, lo, exp)}
}

// DecimalFromString parses a decimal string; it panics on bad input and is meant for
// constants and tests.
func DecimalFromString(s string) Decimal { return NewDecimal(decimal.RequireFromString(s)) }

// Parts128 returns the exact value as a sign, a 128-bit coefficient and an exponent, the
// form NewDecimal128 takes; ok is false when the coefficient does not fit.
func (d Decimal) Parts128() (neg bool, hi, lo uint64, exp int32, ok bool) {
	if d.v.big != nil {
		return false, 0, 0, 0, false
	}
	return d.v.neg, uint64(d.v.hi), d.v.lo, int32(d.v.exp), true
}

// Exact returns the value as a decimal.Decimal.
func (d Decimal) Exact() decimal.Decimal { return d.v.decimal() }

// Sign returns −1, 0 or 1.
func (d Decimal) Sign() int { return d.v.sign() }

// IsZero reports whether the value is zero.
func (d Decimal) IsZero() bool { return d.v.sign() == 0 }

// RecordType names the field type of a Decimal in a rendered record.
func (Decimal) RecordType() string { return "decimal" }

// String writes the value as decimal.Decimal.String does.
func (d Decimal) String() string {
	if d.v.big != nil || decimal.UseScientificNotation {
		return d.v.decimal().String()
	}
	return string(d.v.appendString(nil, decimal.TrimTrailingZeros))
}

// MarshalJSON writes the exact decimal string. The form has only digits, '-', '.' (and 'E'
// in scientific notation), so quoting it needs no escaping.
func (d Decimal) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 32)
	b = append(b, '"')
	if d.v.big != nil || decimal.UseScientificNotation {
		b = append(b, d.v.decimal().String()...)
	} else {
		b = d.v.appendString(b, decimal.TrimTrailingZeros)
	}
	return append(b, '"'), nil
}

// UnmarshalJSON reads a decimal string or number and refuses null.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	v, err := decodeDecimal(b)
	if err != nil {
		return err
	}
	*d = NewDecimal(v)
	return nil
}

func decodeDecimal(b []byte) (decimal.Decimal, error) {
	s := string(b)
	if s == "null" {
		return decimal.Decimal{}, fmt.Errorf("a number is required, not null")
	}
	if len(s) >= 2 && s[0] == '"' {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return decimal.Decimal{}, err
		}
		s = str
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%q is not a decimal number", s)
	}
	return d, nil
}

// Parts128 returns the exact value as a sign, a 128-bit coefficient and an exponent, the
// form NewMoney128 takes; ok is false when the coefficient does not fit.
func (m Money) Parts128() (neg bool, hi, lo uint64, exp int32, ok bool) {
	if m.v.big != nil {
		return false, 0, 0, 0, false
	}
	return m.v.neg, uint64(m.v.hi), m.v.lo, int32(m.v.exp), true
}
