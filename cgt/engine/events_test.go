package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

// holdingOf returns a ticker's final holding, or fails.
func holdingOf(t *testing.T, rep *Report, ticker string) Holding {
	t.Helper()
	for _, h := range rep.Holdings {
		if h.Ticker == ticker {
			return h
		}
	}
	t.Fatalf("no holding of %s in %+v", ticker, rep.Holdings)
	return Holding{}
}

// lastEvent returns a ticker's last pool event.
func lastEvent(t *testing.T, rep *Report, ticker string) PoolEvent {
	t.Helper()
	for _, p := range rep.Pools {
		if p.Ticker == ticker && len(p.Events) > 0 {
			return p.Events[len(p.Events)-1]
		}
	}
	t.Fatalf("no pool history for %s", ticker)
	return PoolEvent{}
}

func TestRights(t *testing.T) {
	t.Run("cost_joins_the_pool_CG51895", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2010-01-04", model.Buy, "ABC", q("1000"), at("4.30")),
			tx("2010-06-01", model.Rights, "ABC", q("200"), at("3.50")))
		h := holdingOf(t, rep, "ABC")
		if h.Quantity.String() != "1200" || h.Cost.String() != "5000.00" {
			t.Errorf("holding %s shares costing %s, want 1200 costing 5000.00", h.Quantity, h.Cost)
		}
		if e := lastEvent(t, rep, "ABC"); e.Event != EventRights || e.Reference != RefRights {
			t.Errorf("event %s %s", e.Event, e.Reference)
		}
	})
	t.Run("rights_shares_are_not_a_same_day_acquisition", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-04", model.Buy, "ABC", q("100"), at("10")),
			tx("2024-03-01", model.Rights, "ABC", q("100"), at("2")),
			tx("2024-03-01", model.Sell, "ABC", q("50"), at("8")))
		d := disposals(rep)[0]
		if len(d.Rules) != 1 || d.Rules[0] != RuleSection104 {
			t.Fatalf("rules %v, want the pool only", d.Rules)
		}
		wantMoney(t, "cost", d.AllowableCost, "300.00") // 50 × 1,200 ÷ 200
	})
	t.Run("rights_without_a_holding_is_an_error", func(t *testing.T) {
		err := calcErr(t, tx("2024-03-01", model.Rights, "ABC", q("100"), at("2")))
		wantError(t, err, model.CodeValidation, 1, "no shares of ABC")
	})
}

