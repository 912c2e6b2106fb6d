package wide

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cgt-tools/cgt/cgt/internal/wide/widetest"
	"github.com/shopspring/decimal"
)

const max64 = math.MaxUint64

// toBig is the magnitude hi·2⁶⁴ + lo as a big.Int.
func toBig(hi, lo uint64) *big.Int {
	v := new(big.Int).SetUint64(hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(lo))
}

// fits reports whether v is a magnitude, 0 ≤ v < 2¹²⁸.
func fits(v *big.Int) bool { return v.Sign() >= 0 && v.BitLen() <= 128 }

// word draws 64-bit words of every size, with the extremes more often than chance gives them.
func word(rng *rand.Rand) uint64 {
	switch rng.IntN(6) {
	case 0:
		return 0
	case 1:
		return rng.Uint64() >> rng.IntN(64)
	case 2:
		return max64 - uint64(rng.IntN(3))
	case 3:
		return Pow10(rng.IntN(MaxPow10 + 1))
	}
	return rng.Uint64()
}

func TestPow10(t *testing.T) {
	want := big.NewInt(1)
	for k := 0; k <= MaxPow10; k++ {
		if got := Pow10(k); want.Cmp(new(big.Int).SetUint64(got)) != 0 {
			t.Errorf("Pow10(%d) = %d, want %s", k, got, want)
		}
		want.Mul(want, big.NewInt(10))
	}
	if want.IsUint64() {
		t.Errorf("10^%d = %s fits in a uint64: MaxPow10 is too small", MaxPow10+1, want)
	}
}

