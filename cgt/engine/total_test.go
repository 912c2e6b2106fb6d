package engine

import (
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestTotalForm(t *testing.T) {
	t.Run("total_is_the_whole_consideration", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "VWRL", q("0.3741"), total("40.00"), fees("0.15")),
			tx("2024-03-01", model.Sell, "VWRL", q("0.3741"), total("45.55"), fees("0.10")))
		d := disposals(rep)[0]
		wantMoney(t, "proceeds", d.Proceeds, "45.55")
		wantMoney(t, "allowable cost", d.AllowableCost, "40.25")
		wantMoney(t, "gain", d.Gain, "5.30")
	})
	t.Run("total_in_a_foreign_currency_converts_as_one_amount", func(t *testing.T) {
		rep := mustCalc(t, Options{Rates: fakeRates{}},
			tx("2024-01-02", model.Buy, "AAPL", q("3"), total("500.00 USD")),
			tx("2024-02-01", model.Sell, "AAPL", q("3"), total("600.00 USD"), fees("1.25 USD")))
		d := disposals(rep)[0]
		wantMoney(t, "proceeds", d.Proceeds, "480.00")
		wantMoney(t, "allowable cost", d.AllowableCost, "401.00")
		if len(d.Original) != 1 || d.Original[0].Consideration.Amount.String() != "600" ||
			d.Original[0].Price.Amount.String() != "200" || d.Original[0].Price.Currency != "USD" {
			t.Errorf("original %+v", d.Original)
		}
	})
	t.Run("total_and_price_agree", func(t *testing.T) {
		byTotal := disposals(mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "A", q("7"), total("70.07")),
			tx("2024-02-01", model.Sell, "A", q("3"), total("33.33"))))[0]
		byPrice := disposals(mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "A", q("7"), at("10.01")),
			tx("2024-02-01", model.Sell, "A", q("3"), at("11.11"))))[0]
		if byTotal.Gain.Exact().String() != byPrice.Gain.Exact().String() {
			t.Errorf("gain by total %s, by price %s", byTotal.Gain.Exact(), byPrice.Gain.Exact())
		}
	})
	t.Run("price_and_total_together_are_an_error", func(t *testing.T) {
		err := calcErr(t, tx("2024-01-02", model.Buy, "A", q("7"), at("10"), total("70")))
		wantError(t, err, model.CodeValidation, 1, "both a price", "total")
	})
	t.Run("negative_total_is_an_error", func(t *testing.T) {
		err := calcErr(t, tx("2024-01-02", model.Buy, "A", q("7"), total("-70")))
		wantError(t, err, model.CodeValidation, 1, "negative")
	})
}
