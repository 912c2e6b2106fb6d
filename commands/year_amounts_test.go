package commands

import "testing"

// YearAmounts keeps the value as given: absent or null is not given; anything else is read by
// tax.ReadAmounts (cgt/tax/amounts_test.go).
func TestYearAmountsNullIsNotGiven(t *testing.T) {
	for raw, given := range map[string]bool{``: false, `null`: false, ` null `: false, `52000`: true} {
		a := &YearAmounts{}
		if raw != "" {
			_ = a.UnmarshalJSON([]byte(raw))
		}
		r, err := a.Resolve("taxable_income")
		if err != nil || (r != nil) != given {
			t.Errorf("%q: Resolve = %v, %v; given %v", raw, r, err, given)
		}
	}
}
