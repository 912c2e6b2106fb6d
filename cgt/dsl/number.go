package dsl

import (
	"bytes"
	"github.com/cgt-tools/cgt/cgt/model"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// maxNumberDigits bounds a number's length: no real quantity or price needs more, and it keeps
// big-number arithmetic on hostile input cheap.
const maxNumberDigits = 60

// numProblem says why a token is not a plain decimal.
type numProblem int

const (
	numOK numProblem = iota
	numEmpty
	numSign         // leading '+'
	numExponent     // 1e5
	numThousands    // 1,000,000 or 1,000.50: commas between thousands
	numDecimalComma // 150,25 or 1.000,50: a comma that may be a decimal point
	numBarePoint    // .5 or 5.
	numTwoPoints    // 1.2.3
	numUnitAttached // 150USD, £150, $150
	numTooLong      // more than maxNumberDigits digits
	numNotANumber   // anything else
)

// parseDecimal reads a plain decimal: digits with at most one '.' between digits. A leading
// '-' is read (and reported by the value rules, which can say "must be positive" instead of a
// vaguer syntax error).
func parseDecimal(b []byte) (model.Decimal, numProblem) {
	n, problem := scanDecimal(b)
	if problem != numOK {
		return model.Decimal{}, problem
	}
	return n.decimal(b)
}

// scanned is a number read by scanDecimal: coef × 10^exp, when it has at most 18 digits.
type scanned struct {
	coef int64
	exp  int32
	neg  bool
	long bool // more than 18 digits: coef is not valid, use parseLongDecimal
}

// scanDecimal checks the syntax of a number and reads up to 18 digits into an int64, which is
// several times faster than decimal.NewFromString and allocates nothing.
func scanDecimal(b []byte) (scanned, numProblem) {
	var n scanned
	n.neg = len(b) > 0 && b[0] == '-'
	if n.neg {
		b = b[1:]
	}
	if len(b) == 0 {
		return n, numEmpty
	}
	point := -1
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n.coef = n.coef*10 + int64(c-'0')
		case c == '.' && point < 0:
			point = i
		default:
			return n, classifyNumber(b)
		}
	}
	if point == 0 || point == len(b)-1 {
		return n, numBarePoint
	}
	digits := len(b)
	if point >= 0 {
		digits--
		n.exp = int32(point - len(b) + 1)
	}
	n.long = digits > 18
	if n.long && len(b) > maxNumberDigits+1 {
		return n, numTooLong
	}
	if n.neg {
		n.coef = -n.coef
	}
	return n, numOK
}

// decimal builds the value of a scanned number; b is the token it was scanned from.
func (n scanned) decimal(b []byte) (model.Decimal, numProblem) {
	if n.long {
		d, problem := parseLongDecimal(b)
		return model.NewDecimal(d), problem
	}
	if n.coef < 0 {
		return model.NewDecimal128(true, 0, uint64(-n.coef), n.exp), numOK
	}
	return model.NewDecimal128(false, 0, uint64(n.coef), n.exp), numOK
}

// parseLongDecimal handles the rare number with more digits than an int64 holds; b has
// already been checked to be a plain decimal, with an optional leading '-'.
func parseLongDecimal(b []byte) (decimal.Decimal, numProblem) {
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return decimal.Decimal{}, numNotANumber
	}
	return d, numOK
}

// classifyNumber names what is wrong with a token that is not a plain decimal, so the error
// can say exactly what to change.
func classifyNumber(b []byte) numProblem {
	switch {
	case b[0] == '+':
		return numSign
	case bytes.Count(b, []byte{'.'}) > 1 && onlyDigitsAnd(b, "."):
		return numTwoPoints
	case onlyDigitsAnd(b, ".,") && bytes.IndexByte(b, ',') > 0:
		return commaProblem(b)
	case onlyDigitsAnd(b, ".eE+-") && bytes.IndexAny(b, "eE") > 0 && isDigit(b[0]):
		return numExponent
	case startsWithNumber(b) || endsWithNumber(b):
		return numUnitAttached
	}
	return numNotANumber
}

