package imports

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
)

// numberStyle says what may surround the digits of a number field.
type numberStyle int

const (
	// plainNumber: an optional sign, digits, an optional '.' and digits ("-12.5", ".9232").
	plainNumber numberStyle = iota
	// moneyNumber also accepts a currency sign ($ £ €), thousands separators and a negative
	// in parentheses ("-$1,234.56", "(12.50)", "£1,000").
	moneyNumber
)

// parseNumber reads an exact decimal from its text, digit by digit; it never goes through a
// binary float.
func parseNumber(s string, style numberStyle) (decimal.Decimal, bool) {
	neg := false
	if style == moneyNumber {
		s = strings.TrimSpace(s)
		if len(s) > 2 && s[0] == '(' && s[len(s)-1] == ')' {
			neg, s = true, s[1:len(s)-1]
		}
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			neg = neg != (s[0] == '-')
			s = s[1:]
		}
		for _, sign := range []string{"$", "£", "€", "US$"} {
			s = strings.TrimPrefix(s, sign)
		}
		if strings.IndexByte(s, ',') >= 0 {
			if !thousands(s) {
				return decimal.Decimal{}, false
			}
			s = strings.ReplaceAll(s, ",", "")
		}
	}
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = neg != (s[0] == '-')
		s = s[1:]
	}
	var coef uint64
	digits, exp, point := 0, int32(0), false
	if s == "" || s == "." {
		return decimal.Decimal{}, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if digits >= 18 {
				return longNumber(s, neg)
			}
			coef = coef*10 + uint64(c-'0')
			if coef != 0 {
				digits++
			}
			if point {
				exp--
			}
		case c == '.' && !point:
			point = true
		default:
			return decimal.Decimal{}, false
		}
	}
	v := int64(coef)
	if neg {
		v = -v
	}
	return decimal.New(v, exp), true
}

// maxNumberDigits bounds a number's digits, as the ledger's own reader does (60): no real
// quantity, price or amount needs more, and a hostile export of millions of digits is refused
// at once rather than worked with.
const maxNumberDigits = 60

// tooManyDigits reports whether a number's text has more digits than maxNumberDigits.
func tooManyDigits(s string) bool {
	if len(s) <= maxNumberDigits {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if n++; n > maxNumberDigits {
				return true
			}
		}
	}
	return false
}

func longNumber(s string, neg bool) (decimal.Decimal, bool) {
	if tooManyDigits(s) {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	if err != nil || strings.ContainsAny(s, "eE") {
		return decimal.Decimal{}, false
	}
	if neg {
		d = d.Neg()
	}
	return d, true
}

// thousands reports whether the commas in s separate groups of three digits.
func thousands(s string) bool {
	whole, _, _ := strings.Cut(s, ".")
	groups := strings.Split(whole, ",")
	for i, g := range groups {
		if (i > 0 && len(g) != 3) || (i == 0 && (len(g) == 0 || len(g) > 3)) {
			return false
		}
	}
	return true
}

// isEmptyCell reports a cell that holds no value: empty, or a placeholder brokers write.
func isEmptyCell(s string) bool {
	switch strings.ToLower(s) {
	case "", "-", "--", "n/a", "na", "null", "not available":
		return true
	}
	return false
}

// currencyCode reads an ISO 4217 code in any case; GBX and GBp (pence) give GBP with pence
// set, since every pence figure is converted to pounds on reading.
func currencyCode(s string) (code string, pence, ok bool) {
	if s == "GBp" || strings.EqualFold(s, "GBX") {
		return model.GBP, true, true
	}
	up := strings.ToUpper(s)
	if dsl.IsCurrency(up) {
		return up, false, true
	}
	return "", false, false
}

// pounds converts pence to pounds exactly: the same digits, two places further right.
func pounds(pence decimal.Decimal) decimal.Decimal { return pence.Shift(-2) }

// amount builds a model amount.
func amount(v decimal.Decimal, currency string) model.Amount {
	return model.Amount{Value: model.NewDecimal(v), Currency: currency}
}

func num(v decimal.Decimal) model.Decimal { return model.NewDecimal(v) }

// ticker turns a broker's symbol into a ledger ticker: upper case, letters and digits with
// '.', '-' or ':' inside; other characters (spaces, '/') become '.'. An empty symbol gives
// fallback (the ISIN, say).
func ticker(symbol, fallback string) string {
	s := strings.TrimSpace(symbol)
	if s == "" {
		s = strings.TrimSpace(fallback)
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.' || r == '-' || r == ':' || r == ' ' || r == '/' || r == '_':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), ".") {
				if r == '-' || r == ':' {
					b.WriteRune(r)
				} else {
					b.WriteByte('.')
				}
			}
		}
		if b.Len() >= 32 {
			break
		}
	}
	return strings.TrimRight(b.String(), ".-:")
}

// trimZeros drops trailing zeros after the decimal point down to minScale places, so a
// product such as 24.0000000000 × 0.03 is written 0.72, not 0.720000000000.
func trimZeros(d decimal.Decimal, minScale int32) decimal.Decimal {
	for d.Exponent() < -minScale {
		shorter := d.Truncate(-d.Exponent() - 1)
		if !shorter.Equal(d) {
			break
		}
		d = decimal.New(shorter.Coefficient().Int64(), shorter.Exponent())
		if shorter.Coefficient().BitLen() > 62 {
			d = shorter
		}
	}
	return d
}