func TestCmp(t *testing.T) {
	tests := []struct {
		name               string
		ahi, alo, bhi, blo uint64
		want               int
	}{
		{"equal_zeros", 0, 0, 0, 0, 0},
		{"equal_wide", 7, 9, 7, 9, 0},
		{"low_word_decides", 0, 1, 0, 2, -1},
		{"high_word_beats_low_word", 1, 0, 0, max64, 1},
		{"high_word_smaller", 1, max64, 2, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cmp(tt.ahi, tt.alo, tt.bhi, tt.blo); got != tt.want {
				t.Errorf("Cmp = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestAddSubMul(t *testing.T) {
	tests := []struct {
		name   string
		op     func() (uint64, uint64, bool)
		hi, lo uint64
		ok     bool
	}{
		{"add_carries_into_high_word", func() (uint64, uint64, bool) { return Add(0, max64, 0, 1) }, 1, 0, true},
		{"add_overflows_128_bits", func() (uint64, uint64, bool) { return Add(max64, max64, 0, 1) }, 0, 0, false},
		{"sub_borrows_from_high_word", func() (uint64, uint64, bool) { hi, lo := Sub(1, 0, 0, 1); return hi, lo, true }, 0, max64, true},
		{"mul_carries_into_high_word", func() (uint64, uint64, bool) { return Mul64(0, max64, 2) }, 1, max64 - 1, true},
		{"mul_overflows_high_word", func() (uint64, uint64, bool) { return Mul64(1<<63, 0, 2) }, 0, 0, false},
		{"mul_fills_the_top_word", func() (uint64, uint64, bool) { return Mul64(max64>>1, max64, 2) }, max64, max64 - 1, true},
		{"mul_overflows_on_the_carry", func() (uint64, uint64, bool) { return Mul64(max64/3, max64, 3) }, 0, 0, false},
		{"mul_by_zero", func() (uint64, uint64, bool) { return Mul64(max64, max64, 0) }, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hi, lo, ok := tt.op()
			if ok != tt.ok || (ok && (hi != tt.hi || lo != tt.lo)) {
				t.Errorf("= (%d, %d, %v), want (%d, %d, %v)", hi, lo, ok, tt.hi, tt.lo, tt.ok)
			}
		})
	}
}

func TestScale10AndDiv10k(t *testing.T) {
	tests := []struct {
		name   string
		hi, lo uint64
		k      int64
		wantOK bool
	}{
		{"zero_scales_by_any_power", 0, 0, 1 << 40, true},
		{"by_nothing", 3, 4, 0, true},
		{"one_to_the_largest_power", 0, 1, 38, true},
		{"one_past_the_largest_power", 0, 1, 39, false},
		{"two_steps_of_19", 0, 12345, 30, true},
		{"overflow_in_the_second_step", 0, 1 << 50, 25, false},
		{"overflow_of_the_top_word", 1 << 62, 0, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hi, lo, ok := Scale10(tt.hi, tt.lo, tt.k)
			if ok != tt.wantOK {
				t.Fatalf("Scale10 ok = %v, want %v", ok, tt.wantOK)
			}
			if !ok {
				return
			}
			want := new(big.Int) // zero scales to zero without working out 10^k
			if tt.hi|tt.lo != 0 {
				want.Mul(toBig(tt.hi, tt.lo), new(big.Int).Exp(big.NewInt(10), big.NewInt(tt.k), nil))
			}
			if toBig(hi, lo).Cmp(want) != 0 {
				t.Fatalf("Scale10 = %s, want %s", toBig(hi, lo), want)
			}
			if tt.k <= 2*MaxPow10 {
				if bhi, blo := Div10k(hi, lo, tt.k); bhi != tt.hi || blo != tt.lo {
					t.Errorf("Div10k undoes Scale10 as (%d, %d), want (%d, %d)", bhi, blo, tt.hi, tt.lo)
				}
			}
		})
	}
}

// TestMagnitudesMatchBigInt checks Add, Sub, Mul64, Scale10, Div10k, Cmp, AppendDigits and TrimZeros
// against math/big on random magnitudes.
func TestMagnitudesMatchBigInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ten := big.NewInt(10)
	for i := range 300_000 {
		ahi, alo, bhi, blo, m := word(rng), word(rng), word(rng), word(rng), word(rng)
		a, b := toBig(ahi, alo), toBig(bhi, blo)
		if got, want := Cmp(ahi, alo, bhi, blo), a.Cmp(b); got != want {
			t.Fatalf("#%d Cmp(%s, %s) = %d, want %d", i, a, b, got, want)
		}
		sum := new(big.Int).Add(a, b)
		if hi, lo, ok := Add(ahi, alo, bhi, blo); ok != fits(sum) || (ok && toBig(hi, lo).Cmp(sum) != 0) {
			t.Fatalf("#%d Add(%s, %s) = %s %v", i, a, b, toBig(hi, lo), ok)
		}
		if a.Cmp(b) >= 0 {
			if hi, lo := Sub(ahi, alo, bhi, blo); toBig(hi, lo).Cmp(new(big.Int).Sub(a, b)) != 0 {
				t.Fatalf("#%d Sub(%s, %s) = %s", i, a, b, toBig(hi, lo))
			}
		}
		prod := new(big.Int).Mul(a, new(big.Int).SetUint64(m))
		if hi, lo, ok := Mul64(ahi, alo, m); ok != fits(prod) || (ok && toBig(hi, lo).Cmp(prod) != 0) {
			t.Fatalf("#%d Mul64(%s, %d) = %s %v", i, a, m, toBig(hi, lo), ok)
		}
		k := int64(rng.IntN(2*MaxPow10 + 1))
		p := new(big.Int).Exp(ten, big.NewInt(k), nil)
		scaled := new(big.Int).Mul(a, p)
		if hi, lo, ok := Scale10(ahi, alo, k); ok != fits(scaled) || (ok && toBig(hi, lo).Cmp(scaled) != 0) {
			t.Fatalf("#%d Scale10(%s, %d) = %s %v", i, a, k, toBig(hi, lo), ok)
		}
		if hi, lo := Div10k(ahi, alo, k); toBig(hi, lo).Cmp(new(big.Int).Quo(a, p)) != 0 {
			t.Fatalf("#%d Div10k(%s, %d) = %s", i, a, k, toBig(hi, lo))
		}
		if got, want := string(AppendDigits(nil, ahi, alo)), a.String(); got != want {
			t.Fatalf("#%d AppendDigits(%d, %d) = %s, want %s", i, ahi, alo, got, want)
		}
		hi, lo, n := TrimZeros(ahi, alo)
		back := new(big.Int).Mul(toBig(hi, lo), new(big.Int).Exp(ten, big.NewInt(int64(n)), nil))
		if back.Cmp(a) != 0 || (a.Sign() != 0 && new(big.Int).Rem(toBig(hi, lo), ten).Sign() == 0) {
			t.Fatalf("#%d TrimZeros(%s) = %s, %d", i, a, toBig(hi, lo), n)
		}
	}
}

// TestDivWideMatchesBigInt checks the 128-by-128-bit division against math/big, with
// divisors from just over 2⁶⁴ to the top of the range.
func TestDivWideMatchesBigInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	word := func() uint64 {
		switch rng.IntN(4) {
		case 0:
			return rng.Uint64() >> rng.IntN(64)
		case 1:
			return ^uint64(0) - uint64(rng.IntN(3))
		}
		return rng.Uint64()
	}
	for i := range 500_000 {
		ahi, alo, bhi, blo := word(), word(), word(), word()
		if bhi == 0 {
			bhi = 1
		}
		if i%3 == 0 { // dividend close to a multiple of the divisor
			ahi, alo = bhi, blo
			if i%2 == 0 && alo > 0 {
				alo--
			}
		}
		q, rhi, rlo := DivWide(ahi, alo, bhi, blo)
		wq, wr := new(big.Int).QuoRem(toBig(ahi, alo), toBig(bhi, blo), new(big.Int))
		if wq.Cmp(new(big.Int).SetUint64(q)) != 0 || wr.Cmp(toBig(rhi, rlo)) != 0 {
			t.Fatalf("#%d (%d,%d)÷(%d,%d) = %d r (%d,%d), want %s r %s", i, ahi, alo, bhi, blo, q, rhi, rlo, wq, wr)
		}
	}
}

