package engine

import (
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestForeignDividend(t *testing.T) {
	for _, tc := range []struct {
		name     string
		currency string
		isin     string
		foreign  bool
	}{
		{"pounds_without_isin_is_uk", "GBP", "", false},
		{"pounds_with_gb_isin_is_uk", "GBP", "GB0007188757", false},
		{"dollars_are_foreign", "USD", "", true},
		{"pounds_from_an_irish_fund_are_foreign", "GBP", "IE00B3RBWM25", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := model.Transaction{Action: model.Dividend, Total: model.Amount{Currency: tc.currency}, ISIN: tc.isin}
			if got := foreignDividend(&tx); got != tc.foreign {
				t.Errorf("foreign = %v, want %v", got, tc.foreign)
			}
		})
	}
}