// commaProblem tells a comma that can only separate thousands (several commas, or commas
// before the decimal point) from one that may be a decimal comma (one comma between digits,
// with no point after it).
func commaProblem(b []byte) numProblem {
	c := bytes.IndexByte(b, ',')
	if bytes.Count(b, []byte{','}) == 1 && c > 0 && c < len(b)-1 && isDigit(b[c-1]) && isDigit(b[c+1]) &&
		bytes.IndexByte(b[c:], '.') < 0 {
		return numDecimalComma
	}
	return numThousands
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func onlyDigitsAnd(b []byte, extra string) bool {
	for _, c := range b {
		if !isDigit(c) && strings.IndexByte(extra, c) < 0 {
			return false
		}
	}
	return true
}

// startsWithNumber reports "150USD"-like tokens: a number with letters stuck after it.
func startsWithNumber(b []byte) bool {
	i := 0
	for i < len(b) && (isDigit(b[i]) || b[i] == '.') {
		i++
	}
	return i > 0 && i < len(b)
}

// endsWithNumber reports "$150" or "£150"-like tokens: a symbol stuck before a number.
func endsWithNumber(b []byte) bool {
	i := len(b)
	for i > 0 && (isDigit(b[i-1]) || b[i-1] == '.') {
		i--
	}
	return i > 0 && i < len(b)
}

// numberAdvice turns a problem into the end of a message and a hint, quoting a corrected form
// of the token where one is obvious.
func numberAdvice(tok []byte, p numProblem) (reason, hint string) {
	s := string(tok)
	switch p {
	case numEmpty:
		return "it is empty", "write a plain decimal number such as 150.25"
	case numSign:
		return "numbers take no sign", "write " + strings.TrimPrefix(s, "+")
	case numExponent:
		return "exponents are not allowed", "write the number out in full, as a plain decimal such as 150000"
	case numThousands:
		return "thousands separators are not allowed", "write " + strings.ReplaceAll(s, ",", "")
	case numDecimalComma:
		return decimalCommaAdvice(s)
	case numBarePoint:
		return "a decimal point needs digits on both sides", "write " + fixBarePoint(s)
	case numTwoPoints:
		return "it has more than one decimal point", "write a plain decimal number such as 150.25"
	case numUnitAttached:
		return "a currency or unit is attached to it", "separate the number from the currency and write the ISO 4217 code after it, such as 150.00 USD"
	case numTooLong:
		return "it has too many digits", "write at most 60 digits"
	}
	return "it is not a number", "write a plain decimal number such as 150.25 (digits and at most one '.')"
}

// decimalCommaAdvice offers the readings of a number with one comma: "150,25" is 150.25 with a
// decimal comma or 15025 with a thousands separator; "1.000,50" (points between thousands) can
// only be 1000.50.
func decimalCommaAdvice(s string) (reason, hint string) {
	c := strings.IndexByte(s, ',')
	whole, frac := s[:c], s[c+1:]
	if strings.IndexByte(whole, '.') >= 0 {
		return "it has a decimal comma", "write " + strings.ReplaceAll(whole, ".", "") + "." + frac +
			": numbers take '.' as the decimal point and no thousands separators"
	}
	decimalReading, thousandsReading := whole+"."+frac, whole+frac
	reason = "decimal commas and thousands separators are not allowed"
	if len(frac) == 3 {
		return reason, "write " + thousandsReading + " if the comma separates thousands, or " + decimalReading + " if it is a decimal point"
	}
	return reason, "write " + decimalReading + " if the comma is a decimal point, or " + thousandsReading + " if it separates thousands"
}

func fixBarePoint(s string) string {
	if strings.HasPrefix(s, ".") {
		return "0" + s
	}
	if strings.HasPrefix(s, "-.") {
		return "-0" + s[1:]
	}
	return strings.TrimSuffix(s, ".")
}

// exactString writes a decimal at the scale it was given ("150.00" stays "150.00"), without
// depending on decimal's package-level formatting settings.
func exactString(d decimal.Decimal) string {
	var buf [32]byte
	return string(appendExact(buf[:0], d))
}

// appendExact appends the exact form of d. Coefficients of up to 18 digits (every real
// quantity and price) are written from an int64 without the allocations of StringFixed.
func appendExact(b []byte, d decimal.Decimal) []byte {
	e := d.Exponent()
	if d.NumDigits() > 18 || e < -18 || e > 18 {
		if e < 0 {
			return append(b, d.StringFixed(-e)...)
		}
		return append(b, d.StringFixed(0)...)
	}
	coef := d.CoefficientInt64()
	if coef < 0 {
		b = append(b, '-')
		coef = -coef
	}
	var digits [20]byte
	ds := strconv.AppendInt(digits[:0], coef, 10)
	if coef == 0 {
		ds = ds[:1]
	}
	switch {
	case e >= 0:
		b = append(b, ds...)
		if coef != 0 {
			for range e {
				b = append(b, '0')
			}
		}
	case len(ds) > int(-e):
		point := len(ds) + int(e)
		b = append(append(append(b, ds[:point]...), '.'), ds[point:]...)
	default:
		b = append(b, '0', '.')
		for range int(-e) - len(ds) {
			b = append(b, '0')
		}
		b = append(b, ds...)
	}
	return b
}
