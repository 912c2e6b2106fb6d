package model

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cgt-tools/cgt/cgt/internal/wide/widetest"
	"github.com/shopspring/decimal"
)

// randomDecimal is widetest.Decimal with, now and then, an exponent beyond the compact form's
// range.
func randomDecimal(rng *rand.Rand) decimal.Decimal {
	d := widetest.Decimal(rng, -42, 7)
	if rng.IntN(500) == 0 {
		return decimal.NewFromBigInt(d.Coefficient(), int32(rng.IntN(3)-1)*40000)
	}
	return d
}

// parts splits d into a sign and 128-bit magnitude; ok is false when it does not fit.
func parts(d decimal.Decimal) (neg bool, hi, lo uint64, ok bool) {
	c := d.Coefficient()
	if c.BitLen() > 128 {
		return false, 0, 0, false
	}
	neg = c.Sign() < 0
	c.Abs(c)
	lo = new(big.Int).And(c, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi = new(big.Int).Rsh(c, 64).Uint64()
	return neg, hi, lo, true
}

// TestMoneyAndDecimalMatchDecimal checks that the compact forms write, round and convert back
// exactly as the decimal.Decimal they stand for, whether built from a decimal.Decimal or from
// a 128-bit coefficient.
func TestMoneyAndDecimalMatchDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 200_000 {
		d := randomDecimal(rng)
		ms := []Money{NewMoney(d)}
		qs := []Decimal{NewDecimal(d)}
		if neg, hi, lo, ok := parts(d); ok {
			ms = append(ms, NewMoney128(neg, hi, lo, d.Exponent()))
			qs = append(qs, NewDecimal128(neg, hi, lo, d.Exponent()))
		}
		wantFixed := d.StringFixed(MoneyPlaces)
		for _, m := range ms {
			if got := m.String(); got != wantFixed {
				t.Fatalf("#%d Money(%s).String() = %s, want %s", i, d, got, wantFixed)
			}
			if got := m.Exact(); !widetest.Same(got, d) {
				t.Fatalf("#%d Money(%s).Exact() = %s (exp %d)", i, d, got, got.Exponent())
			}
			if got, want := m.Rounded(), d.Round(MoneyPlaces); !widetest.Same(got, want) {
				t.Fatalf("#%d Money(%s).Rounded() = %s, want %s", i, d, got, want)
			}
			if got, want := m.IsZero(), d.Round(MoneyPlaces).IsZero(); got != want {
				t.Fatalf("#%d Money(%s).IsZero() = %v", i, d, got)
			}
			got, _ := m.MarshalJSON()
			if want, _ := json.Marshal(wantFixed); string(got) != string(want) {
				t.Fatalf("#%d Money(%s) JSON %s, want %s", i, d, got, want)
			}
		}
		for _, q := range qs {
			if got, want := q.String(), d.String(); got != want {
				t.Fatalf("#%d Decimal(%s).String() = %s, want %s", i, d, got, want)
			}
			if got := q.Exact(); !widetest.Same(got, d) {
				t.Fatalf("#%d Decimal(%s).Exact() = %s (exp %d)", i, d, got, got.Exponent())
			}
			if q.Sign() != d.Sign() || q.IsZero() != d.IsZero() {
				t.Fatalf("#%d Decimal(%s) sign %d", i, d, q.Sign())
			}
			got, _ := q.MarshalJSON()
			if want, _ := json.Marshal(d.String()); string(got) != string(want) {
				t.Fatalf("#%d Decimal(%s) JSON %s, want %s", i, d, got, want)
			}
			var back Decimal
			if d.Exponent() < -1000 || d.Exponent() > 1000 { // decimal.NewFromString refuses such exponents
				continue
			}
			if err := json.Unmarshal(got, &back); err != nil || back.String() != d.String() {
				t.Fatalf("#%d Decimal(%s) JSON round trip: %v %s", i, d, err, back)
			}
		}
	}
}

// TestZeroValues checks that the zero Money and Decimal write as the zero decimal.Decimal.
func TestZeroValues(t *testing.T) {
	var m Money
	var q Decimal
	if m.String() != "0.00" || !m.IsZero() || !widetest.Same(m.Exact(), decimal.Decimal{}) {
		t.Errorf("zero Money: %s", m)
	}
	if q.String() != "0" || q.Sign() != 0 || !widetest.Same(q.Exact(), decimal.Decimal{}) {
		t.Errorf("zero Decimal: %s", q)
	}
	if b, _ := json.Marshal(struct{ M Money }{}); string(b) != `{"M":"0.00"}` {
		t.Errorf("zero Money JSON: %s", b)
	}
}
