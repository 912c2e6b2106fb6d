package model

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Grouped writes an amount to the penny with thousands separators: 61,234.50 (a negative
// amount keeps its sign: -1,200.00). It is how messages and plans write pounds for people.
func Grouped(d decimal.Decimal) string {
	s := d.StringFixed(2)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, pence, _ := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + "." + pence
}

// GBP writes an amount of pounds for people, to the penny: £2,911.40, -£120.00.
func (m Money) GBP() string {
	d := m.Exact().Round(2)
	if d.Sign() < 0 {
		return "-£" + Grouped(d.Neg())
	}
	return "£" + Grouped(d)
}

// PlainNumber accepts digits with at most one decimal point inside them: no exponent, sign or
// spaces.
func PlainNumber(s string) bool {
	dot := false
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return s != ""
}
