package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// tradeLedger writes a random ledger of one security, XYZ: purchases, sales and transfers to a
// spouse (when spouse is set), two or three on some days, never more out than held. It returns
// the text, the shares bought and their total cost, and the shares held at the end.
func tradeLedger(rng *rand.Rand, n int, spouse bool) (text string, bought, cost decimal.Decimal, held int64) {
	var b strings.Builder
	date := model.NewDate(2015, 1, 5)
	for k := 0; k < n; k++ {
		if rng.IntN(3) != 0 {
			date = date.AddDays(1 + rng.IntN(20))
		}
		roll := rng.IntN(10)
		switch {
		case roll < 4 || held == 0:
			q := int64(1 + rng.IntN(500))
			price := decimal.New(int64(50+rng.IntN(5000)), -2)
			fmt.Fprintf(&b, "%s BUY XYZ %d @ %s FEES 1.50\n", date, q, price.StringFixed(2))
			bought = bought.Add(decimal.NewFromInt(q))
			cost = cost.Add(price.Mul(decimal.NewFromInt(q))).Add(decimal.New(150, -2))
			held += q
		case roll < 7 || !spouse:
			q := 1 + rng.Int64N(held)
			fmt.Fprintf(&b, "%s SELL XYZ %d @ %s\n", date, q, decimal.New(int64(50+rng.IntN(5000)), -2).StringFixed(2))
			held -= q
		default:
			q := 1 + rng.Int64N(held)
			fmt.Fprintf(&b, "%s SPOUSEOUT XYZ %d\n", date, q)
			held -= q
		}
	}
	return b.String(), bought, cost, held
}

