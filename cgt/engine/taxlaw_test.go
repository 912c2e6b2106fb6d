package engine

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/fx"
)

// A transfer to a spouse or civil partner is a disposal (at no gain, no loss, TCGA92 s58) and
// is identified like any other: same day, then the next 30 days, then the pool (s105, s106A).
// The figures are worked by hand in the comments.
func TestSpouseTransferIdentification(t *testing.T) {
	tests := []struct {
		name     string
		ledger   string
		rules    []string // of the transfer
		cost     string   // the transfer's cost: the transferee's cost
		pool     string   // the transferor's pool at the end: "quantity cost"
		sales    []string // the gains of the sales, in date order
		proceeds string   // the year's SA108 disposal proceeds (the sales only)
	}{
		// 40 same day at £5 (£200) + 60 from the pool at £2 (£120) = £320; pool 940 shares £1,880
		{"spouseout_same_day_first", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-05-01 BUY ABC 40 @ 5.00
2024-05-01 SPOUSEOUT ABC 100`,
			[]string{RuleSameDay, RuleSection104}, "320.00", "940 1880.00", nil, ""},
		// 30 bought 10 days later at £6 (£180) + 70 from the pool (£140) = £320; the purchase
		// never enters the pool: 930 shares £1,860
		{"spouseout_30_day", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-05-01 SPOUSEOUT ABC 100
2024-05-11 BUY ABC 30 @ 6.00`,
			[]string{RuleBedAndBreakfast, RuleSection104}, "320.00", "930 1860.00", nil, ""},
		// earliest first: 50 of the 2024-05-05 purchase at £3 (£150) and 50 of the 2024-05-20
		// one at £4 (£200) = £350; the rest of the second (50 at £4) joins the pool
		{"spouseout_30_day_earliest_first", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-05-01 SPOUSEOUT ABC 100
2024-05-05 BUY ABC 50 @ 3.00
2024-05-20 BUY ABC 100 @ 4.00`,
			[]string{RuleBedAndBreakfast}, "350.00", "1050 2200.00", nil, ""},
		// day 31 is outside the window: all 100 from the pool (£200)
		{"spouseout_purchase_on_day_31_not_matched", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-05-01 SPOUSEOUT ABC 100
2024-06-01 BUY ABC 100 @ 6.00`,
			[]string{RuleSection104}, "200.00", "1000 2400.00", nil, ""},
		// a later day's own same-day disposal keeps its priority over the transfer's 30-day
		// claim: the sale of 2024-05-10 takes the 50 bought that day (gain 50 × £1 = £50), so
		// the transfer comes from the pool (£200)
		{"spouseout_later_same_day_sale_keeps_priority", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-05-01 SPOUSEOUT ABC 100
2024-05-10 BUY ABC 50 @ 6.00
2024-05-10 SELL ABC 50 @ 7.00`,
			[]string{RuleSection104}, "200.00", "900 1800.00", []string{"50.00"}, "350.00"},
		// an earlier sale's 30-day claim comes first: the sale of 2024-04-25 takes 60 of the
		// 100 bought on 2024-05-10; the transfer of 2024-05-01 gets the other 40 (£240) and 60
		// from the pool (£120) = £360
		{"spouseout_after_an_earlier_sale_claim", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-04-25 SELL ABC 60 @ 7.00
2024-05-01 SPOUSEOUT ABC 100
2024-05-10 BUY ABC 100 @ 6.00`,
			[]string{RuleBedAndBreakfast, RuleSection104}, "360.00", "940 1880.00", []string{"60.00"}, "420.00"},
		// a sale and a transfer on one day are one disposal of 100 (s105(1)(a)): 40 same day
		// (£200) and 60 from the pool (£120), shared pro rata: the sale of 50 gets 20 + 30
		// (£160; gain £300 − £160 = £140), the transfer the same £160
		{"spouseout_and_sale_same_day_one_disposal", `
2020-01-10 BUY ABC 1000 @ 2.00
2024-05-01 BUY ABC 40 @ 5.00
2024-05-01 SELL ABC 50 @ 6.00
2024-05-01 SPOUSEOUT ABC 50`,
			[]string{RuleSameDay, RuleSection104}, "160.00", "940 1880.00", []string{"140.00"}, "300.00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustRun(t, tc.ledger, Options{})
			if len(rep.NoGainNoLoss) != 1 {
				t.Fatalf("no_gain_no_loss %+v", rep.NoGainNoLoss)
			}
			d := rep.NoGainNoLoss[0]
			if strings.Join(d.Rules, ",") != strings.Join(tc.rules, ",") {
				t.Errorf("rules %v, want %v", d.Rules, tc.rules)
			}
			wantMoney(t, "transfer cost", d.AllowableCost, tc.cost)
			wantMoney(t, "deemed proceeds", d.Proceeds, tc.cost)
			wantMoney(t, "gain", d.Gain, "0.00")
			if d.Kind != KindSpouseTransfer || d.Reference != RefSpouse {
				t.Errorf("kind %q reference %q", d.Kind, d.Reference)
			}
			checkLegsAddUp(t, &d)
			h := holdingOf(t, rep, "ABC")
			if got := h.Quantity.String() + " " + h.Cost.String(); got != tc.pool {
				t.Errorf("pool %s, want %s", got, tc.pool)
			}
			ds := disposals(rep)
			if len(ds) != len(tc.sales) {
				t.Fatalf("%d sales in the tax years, want %d: %+v", len(ds), len(tc.sales), ds)
			}
			for k := range ds {
				wantMoney(t, "sale gain", ds[k].Gain, tc.sales[k])
				if ds[k].Kind != "" {
					t.Errorf("a %s is in the tax years", ds[k].Kind)
				}
			}
			for _, y := range rep.TaxYears {
				if y.SA108.NumberOfDisposals != len(tc.sales) {
					t.Errorf("SA108 counts %d disposals, want %d (the transfer counts nowhere)", y.SA108.NumberOfDisposals, len(tc.sales))
				}
				wantMoney(t, "SA108 proceeds", y.SA108.DisposalProceeds, tc.proceeds)
			}
		})
	}
}