func TestTakeover(t *testing.T) {
	t.Run("new_shares_carry_the_old_cost", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2015-01-05", model.Buy, "OLD", q("100"), at("10"), fees("5")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("50")),
			tx("2024-06-03", model.Sell, "NEW", q("50"), at("30")))
		if len(rep.Holdings) != 0 {
			t.Errorf("holdings left %+v", rep.Holdings)
		}
		d := disposals(rep)[0]
		wantMoney(t, "cost", d.AllowableCost, "1005.00")
		wantMoney(t, "gain", d.Gain, "495.00")
		if e := lastEvent(t, rep, "OLD"); e.Event != EventTakeover || e.Quantity.String() != "0" || e.Reference != RefTakeover {
			t.Errorf("old pool's last event %+v", e)
		}
	})
	t.Run("takeover_shares_are_not_a_same_day_acquisition", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2015-01-05", model.Buy, "OLD", q("100"), at("1")),
			tx("2024-03-01", model.Takeover, "OLD", newTicker("NEW"), q("50")),
			tx("2024-03-01", model.Buy, "NEW", q("10"), at("5")),
			tx("2024-03-01", model.Sell, "NEW", q("20"), at("6")))
		d := disposals(rep)[0]
		if fmt.Sprint(d.Rules) != "[same_day section_104]" {
			t.Fatalf("rules %v", d.Rules)
		}
		wantMoney(t, "same-day cost", d.Matches[0].Cost, "50.00")
		wantMoney(t, "pool cost", d.Matches[1].Cost, "20.00") // 10 × 100 ÷ 50
	})
	t.Run("small_cash_reduces_the_cost", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2015-01-05", model.Buy, "OLD", q("100"), at("100")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("200"), cash("2500")))
		h := holdingOf(t, rep, "NEW")
		if h.Quantity.String() != "200" || h.Cost.String() != "7500.00" {
			t.Errorf("holding %+v", h)
		}
		if len(disposals(rep)) != 0 {
			t.Errorf("small cash made a disposal")
		}
	})
	t.Run("cash_of_5_percent_or_less_is_small_whatever_the_amount", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2015-01-05", model.Buy, "OLD", q("1000"), at("100")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("2000"), cash("5000"), value("195000")))
		if h := holdingOf(t, rep, "NEW"); h.Cost.String() != "95000.00" {
			t.Errorf("cost %s, want 95000.00", h.Cost)
		}
	})
	t.Run("large_cash_is_a_part_disposal", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2015-01-05", model.Buy, "OLD", q("1000"), at("10")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("500"), cash("6000"), value("24000")))
		d := disposals(rep)[0]
		if d.Kind != KindCapitalDistribution || d.Reference != RefTakeoverCash || d.Rules[0] != RulePartDisposal {
			t.Errorf("disposal %s %s %v", d.Kind, d.Reference, d.Rules)
		}
		wantMoney(t, "proceeds", d.Proceeds, "6000.00")
		wantMoney(t, "cost", d.AllowableCost, "2000.00") // 10,000 × 6,000 ÷ 30,000
		wantMoney(t, "gain", d.Gain, "4000.00")
		if h := holdingOf(t, rep, "NEW"); h.Cost.String() != "8000.00" {
			t.Errorf("new cost %s", h.Cost)
		}
		steps := strings.Join(d.Matches[0].Explain(), "\n")
		if !strings.Contains(steps, "£10,000.00 × £6,000.00 ÷ £30,000.00 = £2,000.00") {
			t.Errorf("steps:\n%s", steps)
		}
	})
	t.Run("large_cash_without_value_is_an_error", func(t *testing.T) {
		err := calcErr(t,
			tx("2015-01-05", model.Buy, "OLD", q("1000"), at("10")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("500"), cash("6000")))
		wantError(t, err, model.CodeValidation, 2, "VALUE", "6000.00")
	})
	t.Run("takeover_into_itself_is_an_error", func(t *testing.T) {
		err := calcErr(t,
			tx("2015-01-05", model.Buy, "OLD", q("1000"), at("10")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("old"), q("500")))
		wantError(t, err, model.CodeValidation, 2, "same security")
	})
	t.Run("a_chain_of_takeovers", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2021-03-02", model.Takeover, "B", newTicker("C"), q("10")),
			tx("2015-01-05", model.Buy, "A", q("100"), at("10")),
			tx("2020-03-02", model.Takeover, "A", newTicker("B"), q("50")))
		if h := holdingOf(t, rep, "C"); h.Quantity.String() != "10" || h.Cost.String() != "1000.00" {
			t.Errorf("holding %+v", h)
		}
	})
}

func TestDemerger(t *testing.T) {
	// CG33936: 1,000 X for 5,000; 500 Y received; values 18,000 : 6,000, so a quarter of the
	// cost goes to Y: 1,250. Y sold for 8,000: gain 6,750.
	rep := mustCalc(t, Options{},
		tx("2012-01-05", model.Buy, "X", q("1000"), at("5")),
		tx("2018-05-01", model.Demerger, "X", newTicker("Y"), q("500"), ratio("0.25")),
		tx("2019-05-01", model.Sell, "Y", q("500"), at("16")))
	d := disposals(rep)[0]
	wantMoney(t, "cost", d.AllowableCost, "1250.00")
	wantMoney(t, "gain", d.Gain, "6750.00")
	if h := holdingOf(t, rep, "X"); h.Quantity.String() != "1000" || h.Cost.String() != "3750.00" {
		t.Errorf("parent %+v", h)
	}
	t.Run("fraction_above_one_is_an_error", func(t *testing.T) {
		err := calcErr(t, tx("2018-05-01", model.Demerger, "X", newTicker("Y"), q("500"), ratio("1.5")))
		wantError(t, err, model.CodeValidation, 1, "from 0 to 1")
	})
}

