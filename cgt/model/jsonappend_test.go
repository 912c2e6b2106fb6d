package model

import (
	"encoding"
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

// The appenders must write exactly what MarshalJSON writes, since the report writer uses them
// in its place; AppendText the text of that JSON string, which the records are written from.
func TestAppendJSONMatchesMarshalJSON(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "-1", "0.005", "-0.005", "0.004999", "1234.5", "-1234.565",
		"100.000", "0.0000001", "123456789012345678901234567890.123456789", "1e30", "-2.5e-25", "7.00000000000000000001"} {
		d := decimal.RequireFromString(s)
		for _, v := range []interface {
			json.Marshaler
			AppendJSON([]byte) []byte
		}{NewMoney(d), NewDecimal(d)} {
			want, _ := v.MarshalJSON()
			if got := v.AppendJSON([]byte("x")); string(got) != "x"+string(want) {
				t.Errorf("%T %s: AppendJSON %s, MarshalJSON %s", v, s, got[1:], want)
			}
			if got, _ := v.(encoding.TextAppender).AppendText([]byte("x")); string(got) != "x"+string(want[1:len(want)-1]) {
				t.Errorf("%T %s: AppendText %s, MarshalJSON %s", v, s, got[1:], want)
			}
		}
	}
}

func TestDateAppendStringMatchesString(t *testing.T) {
	for d := NewDate(1, 1, 1) - 3; d < NewDate(9999, 12, 31)+3; d += 17 {
		if got, want := string(d.AppendString(nil)), d.String(); got != want {
			t.Fatalf("day %d: %s, want %s", d, got, want)
		}
	}
	for _, d := range []Date{NewDate(2024, 2, 29), NewDate(2000, 3, 1), NewDate(1900, 2, 28), NewDate(1970, 1, 1), NewDate(1969, 12, 31)} {
		want, _ := d.MarshalJSON()
		if got := d.AppendJSON(nil); string(got) != string(want) {
			t.Errorf("%s: %s, want %s", d, got, want)
		}
		if got, _ := d.AppendText(nil); `"`+string(got)+`"` != string(want) {
			t.Errorf("%s: AppendText %s, want the text of %s", d, got, want)
		}
	}
}

// AppendExact writes what StringFixed writes at the value's own scale, for compact and large
// values, zeros and whole exponents.
func TestDecimalAppendExactIsStringFixedAtItsScale(t *testing.T) {
	values := []string{"0", "0.00", "-0.00", "150.00", "150", "-3.5", "0.000001", "12345678901234567890.125",
		"-99999999999999999999999999999999999999.5", "1E+3", "-2E+5", "0E+2", "1E-30", "4.1565", "1234567890123456789012345678901234567890"}
	for _, s := range values {
		d, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		want := d.StringFixed(max(0, -d.Exponent()))
		if got := string(NewDecimal(d).AppendExact(nil)); got != want {
			t.Errorf("%s: AppendExact %q, StringFixed %q", s, got, want)
		}
	}
	for exp := int32(-25); exp <= 6; exp++ {
		for _, coef := range []int64{0, 1, -7, 10, 120, 999999999999999999, -123456789012345678} {
			d := decimal.New(coef, exp)
			want := d.StringFixed(max(0, -d.Exponent()))
			if got := string(NewDecimal(d).AppendExact(nil)); got != want {
				t.Errorf("%dE%d: AppendExact %q, StringFixed %q", coef, exp, got, want)
			}
		}
	}
}