// A negligible value claim (TCGA92 s24(2)) is a deemed sale and immediate reacquisition at the
// value claimed: the loss arises on the claim's date, the pool carries on at that value, and
// neither leg is matched with a trade by the same-day or 30-day rules.
func TestNegligibleValueClaims(t *testing.T) {
	tests := []struct {
		name   string
		ledger string
		gains  []string // every disposal in the tax years, in order: claim and sales
		kinds  []string
		years  []string // the period of each disposal
		pool   string   // at the end, "" when nothing is held
	}{
		// 1,000 at £2.50 + £10 fees and 500 at £1.20: cost £3,110; claimed at nil: loss £3,110;
		// the pool carries on: 1,500 shares costing £0
		{"negligible_claim_at_nil", `
2019-03-01 BUY BUST 1000 @ 2.50 FEES 10
2020-02-01 BUY BUST 500 @ 1.20
2024-11-20 NEGLIGIBLE BUST`,
			[]string{"-3110.00"}, []string{KindNegligible}, []string{"2024/25"}, "1500 0.00"},
		// claimed at £50 for the holding: loss £3,060; the pool costs £50
		{"negligible_claim_at_a_value", `
2019-03-01 BUY BUST 1000 @ 2.50 FEES 10
2020-02-01 BUY BUST 500 @ 1.20
2024-11-20 NEGLIGIBLE BUST VALUE 50`,
			[]string{"-3060.00"}, []string{KindNegligible}, []string{"2024/25"}, "1500 50.00"},
		// a purchase and a sale on the claim's date match each other (same day), never the
		// claim: the claim covers the 1,000 held going into the day (loss £2,000); the sale of
		// 100 at 2p is matched with the 100 bought at 1p (gain £1)
		{"negligible_not_matched_same_day", `
2020-01-10 BUY BUST 1000 @ 2.00
2024-11-20 NEGLIGIBLE BUST
2024-11-20 BUY BUST 100 @ 0.01
2024-11-20 SELL BUST 100 @ 0.02`,
			[]string{"-2000.00", "1.00"}, []string{KindNegligible, ""}, []string{"2024/25", "2024/25"}, "1000 0.00"},
		// the claim's reacquisition is no acquisition for an earlier sale's 30-day rule: the
		// sale of 500 ten days before comes from the pool at £2 (gain −£990 on £10 proceeds);
		// the claim covers the other 500 (loss £1,000)
		{"negligible_not_matched_30_day", `
2020-01-10 BUY BUST 1000 @ 2.00
2024-11-10 SELL BUST 500 @ 0.02
2024-11-20 NEGLIGIBLE BUST`,
			[]string{"-990.00", "-1000.00"}, []string{"", KindNegligible}, []string{"2024/25", "2024/25"}, "500 0.00"},
		// the deemed sale matches no later purchase either: the purchase of 2024-11-25 joins
		// the pool, and the sale of the whole holding later is from the pool (cost £5 of
		// shares bought at 1p plus the claimed nil)
		{"negligible_not_matched_with_a_later_purchase", `
2020-01-10 BUY BUST 1000 @ 2.00
2024-11-20 NEGLIGIBLE BUST
2024-11-25 BUY BUST 500 @ 0.01
2025-01-10 SELL BUST 1500 @ 0.02`,
			[]string{"-2000.00", "25.00"}, []string{KindNegligible, ""}, []string{"2024/25", "2024/25"}, ""},
		// the loss arises in the tax year of the claim's date: 5 April is 2024/25, 6 April 2025/26
		{"negligible_loss_in_the_year_of_the_claim_date", `
2020-01-10 BUY BUST 1000 @ 2.00
2020-01-10 BUY DUD 10 @ 3.00
2025-04-05 NEGLIGIBLE BUST
2025-04-06 NEGLIGIBLE DUD`,
			[]string{"-2000.00", "-30.00"}, []string{KindNegligible, KindNegligible}, []string{"2024/25", "2025/26"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustRun(t, tc.ledger, Options{})
			var got, kinds, years []string
			for _, y := range rep.TaxYears {
				for _, d := range y.Disposals {
					got, kinds, years = append(got, d.Gain.String()), append(kinds, d.Kind), append(years, y.Period)
					checkLegsAddUp(t, &d)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.gains, " ") || strings.Join(kinds, ",") != strings.Join(tc.kinds, ",") ||
				strings.Join(years, ",") != strings.Join(tc.years, ",") {
				t.Errorf("gains %v kinds %v years %v, want %v %v %v", got, kinds, years, tc.gains, tc.kinds, tc.years)
			}
			if tc.pool != "" {
				h := holdingOf(t, rep, "BUST")
				if p := h.Quantity.String() + " " + h.Cost.String(); p != tc.pool {
					t.Errorf("pool %s, want %s", p, tc.pool)
				}
			}
			for _, y := range rep.TaxYears {
				if y.SA108.NumberOfDisposals != len(y.Disposals) {
					t.Errorf("%s: SA108 counts %d, the year has %d disposals", y.Period, y.SA108.NumberOfDisposals, len(y.Disposals))
				}
			}
		})
	}
	t.Run("negligible_with_nothing_held_is_an_error", func(t *testing.T) {
		_, err := run(t, "2020-01-10 BUY ABC 10 @ 2\n2024-11-20 NEGLIGIBLE BUST", Options{})
		wantError(t, err, "validation_error", 2, "NEGLIGIBLE BUST", "no shares of BUST are held")
	})
	t.Run("negligible_steps_say_neither_leg_is_matched", func(t *testing.T) {
		rep := mustRun(t, "2020-01-10 BUY BUST 1000 @ 2.00\n2024-11-20 NEGLIGIBLE BUST", Options{})
		d := disposals(rep)[0]
		steps := strings.Join(d.Matches[0].Explain(), "\n")
		for _, part := range []string{"negligible value claim (TCGA92/S24(2))", "neither the deemed sale nor the reacquisition is matched", "pool after, with the shares reacquired at £0.00: 1,000 shares costing £0.00",
			"gain = £0.00 − £0.00 − £2,000.00 = −£2,000.00"} {
			if !strings.Contains(steps, part) {
				t.Errorf("steps %q lack %q", steps, part)
			}
		}
		if d.Reference != RefNegligible || lastEvent(t, rep, "BUST").Event != EventNegligible {
			t.Errorf("reference %q, event %+v", d.Reference, lastEvent(t, rep, "BUST"))
		}
	})
}

// A loss on a disposal of a non-reporting offshore fund is no offshore income gain (SI 2009/3001
// reg 42; OFM15100) but an allowable capital loss: it counts in the year's losses and SA108
// figures. A gain stays an offshore income gain, outside the CGT totals.
func TestNonReportingFundDisposals(t *testing.T) {
	rep := mustRun(t, `
2024-01-01 NONREPORTING VTI
2024-01-10 BUY VTI 100 @ 200
2024-01-10 BUY ABC 100 @ 10
2024-06-03 SELL VTI 40 @ 150 FEES 5
2024-08-01 SELL VTI 60 @ 300
2024-09-01 SELL ABC 100 @ 50`, Options{Rates: fx.Embedded()})
	t.Run("nonreporting_loss_allowable", func(t *testing.T) {
		// 40 × £150 = £6,000 proceeds; cost 40 × £200 = £8,000 + £5 fees: loss £2,005
		ds := disposals(rep)
		if len(ds) != 2 || ds[0].Ticker != "VTI" || ds[0].Reference != RefOffshoreLoss {
			t.Fatalf("disposals %+v", ds)
		}
		wantMoney(t, "VTI loss", ds[0].Gain, "-2005.00")
		y := rep.TaxYears[0]
		wantMoney(t, "losses", y.Losses, "2005.00")
		wantMoney(t, "gains", y.Gains, "4000.00")
		wantMoney(t, "net gain", y.NetGain, "1995.00")
		if y.SA108.NumberOfDisposals != 2 {
			t.Errorf("SA108 disposals %d, want 2", y.SA108.NumberOfDisposals)
		}
		wantMoney(t, "SA108 proceeds", y.SA108.DisposalProceeds, "11000.00")
		wantMoney(t, "SA108 costs", y.SA108.AllowableCosts, "9005.00")
		wantMoney(t, "SA108 losses", y.SA108.LossesInYear, "2005.00")
	})
	t.Run("nonreporting_gain_is_an_offshore_income_gain", func(t *testing.T) {
		if len(rep.OffshoreIncomeGains) != 1 {
			t.Fatalf("offshore income gains %+v", rep.OffshoreIncomeGains)
		}
		wantMoney(t, "offshore income gain", rep.OffshoreIncomeGains[0].Gain, "6000.00")
	})
}

// A year whose figures are a later year's assumed unchanged says so, with or without year=.
func TestProjectedYearWarns(t *testing.T) {
	rep := mustRun(t, "2024-01-10 BUY ABC 100 @ 10\n2027-06-01 SELL ABC 100 @ 12\n2027-09-01 DIVIDEND ABC TOTAL 1", Options{})
	wantWarning(t, rep, "2027/28 is later than 2026/27", "assumed unchanged")
}

// Shares received from a spouse are acquired on their date at the transferor's cost (s58): an
// acquisition like any other for the same-day and 30-day rules (s105(1), s106A(5) make no
// exception for it), and otherwise they join the pool.
func TestSpouseInIsAnAcquisition(t *testing.T) {
	tests := []struct {
		name   string
		ledger string
		rules  []string
		gain   string
		pool   string
		event  string // the last pool event
	}{
		// the sale of 50 at £12 is matched with the 50 received that day at £2 each: gain £500
		{"spousein_same_day_matches_a_sale", `
2020-01-10 BUY ABC 100 @ 10.00
2024-05-01 SPOUSEIN ABC 50 COST 100.00
2024-05-01 SELL ABC 50 @ 12.00`,
			[]string{RuleSameDay}, "500.00", "100 1000.00", EventBuy},
		// the sale of 2024-05-01 is matched with the shares received ten days later (£100):
		// gain £600 − £100 = £500; the pool keeps its 100 shares at £1,000
		{"spousein_30_day_matches_an_earlier_sale", `
2020-01-10 BUY ABC 100 @ 10.00
2024-05-01 SELL ABC 50 @ 12.00
2024-05-11 SPOUSEIN ABC 50 COST 100.00`,
			[]string{RuleBedAndBreakfast}, "500.00", "100 1000.00", EventBuy},
		// received more than 30 days after the sale: the sale is from the pool (£500, gain
		// £100) and the shares join it: 100 shares, £500 + £100
		{"spousein_after_30_days_joins_the_pool", `
2020-01-10 BUY ABC 100 @ 10.00
2024-05-01 SELL ABC 50 @ 12.00
2024-06-01 SPOUSEIN ABC 50 COST 100.00`,
			[]string{RuleSection104}, "100.00", "100 600.00", EventSpouseIn},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustRun(t, tc.ledger, Options{})
			ds := disposals(rep)
			if len(ds) != 1 {
				t.Fatalf("disposals %+v", ds)
			}
			if strings.Join(ds[0].Rules, ",") != strings.Join(tc.rules, ",") {
				t.Errorf("rules %v, want %v", ds[0].Rules, tc.rules)
			}
			wantMoney(t, "gain", ds[0].Gain, tc.gain)
			h := holdingOf(t, rep, "ABC")
			if got := h.Quantity.String() + " " + h.Cost.String(); got != tc.pool {
				t.Errorf("pool %s, want %s", got, tc.pool)
			}
			if e := lastEvent(t, rep, "ABC"); e.Event != tc.event {
				t.Errorf("last event %+v, want %s", e, tc.event)
			}
		})
	}
}