func TestCapitalDistribution(t *testing.T) {
	t.Run("large_with_value_is_a_part_disposal_CG57826", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2010-01-04", model.Buy, "ABC", q("1000"), at("18")),
			tx("2020-06-01", model.CapReturn, "ABC", q("1000"), total("9500"), value("11000")))
		d := disposals(rep)[0]
		wantMoney(t, "cost", d.AllowableCost, "8341.46") // 18,000 × 9,500 ÷ 20,500
		wantMoney(t, "gain", d.Gain, "1158.54")
		if d.Kind != KindCapitalDistribution || d.Reference != RefCapitalDist || d.Quantity.String() != "0" {
			t.Errorf("disposal %+v", d)
		}
		if h := holdingOf(t, rep, "ABC"); h.Quantity.String() != "1000" || h.Cost.String() != "9658.54" {
			t.Errorf("holding %+v", h)
		}
	})
	t.Run("small_with_value_reduces_cost", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2010-01-04", model.Buy, "ABC", q("1000"), at("18")),
			tx("2020-06-01", model.CapReturn, "ABC", q("1000"), total("4000"), value("100000")))
		if len(disposals(rep)) != 0 {
			t.Fatal("a small distribution made a disposal")
		}
		if h := holdingOf(t, rep, "ABC"); h.Cost.String() != "14000.00" {
			t.Errorf("cost %s", h.Cost)
		}
		if e := lastEvent(t, rep, "ABC"); e.Reference != RefCapitalDist+"(2)" {
			t.Errorf("reference %q", e.Reference)
		}
	})
	t.Run("without_value_over_3000_warns", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2010-01-04", model.Buy, "ABC", q("1000"), at("18")),
			tx("2020-06-01", model.CapReturn, "ABC", q("1000"), total("4000")))
		wantWarning(t, rep, "CAPRETURN ABC", "4000.00", "VALUE")
		if h := holdingOf(t, rep, "ABC"); h.Cost.String() != "14000.00" {
			t.Errorf("cost %s", h.Cost)
		}
	})
	t.Run("without_value_up_to_3000_is_quiet", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2010-01-04", model.Buy, "ABC", q("1000"), at("18")),
			tx("2020-06-01", model.CapReturn, "ABC", q("1000"), total("2999.99")))
		if len(rep.Warnings) != 0 {
			t.Errorf("warnings %q", rep.Warnings)
		}
	})
}

func TestSpouseTransfers(t *testing.T) {
	rep := mustCalc(t, Options{},
		tx("2015-01-05", model.Buy, "ABC", q("300"), at("10")),
		tx("2016-01-05", model.Buy, "ABC", q("100"), at("14")),
		tx("2024-05-01", model.SpouseOut, "ABC", q("100")),
		tx("2024-05-01", model.SpouseIn, "XYZ", q("50"), cost("1234.56")))
	if len(rep.TaxYears) != 0 {
		t.Errorf("a spouse transfer reached the tax years: %+v", rep.TaxYears)
	}
	if len(rep.NoGainNoLoss) != 1 {
		t.Fatalf("no_gain_no_loss %+v", rep.NoGainNoLoss)
	}
	d := rep.NoGainNoLoss[0]
	wantMoney(t, "deemed proceeds", d.Proceeds, "1100.00")
	wantMoney(t, "cost", d.AllowableCost, "1100.00")
	wantMoney(t, "gain", d.Gain, "0.00")
	if d.Reference != RefSpouse || !strings.Contains(strings.Join(d.Matches[0].Explain(), "\n"), "no gain, no loss (TCGA92/S58)") {
		t.Errorf("reference %q steps %q", d.Reference, d.Matches[0].Explain())
	}
	if h := holdingOf(t, rep, "ABC"); h.Quantity.String() != "300" || h.Cost.String() != "3300.00" {
		t.Errorf("ABC %+v", h)
	}
	if h := holdingOf(t, rep, "XYZ"); h.Cost.String() != "1234.56" {
		t.Errorf("XYZ %+v", h)
	}
	if e := lastEvent(t, rep, "XYZ"); e.Event != EventSpouseIn || e.Reference != RefSpouse {
		t.Errorf("event %+v", e)
	}
	t.Run("more_than_held_is_an_error", func(t *testing.T) {
		err := calcErr(t, tx("2015-01-05", model.Buy, "ABC", q("3"), at("10")), tx("2024-05-01", model.SpouseOut, "ABC", q("4")))
		wantError(t, err, model.CodeValidation, 2, "4 shares transferred", "only 3 held")
	})
}

func TestOpeningPool(t *testing.T) {
	rep := mustCalc(t, Options{},
		tx("1982-03-31", model.Pool, "ABC", q("1000"), cost("2500")),
		tx("1990-01-05", model.Buy, "ABC", q("1000"), at("3.50")),
		tx("2024-05-01", model.Sell, "ABC", q("500"), at("10")))
	d := disposals(rep)[0]
	wantMoney(t, "cost", d.AllowableCost, "1500.00") // 500 × 6,000 ÷ 2,000
	if e := rep.Pools[0].Events[0]; e.Event != EventPool || e.Reference != RefRebasing {
		t.Errorf("first event %+v", e)
	}
}

