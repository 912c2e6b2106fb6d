package model

import (
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"
)

// MoneyPlaces is the scale at which every reported GBP figure is written.
const MoneyPlaces = 2

// Money is a reported GBP figure. It keeps the exact value it was built from and writes it
// rounded to 2 decimal places, half away from zero (the rounding stated in docs/tax-rules.md).
// Arithmetic is done on decimal.Decimal; Money is for results.
type Money struct{ d decimal.Decimal }

// NewMoney wraps an exact amount.
func NewMoney(d decimal.Decimal) Money { return Money{d} }

// MoneyFromString parses a decimal string; it panics on bad input and is meant for constants
// and tests.
func MoneyFromString(s string) Money { return Money{decimal.RequireFromString(s)} }

// Exact returns the unrounded value.
func (m Money) Exact() decimal.Decimal { return m.d }

// Rounded returns the value rounded to 2 decimal places, half away from zero.
func (m Money) Rounded() decimal.Decimal { return m.d.Round(MoneyPlaces) }

// String writes the value with exactly two decimals ("1234.50", "-0.30").
func (m Money) String() string { return m.d.StringFixed(MoneyPlaces) }

// IsZero reports whether the rounded value is zero.
func (m Money) IsZero() bool { return m.Rounded().IsZero() }

// MarshalJSON writes the 2-decimal string form.
func (m Money) MarshalJSON() ([]byte, error) { return json.Marshal(m.String()) }

// UnmarshalJSON reads a decimal string or number and refuses null, which decimal.Decimal
// would silently read as zero.
func (m *Money) UnmarshalJSON(b []byte) error {
	d, err := decodeDecimal(b)
	if err != nil {
		return err
	}
	m.d = d
	return nil
}

// Decimal is an exact quantity, price, ratio or rate. It writes its exact scale as a JSON
// string ("100", "4.1565") and, unlike decimal.Decimal, refuses null.
type Decimal struct{ decimal.Decimal }

// NewDecimal wraps a decimal.Decimal.
func NewDecimal(d decimal.Decimal) Decimal { return Decimal{d} }

// MarshalJSON writes the exact decimal string.
func (d Decimal) MarshalJSON() ([]byte, error) { return json.Marshal(d.Decimal.String()) }

// UnmarshalJSON reads a decimal string or number and refuses null.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	v, err := decodeDecimal(b)
	if err != nil {
		return err
	}
	d.Decimal = v
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
