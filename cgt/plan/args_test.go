package plan

import "testing"

func TestPlanPriceForms(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{{"230.00 USD", "230 USD"}, {"98.2", "98.2 GBP"}, {98.2, "98.2 GBP"}, {map[string]any{"amount": "230", "currency": "usd"}, "230 USD"},
		{"9820 GBX", "9820 GBX"}, {"£1,234.50", "1234.5 GBP"}} {
		got, err := ParsePrice("price", c.in)
		if err != nil || got.String() != c.want {
			t.Errorf("%v: %v %v, want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []any{"", "abc", "-1", "1 2 3", "5 XYZW"} {
		if _, err := ParsePrice("price", bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	for _, in := range []any{"AAPL=190.50 USD,VWRL=98.2", []any{"AAPL=190.50 USD", "vwrl=98.2"}, map[string]any{"AAPL": "190.50 USD", "VWRL": 98.2}} {
		got, _, err := ParsePrices(in)
		if err != nil || got["AAPL"].String() != "190.5 USD" || got["VWRL"].String() != "98.2 GBP" {
			t.Errorf("%v: %v %v", in, got, err)
		}
	}
}

// FuzzParsePrices checks the prices and price readers never panic and accept only positive
// amounts in a known currency.
func FuzzParsePrices(f *testing.F) {
	for _, s := range []string{"AAPL=190.50 USD,VWRL=98.2", "VOD.L=72 GBX", "X=1", "=", ",,", "A=1 2 3", "A:5 usd", "£1,234.50"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, _, err := ParsePrices(s); err == nil {
			for tk, p := range got {
				if tk == "" || p.Amount.Sign() <= 0 || p.Currency == "" {
					t.Fatalf("%q: accepted %q = %v", s, tk, p)
				}
			}
		}
		if p, err := ParsePrice("price", s); err == nil && p.Amount.Sign() <= 0 {
			t.Fatalf("%q: accepted %v", s, p)
		}
	})
}