func TestExcessReportableIncome(t *testing.T) {
	t.Run("added_to_the_cost_of_units_held", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2023-01-05", model.Buy, "FUND", q("100"), at("50")),
			tx("2024-06-30", model.ERI, "FUND", q("100"), total("37.21")))
		if h := holdingOf(t, rep, "FUND"); h.Cost.String() != "5037.21" {
			t.Errorf("cost %s", h.Cost)
		}
		if e := lastEvent(t, rep, "FUND"); e.Event != EventERI || e.Reference != RefERI {
			t.Errorf("event %+v", e)
		}
	})
	t.Run("units_sold_since_the_period_end_take_their_share", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2023-01-05", model.Buy, "FUND", q("100"), at("50")),
			tx("2024-02-01", model.Sell, "FUND", q("40"), at("60")),
			tx("2024-06-30", model.ERI, "FUND", q("100"), total("50")))
		d := disposals(rep)[0]
		wantMoney(t, "cost", d.AllowableCost, "2020.00") // 40 × 50 + 40% of £50
		wantMoney(t, "gain", d.Gain, "380.00")
		if len(d.Adjustments) != 1 || d.Adjustments[0].Reference != RefERIAfterSale || d.Adjustments[0].Cost.String() != "20.00" {
			t.Errorf("adjustments %+v", d.Adjustments)
		}
		wantMoney(t, "tax year gains", rep.TaxYears[0].Gains, "380.00")
		if h := holdingOf(t, rep, "FUND"); h.Cost.String() != "3030.00" {
			t.Errorf("cost %s", h.Cost)
		}
		wantWarning(t, rep, "ERI FUND", "40 units", "2024-02-01", "amended")
	})
	t.Run("units_not_accounted_for_are_an_error", func(t *testing.T) {
		err := calcErr(t,
			tx("2023-01-05", model.Buy, "FUND", q("100"), at("50")),
			tx("2023-06-01", model.Sell, "FUND", q("40"), at("60")),
			tx("2024-06-30", model.ERI, "FUND", q("100"), total("50")))
		wantError(t, err, model.CodeValidation, 3, "100 units", "60 are held")
	})
}

func TestRepeatedCorporateActions(t *testing.T) {
	t.Run("split_in_two_files_applies_once", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "ABC", q("10"), at("100")),
			tx("2024-03-01", model.Split, "ABC", ratio("2")),
			tx("2024-03-01", model.Split, "ABC", ratio("2"), file("broker.csv")))
		if h := holdingOf(t, rep, "ABC"); h.Quantity.String() != "20" {
			t.Errorf("quantity %s, want 20", h.Quantity)
		}
		wantWarning(t, rep, "SPLIT ABC on 2024-03-01", "test.cgt line 2", "broker.csv line 3", "applied once")
	})
	t.Run("same_file_twice_applies_twice", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "ABC", q("10"), at("100")),
			tx("2024-03-01", model.Split, "ABC", ratio("2")),
			tx("2024-03-01", model.Split, "ABC", ratio("2")))
		if h := holdingOf(t, rep, "ABC"); h.Quantity.String() != "40" {
			t.Errorf("quantity %s, want 40", h.Quantity)
		}
	})
	t.Run("different_ratios_are_two_actions", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "ABC", q("10"), at("100")),
			tx("2024-03-01", model.Split, "ABC", ratio("2")),
			tx("2024-03-01", model.Split, "ABC", ratio("3"), file("broker.csv")))
		if h := holdingOf(t, rep, "ABC"); h.Quantity.String() != "60" {
			t.Errorf("quantity %s, want 60", h.Quantity)
		}
	})
	t.Run("takeover_in_two_files_applies_once", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2015-01-05", model.Buy, "OLD", q("100"), at("10")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("50")),
			tx("2020-03-02", model.Takeover, "OLD", newTicker("NEW"), q("50"), file("broker.csv")))
		if h := holdingOf(t, rep, "NEW"); h.Quantity.String() != "50" || h.Cost.String() != "1000.00" {
			t.Errorf("holding %+v", h)
		}
		if len(rep.Warnings) != 1 {
			t.Errorf("warnings %q, want one", rep.Warnings)
		}
	})
}