func TestRound(t *testing.T) {
	tests := []struct {
		name   string
		value  string
		places int32
		want   string
	}{
		{"half_rounds_up", "2.345", 2, "2.35"},
		{"below_half_rounds_down", "2.3449999", 2, "2.34"},
		{"half_rounds_away_from_zero_below_zero", "-2.345", 2, "-2.35"},
		{"already_at_places_is_kept", "2.30", 2, "2.30"},
		{"fewer_places_gain_zeros", "7", 2, "7.00"},
		{"whole_tens", "545", -1, "550"},
		{"tiny_value_rounds_to_zero", "0.000000000000000000000000000000000000000001", 2, "0.00"},
		{"carry_into_a_new_digit", "9.995", 2, "10.00"},
		{"20_place_quotient_to_pence", "12.34499999999999999999", 2, "12.34"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decimal.RequireFromString(tt.value)
			neg, hi, lo, exp, ok := FromDecimal(d)
			if !ok {
				t.Fatalf("FromDecimal(%s) does not fit", d)
			}
			hi, lo, ok = Round(hi, lo, exp, tt.places)
			if !ok {
				t.Fatalf("Round(%s, %d) does not fit", d, tt.places)
			}
			got := ToDecimal(neg && hi|lo != 0, hi, lo, -tt.places)
			if got.StringFixed(tt.places) != tt.want || !widetest.Same(got, d.Round(tt.places)) {
				t.Errorf("Round(%s, %d) = %s (exp %d), want %s", d, tt.places, got, got.Exponent(), tt.want)
			}
		})
	}
}

