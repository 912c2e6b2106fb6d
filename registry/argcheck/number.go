package argcheck

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// number is a JSON number held exactly: ±coef × 10^exp, coef its digits without leading or
// trailing zeros ("" for zero, which has no sign). The bounds (minimum, maximum and their
// exclusive forms) and enum values are compared as numbers, never as floats: 0.1 is 1/10.
// It gives what math/big.Rat gave for every number in JSON's grammar, which it replaced in
// the browser module (numberAgreesWithRat in number_test.go).
type number struct {
	neg  bool
	coef string
	exp  int64
}

// maxExp is the largest power of ten a nonzero number may carry, its exponent less the
// digits after its point, as math/big.Rat.SetString allows (beyond it, a number is refused
// rather than expanded in full).
const maxExp = 1_000_000

// parseNumber reads s in JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, the
// exponent within int64.
func parseNumber(s string) (number, bool) {
	var n number
	i := 0
	if i < len(s) && s[i] == '-' {
		n.neg = true
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intPart := s[start:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return number{}, false
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if frac = s[start:i]; frac == "" {
			return number{}, false
		}
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		e := s[i+1:]
		digits := e
		if digits != "" && (digits[0] == '+' || digits[0] == '-') {
			digits = digits[1:]
		}
		if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
			return number{}, false
		}
		e = strings.TrimPrefix(e, "+")
		var err error
		if exp, err = strconv.ParseInt(e, 10, 64); err != nil {
			return number{}, false
		}
		i = len(s)
	}
	if i != len(s) {
		return number{}, false
	}
	coef := strings.TrimLeft(intPart+frac, "0")
	if coef == "" {
		return number{}, true // zero, whatever its sign and exponent
	}
	// the power of ten, computed without overflow: exp fits int64, frac is short
	if exp < -maxExp-1-int64(len(s)) || exp > maxExp+int64(len(s)) {
		return number{}, false
	}
	exp -= int64(len(frac))
	if exp < -maxExp || exp > maxExp {
		return number{}, false
	}
	trimmed := strings.TrimRight(coef, "0")
	n.coef, n.exp = trimmed, exp+int64(len(coef)-len(trimmed))
	return n, true
}

// toNumber converts a JSON number, in any of the forms a decoder yields, to a number.
func toNumber(v any) (number, bool) {
	switch n := v.(type) {
	case json.Number:
		return parseNumber(string(n))
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return number{}, false
		}
		// The shortest decimal that reads back as n, as a person wrote it: 0.1 is 1/10.
		return parseNumber(fmt.Sprint(n))
	case float32:
		if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
			return number{}, false
		}
		return parseNumber(fmt.Sprint(n))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return parseNumber(fmt.Sprint(n))
	}
	return number{}, false
}

func (n number) sign() int {
	switch {
	case n.coef == "":
		return 0
	case n.neg:
		return -1
	}
	return 1
}

// cmp compares n and m: -1, 0 or +1.
func (n number) cmp(m number) int {
	if sn, sm := n.sign(), m.sign(); sn != sm || sn == 0 {
		return cmp.Compare(int64(sn), int64(sm))
	}
	c := cmp.Compare(int64(len(n.coef))+n.exp, int64(len(m.coef))+m.exp) // where the first digit stands
	if c == 0 {
		c = strings.Compare(n.coef, m.coef) // same length of digits compared, then the longer is more
	}
	if n.neg {
		return -c
	}
	return c
}

// isInt reports whether n is a whole number.
func (n number) isInt() bool { return n.coef == "" || n.exp >= 0 }

// int64 is n as an int64, when it is a whole number that fits.
func (n number) int64() (int64, bool) {
	if n.coef == "" {
		return 0, true
	}
	if !n.isInt() || int64(len(n.coef))+n.exp > 19 {
		return 0, false
	}
	s := n.coef + strings.Repeat("0", int(n.exp))
	if n.neg {
		s = "-" + s
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

// float64 is the float64 nearest n (±Inf beyond the range), for messages.
func (n number) float64() float64 {
	if n.coef == "" {
		return 0
	}
	s := n.coef + "e" + strconv.FormatInt(n.exp, 10)
	if n.neg {
		s = "-" + s
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// Integral writes s, a number in JSON's grammar, in integer form when it is a whole number
// of at most 64 bits beside its sign: "2.024e3" is "2024", "-0.0" is "0". ok is false for
// anything else.
func Integral(s string) (string, bool) {
	n, ok := parseNumber(s)
	if !ok || !n.isInt() {
		return "", false
	}
	if n.coef == "" {
		return "0", true
	}
	if int64(len(n.coef))+n.exp > 20 {
		return "", false
	}
	digits := n.coef + strings.Repeat("0", int(n.exp))
	if _, err := strconv.ParseUint(digits, 10, 64); err != nil {
		return "", false
	}
	if n.neg {
		digits = "-" + digits
	}
	return digits, true
}
