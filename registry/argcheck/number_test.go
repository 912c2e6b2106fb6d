package argcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// ratOf is what the validator used before number: math/big.Rat read from the same text.
func ratOf(s string) (*big.Rat, bool) { return new(big.Rat).SetString(s) }

// numberAgreesWithRat requires number to give what big.Rat gives for s: whether it is a
// number at all, and against every other text, the comparison; whether it is whole, its
// int64, its nearest float64.
func numberAgreesWithRat(t *testing.T, texts []string) {
	t.Helper()
	type both struct {
		s string
		n number
		r *big.Rat
	}
	var ok []both
	for _, s := range texts {
		n, nok := parseNumber(s)
		r, rok := ratOf(s)
		if !isJSONText(s) {
			if nok {
				t.Errorf("%q is not in JSON's grammar, but was read as a number", s)
			}
			continue
		}
		if nok != rok {
			t.Errorf("%q: read %v, big.Rat %v", s, nok, rok)
			continue
		}
		if !nok {
			continue
		}
		if n.isInt() != r.IsInt() {
			t.Errorf("%q: whole %v, big.Rat %v", s, n.isInt(), r.IsInt())
		}
		i, iok := n.int64()
		if want := r.IsInt() && r.Num().IsInt64(); iok != want || iok && i != r.Num().Int64() {
			t.Errorf("%q: int64 %d %v, big.Rat %v", s, i, iok, r)
		}
		f, _ := r.Float64()
		if g := n.float64(); g != f || math.Signbit(g) != math.Signbit(f) {
			t.Errorf("%q: float64 %v, big.Rat %v", s, g, f)
		}
		if n.sign() != r.Sign() {
			t.Errorf("%q: sign %d, big.Rat %d", s, n.sign(), r.Sign())
		}
		ok = append(ok, both{s, n, r})
		want, wantOK := "", r.IsInt() && r.Num().BitLen() <= 64
		if wantOK {
			want = r.Num().String()
		}
		if got, gotOK := Integral(s); got != want || gotOK != wantOK {
			t.Errorf("Integral(%q) = %q %v, big.Rat %q %v", s, got, gotOK, want, wantOK)
		}
	}
	for _, a := range ok {
		for _, b := range ok {
			if got, want := a.n.cmp(b.n), a.r.Cmp(b.r); got != want {
				t.Errorf("%q against %q: %d, big.Rat %d", a.s, b.s, got, want)
			}
		}
	}
}

// isJSONText reports whether s is a number in JSON's grammar, as encoding/json decides.
func isJSONText(s string) bool {
	var n json.Number
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Unmarshal([]byte(s), &n) == nil
}

func TestNumberAgreesWithRat(t *testing.T) {
	texts := []string{
		"0", "-0", "0.0", "-0.000", "0e5", "0e-99999999", "0e99999999999999999999", "1", "-1", "10", "100", "1e2", "1E2", "1e+2", "100.00",
		"0.1", "0.10", "1e-1", "10e-2", "-0.1", "0.5", "12.5", "12.50", "125e-1", "2024", "2024.0", "2.024e3", "20240e-1",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "922337203685477580.7e1",
		"18446744073709551615", "18446744073709551616", "-18446744073709551615.000", "1.8446744073709551615e19", "1e19", "1e20", "-1e19",
		"1e1000001", "1e-1000001", "0.01e-999999", "1e9223372036854775807", "1e-9223372036854775808", "1e9223372036854775808",
		"-1e-9223372036854775809",
		"1.7976931348623157e308", "1.7976931348623159e308", "4.9e-324", "2.4e-324", "2.5e-324", "1e400", "-1e400", "1e-400",
		"00", "01", "1.", ".5", "+1", "1e", "1e+", "1e-", "1e+-5", "1e--5", "0x10", "1_000", "1/3", "Inf", "NaN", "", "-", "1.5e3.2",
		"  1", "1 ", "1ee5", "1e5e5", "−1",
	}
	numberAgreesWithRat(t, texts)
	// At the edge of the exponents big.Rat takes: its numbers have a million digits, so few.
	numberAgreesWithRat(t, []string{"1e1000000", "-1e1000000", "1e-1000000", "10e999999", "0.1e1000001", "0.1e-999999", "1e999999", "1", "0"})
	r := rand.New(rand.NewSource(4))
	for range 8 {
		var gen []string
		for range 150 {
			gen = append(gen, randomNumberText(r))
		}
		numberAgreesWithRat(t, gen)
	}
}

func randomNumberText(r *rand.Rand) string {
	var b strings.Builder
	if r.Intn(3) == 0 {
		b.WriteByte('-')
	}
	digits := func(n int) {
		for range n {
			b.WriteByte("0123456789"[r.Intn(10)])
		}
	}
	if r.Intn(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte("123456789"[r.Intn(9)])
		digits(r.Intn(22))
	}
	if r.Intn(2) == 0 {
		b.WriteByte('.')
		digits(1 + r.Intn(22))
	}
	if r.Intn(2) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[r.Intn(5)])
		if r.Intn(10) == 0 {
			digits(19 + r.Intn(3)) // beyond int64, or beyond what big.Rat takes: refused
		} else {
			digits(1 + r.Intn(3))
		}
	}
	return b.String()
}

// The forms a decoder yields (float64, float32, Go integers) read as big.Rat read them.
func TestToNumberAgreesWithRatOnGoValues(t *testing.T) {
	for _, v := range []any{0.1, math.Copysign(0, -1), 1e21, 1e-7, 5e-324, math.MaxFloat64, 9007199254740993.0, float32(0.1), float32(1e30),
		3, int8(-3), uint64(math.MaxUint64), int64(math.MinInt64), uint8(200), json.Number("12.50")} {
		n, ok := toNumber(v)
		r, rok := ratOf(fmt.Sprint(v))
		if ok != rok || ok && n.cmp(number{}) != r.Sign() {
			t.Errorf("%T %v: %v, big.Rat %v", v, v, n, r)
		}
		if ok {
			f, _ := r.Float64()
			if n.float64() != f {
				t.Errorf("%T %v: float64 %v, big.Rat %v", v, v, n.float64(), f)
			}
		}
	}
}

func FuzzNumberAgreesWithRat(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", "1e1000000", "0.1e-999999", "9223372036854775808", "1e+-5"} {
		f.Add(s, "12.5")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 100 || len(b) > 100 || strings.Count(a+b, "e") > 0 && len(a)+len(b) > 40 {
			return
		}
		numberAgreesWithRat(t, []string{a, b})
	})
}