func TestDivRound(t *testing.T) {
	tests := []struct {
		name   string
		a, b   string
		places int32
		want   string
		ok     bool
	}{
		{"terminating", "10", "4", 2, "2.50", true},
		{"half_rounds_away_from_zero", "1", "8", 2, "0.13", true},
		{"twenty_places", "1", "3", 20, "0.33333333333333333333", true},
		{"wide_divisor", "1e30", "123456789012345678901234", 6, "8100000.072900", true},
		{"zero_divisor_refused", "1", "0", 2, "", false},
		{"scaled_dividend_overflows", "340282366920938463463374607431768211455", "7", 2, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := decimal.RequireFromString(tt.a), decimal.RequireFromString(tt.b)
			_, ahi, alo, aexp, _ := FromDecimal(a)
			_, bhi, blo, bexp, _ := FromDecimal(b)
			hi, lo, ok := DivRound(ahi, alo, bhi, blo, int64(aexp)-int64(bexp)+int64(tt.places))
			if ok != tt.ok {
				t.Fatalf("DivRound(%s, %s, %d) ok = %v, want %v", a, b, tt.places, ok, tt.ok)
			}
			if !ok {
				return
			}
			got := ToDecimal(false, hi, lo, -tt.places)
			if got.StringFixed(tt.places) != tt.want || !widetest.Same(got, a.DivRound(b, tt.places)) {
				t.Errorf("DivRound(%s, %s, %d) = %s, want %s", a, b, tt.places, got, tt.want)
			}
		})
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		name   string
		neg    bool
		hi, lo uint64
		exp    int32
		trim   bool
		want   string
	}{
		{"zero", false, 0, 0, 0, true, "0"},
		{"zero_at_two_places_untrimmed", false, 0, 0, -2, false, "0.00"},
		{"zero_at_two_places_trimmed", false, 0, 0, -2, true, "0"},
		{"zero_at_a_positive_exponent", false, 0, 0, 3, true, "0"},
		{"whole_number_with_exponent", false, 0, 12, 3, true, "12000"},
		{"pence", true, 0, 30, -2, false, "-0.30"},
		{"pence_trimmed", true, 0, 30, -2, true, "-0.3"},
		{"leading_fraction_zeros", false, 0, 5, -4, true, "0.0005"},
		{"largest_magnitude", false, max64, max64, -38, false, "3.40282366920938463463374607431768211455"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(AppendString(nil, tt.neg, tt.hi, tt.lo, tt.exp, tt.trim)); got != tt.want {
				t.Errorf("AppendString = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestMatchesDecimal checks the conversions, Round, DivRound and the string form against
// decimal.Decimal on random values: the same coefficient and exponent, written the same way.
func TestMatchesDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 200_000 {
		a, b := widetest.Decimal(rng, -42, 7), widetest.Decimal(rng, -42, 7)
		places := int32(rng.IntN(30)) - 4
		checkOne(t, i, a, b, places)
	}
}

// checkOne compares one case with decimal.Decimal; i numbers it in failures.
func checkOne(t *testing.T, i int, a, b decimal.Decimal, places int32) {
	t.Helper()
	aneg, ahi, alo, aexp, ok := FromDecimal(a)
	if ok != (a.Coefficient().BitLen() <= 128) || aexp != a.Exponent() {
		t.Fatalf("#%d FromDecimal(%s) ok = %v, exp %d", i, a, ok, aexp)
	}
	if !ok {
		return
	}
	if got := ToDecimal(aneg, ahi, alo, aexp); !widetest.Same(got, a) {
		t.Fatalf("#%d ToDecimal(FromDecimal(%s)) = %s (exp %d)", i, a, got, got.Exponent())
	}
	if got, want := string(AppendString(nil, aneg, ahi, alo, aexp, true)), a.String(); got != want {
		t.Fatalf("#%d AppendString(%s, trim) = %s, want %s", i, a, got, want)
	}
	if hi, lo, ok := Round(ahi, alo, aexp, places); ok {
		want := a.Round(places)
		if got := ToDecimal(aneg && hi|lo != 0, hi, lo, -places); !widetest.Same(got, want) {
			t.Fatalf("#%d Round(%s, %d) = %s, want %s (exp %d)", i, a, places, got, want, want.Exponent())
		}
		if places >= 0 {
			got := string(AppendString(nil, aneg && hi|lo != 0, hi, lo, -places, false))
			if want := a.StringFixed(places); got != want {
				t.Fatalf("#%d AppendString(Round(%s, %d)) = %s, want %s", i, a, places, got, want)
			}
		}
	} else if r := a.Round(places); r.Coefficient().BitLen() <= 120 && places >= 0 && places <= 40 {
		t.Fatalf("#%d Round(%s, %d) refused a result of %s", i, a, places, r)
	}
	bneg, bhi, blo, bexp, ok := FromDecimal(b)
	if !ok || b.IsZero() || places < 0 {
		return
	}
	if hi, lo, ok := DivRound(ahi, alo, bhi, blo, int64(aexp)-int64(bexp)+int64(places)); ok {
		want := a.DivRound(b, places)
		neg := aneg != bneg && hi|lo != 0
		if got := ToDecimal(neg, hi, lo, -places); !widetest.Same(got, want) {
			t.Fatalf("#%d DivRound(%s, %s, %d) = %s, want %s (exp %d)", i, a, b, places, got, want, want.Exponent())
		}
	}
}

// FuzzMatchesDecimal compares the core with decimal.Decimal on any two decimals and any
// number of places.
func FuzzMatchesDecimal(f *testing.F) {
	f.Add("2.345", "3", int8(2))
	f.Add("-0.005", "0.0003", int8(2))
	f.Add("340282366920938463463374607431768211455", "1e-20", int8(20))
	f.Add("12.34499999999999999999", "-7", int8(0))
	f.Add("545", "1e19", int8(-1))
	f.Fuzz(func(t *testing.T, as, bs string, places int8) {
		a, err := decimal.NewFromString(as)
		if err != nil {
			return
		}
		b, err := decimal.NewFromString(bs)
		if err != nil {
			return
		}
		if a.Exponent() < -1000 || a.Exponent() > 1000 || b.Exponent() < -1000 || b.Exponent() > 1000 {
			return // decimal.Decimal itself writes out every digit of such a value
		}
		checkOne(t, 0, a, b, int32(places))
	})
}
