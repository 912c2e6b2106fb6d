package model

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestGBPGroupsThousandsAndRoundsToThePenny(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "£0.00"},
		{"5.1", "£5.10"},
		{"999.999", "£1,000.00"},
		{"1234567.891", "£1,234,567.89"},
		{"-120", "-£120.00"},
		{"-123", "-£123.00"},
		{"-0.001", "£0.00"},
		{"-1234.5", "-£1,234.50"},
	} {
		if got := NewMoney(decimal.RequireFromString(c.in)).GBP(); got != c.want {
			t.Errorf("GBP(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Grouped(decimal.RequireFromString("-123")); got != "-123.00" {
		t.Errorf("Grouped(-123) = %q, want -123.00", got)
	}
}