// Transfers to a spouse conserve shares and cost across both ledgers: the transferee's
// SPOUSEIN lines, at the cost the engine gives each transfer, hold exactly what left the
// transferor; the transferor's purchases are accounted for by what was sold, what was
// transferred and the pool left; and every transfer is at no gain and no loss, outside the
// tax years.
func TestPropertySpouseTransfersConserveQuantityAndCost(t *testing.T) {
	tolerance := decimal.New(1, -12) // the 20-place divisions of shared costs
	matched := map[string]int{}
	for seed := uint64(1); seed <= 150; seed++ {
		rng := rand.New(rand.NewPCG(seed, 58))
		text, bought, boughtCost, held := tradeLedger(rng, 5+rng.IntN(40), true)
		rep, err := run(t, text, Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		var sold, soldCost, moved, movedCost decimal.Decimal
		var spouseIn strings.Builder
		for _, d := range disposals(rep) {
			if d.Kind != "" {
				t.Fatalf("seed %d: a %s in the tax years", seed, d.Kind)
			}
			sold, soldCost = sold.Add(d.Quantity.Exact()), soldCost.Add(d.IdentifiedCost.Exact())
		}
		for _, d := range rep.NoGainNoLoss {
			if !d.Gain.Exact().IsZero() || !d.Proceeds.Exact().Equal(d.AllowableCost.Exact()) {
				t.Fatalf("seed %d: transfer on %s proceeds %s cost %s gain %s", seed, d.Date, d.Proceeds.Exact(), d.AllowableCost.Exact(), d.Gain.Exact())
			}
			var legs decimal.Decimal
			for _, m := range d.Matches {
				legs = legs.Add(m.Quantity.Exact())
			}
			if !legs.Equal(d.Quantity.Exact()) {
				t.Fatalf("seed %d: transfer on %s of %s has legs of %s", seed, d.Date, d.Quantity.Exact(), legs)
			}
			for _, r := range d.Rules {
				matched[r]++
			}
			moved, movedCost = moved.Add(d.Quantity.Exact()), movedCost.Add(d.AllowableCost.Exact())
			fmt.Fprintf(&spouseIn, "%s SPOUSEIN XYZ %s COST %s\n", d.Date, d.Quantity.Exact(), d.AllowableCost.Exact())
		}
		var poolQty, poolCost decimal.Decimal
		for _, h := range rep.Holdings {
			poolQty, poolCost = h.Quantity.Exact(), h.Cost.Exact()
		}
		if !poolQty.Equal(decimal.NewFromInt(held)) || !bought.Equal(poolQty.Add(sold).Add(moved)) {
			t.Fatalf("seed %d: bought %s = pool %s + sold %s + transferred %s? (held %d)\n%s", seed, bought, poolQty, sold, moved, held, text)
		}
		if diff := boughtCost.Sub(poolCost.Add(soldCost).Add(movedCost)).Abs(); diff.Cmp(tolerance) > 0 {
			t.Fatalf("seed %d: cost %s = pool %s + sold %s + transferred %s? (off by %s)\n%s", seed, boughtCost, poolCost, soldCost, movedCost, diff, text)
		}
		if moved.IsZero() {
			continue
		}
		other := mustRun(t, spouseIn.String(), Options{})
		h := holdingOf(t, other, "XYZ")
		if !h.Quantity.Exact().Equal(moved) || !h.Cost.Exact().Equal(movedCost) || len(other.TaxYears) != 0 {
			t.Fatalf("seed %d: the transferee holds %s costing %s, want %s costing %s", seed, h.Quantity.Exact(), h.Cost.Exact(), moved, movedCost)
		}
	}
	if matched[RuleSameDay] == 0 || matched[RuleBedAndBreakfast] == 0 || matched[RuleSection104] == 0 {
		t.Errorf("the ledgers did not exercise every rule on a transfer: %v", matched)
	}
}

// A negligible value claim followed by a sale of the holding gives the same total gain or
// loss as the sale alone at the value claimed: the claim only brings the loss forward to its
// date. The sale falls on the claim's date or later, sometimes in the next tax year.
func TestPropertyNegligibleClaimThenSaleEqualsSaleAtTheClaimedValue(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		rng := rand.New(rand.NewPCG(seed, 24))
		text, _, _, held := tradeLedger(rng, 3+rng.IntN(30), false)
		if held == 0 {
			continue
		}
		claim := model.NewDate(2019, 6, 1).AddDays(rng.IntN(200))
		sale := claim.AddDays(rng.IntN(3) * rng.IntN(400))
		v := decimal.New(int64(rng.IntN(20000)), -2)
		valueText := ""
		if !v.IsZero() || rng.IntN(2) == 0 {
			valueText = " VALUE " + v.StringFixed(2)
		}
		sell := fmt.Sprintf("%s SELL XYZ %d TOTAL %s\n", sale, held, v.StringFixed(2))
		withClaim := text + fmt.Sprintf("%s NEGLIGIBLE XYZ%s\n", claim, valueText) + sell
		alone := text + sell
		a, b := mustRun(t, withClaim, Options{}), mustRun(t, alone, Options{})
		total := func(rep *Report) (sum decimal.Decimal, claims int) {
			for _, d := range disposals(rep) {
				sum = sum.Add(d.Gain.Exact())
				if d.Kind == KindNegligible {
					claims++
				}
			}
			return sum, claims
		}
		ga, ca := total(a)
		gb, _ := total(b)
		if !ga.Equal(gb) || ca != 1 {
			t.Fatalf("seed %d: with the claim %s (%d claims), the sale alone %s\n%s", seed, ga, ca, gb, withClaim)
		}
		if len(a.Holdings)+len(b.Holdings) != 0 {
			t.Fatalf("seed %d: holdings left %+v %+v", seed, a.Holdings, b.Holdings)
		}
	}
}

// One date's negligible value claim, purchases, sales and transfers to a spouse give the same
// report in every order of their lines.
func TestSameDateOrderPermutationsWithClaimAndTransfers(t *testing.T) {
	lines := []string{
		"2024-03-01 NEGLIGIBLE F VALUE 5",
		"2024-03-01 BUY F 10 @ 0.10 FEES 1",
		"2024-03-01 SELL F 6 @ 0.20",
		"2024-03-01 SPOUSEOUT F 7",
		"2024-03-01 SPOUSEOUT F 3",
	}
	base := "2024-01-01 BUY F 100 @ 9\n2024-03-20 BUY F 4 @ 0.15\n"
	sameReportInEveryOrder(t, base, lines)
}
