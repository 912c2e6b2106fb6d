package tax

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// gains builds a year's figures: one "gains/losses" pair per rate period of the year.
func gains(start int, lossesUsed string, parts ...string) Gains {
	y := taxyear.Year{Start: start}
	g := Gains{Year: y, LossesUsed: d(lossesUsed)}
	for i, p := range y.RatePeriods() {
		gl := "0/0"
		if i < len(parts) {
			gl = parts[i]
		}
		a, b, _ := strings.Cut(gl, "/")
		g.Parts = append(g.Parts, Part{From: p.From, To: p.To, Basic: p.Basic, Higher: p.Higher, Gains: d(a), Losses: d(b)})
	}
	return g
}

func income(taxable, extension string) Income {
	return Income{TaxableIncome: d(taxable), BandExtension: d(extension)}
}

// charges writes the charges compactly: "2024-10-30 0.24×12000.00=2880.00".
func chargeList(p Payable) string {
	var out []string
	for _, c := range p.Charges {
		out = append(out, fmt.Sprintf("%s %s×%s=%s", c.From, c.Rate, c.Gain, c.Tax))
	}
	return strings.Join(out, "; ")
}

func TestCompute_hand_worked(t *testing.T) {
	cases := []struct {
		name       string
		g          Gains
		in         Income
		unused     string
		charges    string
		total      string
		adjustment string
	}{
		{"basic_rate_2023_24", gains(2023, "0", "20000/0"), income("30000", "0"), "7700.00",
			"2023-04-06 0.1×7700.00=770.00; 2023-04-06 0.2×6300.00=1260.00", "2030.00", "0"},
		{"higher_rate_2023_24_with_loss", gains(2023, "0", "20000/2500"), income("60000", "0"), "0.00",
			"2023-04-06 0.2×11500.00=2300.00", "2300.00", "0"},
		// Thomson Reuters' example: exempt amount against the later gain, 12,000 × 4% = 480.
		{"higher_rate_2024_25_both_parts", gains(2024, "0", "15000/0", "15000/0"), income("80000", "0"), "0.00",
			"2024-04-06 0.2×15000.00=3000.00; 2024-10-30 0.24×12000.00=2880.00", "5880.00", "480"},
		// The earlier loss goes against the later gain (s1F(2)), not netted inside its part.
		{"higher_rate_2024_25_loss_nets_across_30_october", gains(2024, "0", "10000/4000", "10000/0"), income("80000", "0"), "0.00",
			"2024-04-06 0.2×10000.00=2000.00; 2024-10-30 0.24×3000.00=720.00", "2720.00", "120"},
		// Band against the earlier gains (saves 10 points, not 6); exempt amount against the later.
		{"basic_rate_2024_25_both_parts", gains(2024, "0", "5000/0", "10000/0"), income("30000", "0"), "7700.00",
			"2024-04-06 0.1×5000.00=500.00; 2024-10-30 0.18×2700.00=486.00; 2024-10-30 0.24×4300.00=1032.00", "2018.00", "388"},
		// One charge per rate on the return's side: splitting the 10/20 gains by date would round
		// down twice and leave a spurious penny.
		{"no_penny_from_splitting_the_return", gains(2024, "54.90", "9506.84/0", "2044.55/0"), income("30000", "0"), "7700.00",
			"2024-04-06 0.1×7700.00=770.00; 2024-04-06 0.2×796.49=159.29", "929.29", "0"},
		{"basic_rate_2024_25_only_before", gains(2024, "0", "13000/0"), income("30000", "0"), "7700.00",
			"2024-04-06 0.1×7700.00=770.00; 2024-04-06 0.2×2300.00=460.00", "1230.00", "0"},
		{"band_extension_2025_26", gains(2025, "0", "12000/0"), income("35000", "2000"), "4700.00",
			"2025-04-06 0.18×4700.00=846.00; 2025-04-06 0.24×4300.00=1032.00", "1878.00", "0"},
		// CG21245: the flat 18% gain before 23 June 2010 does not take the band.
		{"straddle_2010_11_cg21245", gains(2010, "0", "10000/0", "50000/0"), income("30000", "0"), "7400.00",
			"2010-04-06 0.18×10000.00=1800.00; 2010-06-23 0.18×7400.00=1332.00; 2010-06-23 0.28×32500.00=9100.00", "12232.00", "0"},
		// CG21220: Gift Aid of 40,000 net (50,000 gross) extends the band to 87,400.
		{"gift_aid_cg21220", gains(2010, "0", "0/0", "70000/0"), income("30000", "50000"), "57400.00",
			"2010-06-23 0.18×57400.00=10332.00; 2010-06-23 0.28×2500.00=700.00", "11032.00", "0"},
		{"flat_18_2008_09", gains(2008, "0", "20000/0"), income("10000", "0"), "24800.00",
			"2008-04-06 0.18×10400.00=1872.00", "1872.00", "0"},
		{"losses_brought_forward_2022_23", gains(2022, "3000", "20000/0"), income("35000", "0"), "2700.00",
			"2022-04-06 0.1×2700.00=270.00; 2022-04-06 0.2×2000.00=400.00", "670.00", "0"},
		{"below_exempt_amount", gains(2023, "0", "5000/0"), income("30000", "0"), "7700.00", "", "0.00", "0"},
		{"net_loss", gains(2024, "0", "1000/5000", "2000/0"), income("80000", "0"), "0.00", "", "0.00", "0"},
		// 123.49 × 24% = 29.6376: rounded down to 29.63.
		{"tax_rounded_down_to_the_penny", gains(2025, "0", "3123.49/0"), income("90000", "0"), "0.00",
			"2025-04-06 0.24×123.49=29.63", "29.63", "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Compute(c.g, c.in)
			if got := p.BasicRateBandUnused.String(); got != c.unused {
				t.Errorf("unused band = %s, want %s", got, c.unused)
			}
			if got := chargeList(p); got != c.charges {
				t.Errorf("charges:\n got %s\nwant %s", got, c.charges)
			}
			if got := p.Total.String(); got != c.total {
				t.Errorf("total = %s, want %s", got, c.total)
			}
			var sum decimal.Decimal
			for _, ch := range p.Charges {
				sum = sum.Add(ch.Gain.Exact())
			}
			if !sum.Equal(p.TaxableGain.Exact()) {
				t.Errorf("charges' gains %s != taxable gain %s", sum, p.TaxableGain)
			}
			if got := Adjustment(c.g, c.in); !got.Equal(d(c.adjustment)) {
				t.Errorf("adjustment = %s, want %s", got, c.adjustment)
			}
		})
	}
}

func TestCompute_allocation_shows_what_is_set_against_each_part(t *testing.T) {
	p := Compute(gains(2024, "0", "10000/4000", "10000/0"), income("80000", "0"))
	want := "2024-04-06 10000.00-0.00=10000.00; 2024-10-30 10000.00-7000.00=3000.00"
	var got []string
	for _, a := range p.Allocation {
		got = append(got, fmt.Sprintf("%s %s-%s=%s", a.From, a.Gains, a.Deducted, a.Charged))
	}
	if strings.Join(got, "; ") != want {
		t.Errorf("allocation %q, want %q", got, want)
	}
}

func TestAdjustmentWithoutIncome(t *testing.T) {
	cases := []struct {
		name string
		g    Gains
		ok   bool
	}{
		{"other_year", gains(2023, "0", "50000/0"), true},
		{"nothing_taxable", gains(2024, "0", "1000/0", "1000/0"), true},
		{"no_gain_from_30_october", gains(2024, "0", "50000/0", "0/100"), true},
		{"gain_from_30_october", gains(2024, "0", "0/0", "5000/0"), false},
	}
	for _, c := range cases {
		a, ok := AdjustmentWithoutIncome(c.g)
		if ok != c.ok || !a.IsZero() {
			t.Errorf("%s: %s, %v; want 0, %v", c.name, a, ok, c.ok)
		}
	}
}

// bruteForce is the least tax over every whole-pound split of a taxable gain between two
// parts and every whole-pound use of the band.
func bruteForce(p []Part, taxable, unused int64) decimal.Decimal {
	var best decimal.Decimal
	first := true
	for c1 := int64(0); c1 <= taxable; c1++ {
		c2 := taxable - c1
		if decimal.NewFromInt(c1).GreaterThan(p[0].Gains) || decimal.NewFromInt(c2).GreaterThan(p[1].Gains) {
			continue
		}
		for u1 := int64(0); u1 <= min(c1, unused); u1++ {
			u2 := min(c2, unused-u1)
			tax := decimal.Zero
			for _, ch := range append(charges(p[0], decimal.NewFromInt(c1), decimal.NewFromInt(u1)), charges(p[1], decimal.NewFromInt(c2), decimal.NewFromInt(u2))...) {
				tax = tax.Add(ch.Tax.Exact())
			}
			if first || tax.LessThan(best) {
				best, first = tax, false
			}
		}
	}
	return best
}

func TestAllocate_is_the_least_tax_over_every_allocation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 400; i++ {
		g := gains([]int{2010, 2024}[i%2], "0", fmt.Sprintf("%d/0", r.IntN(120)), fmt.Sprintf("%d/0", r.IntN(120)))
		total := g.Parts[0].Gains.Add(g.Parts[1].Gains).IntPart()
		taxable := r.Int64N(total + 1)
		unused := r.Int64N(150)
		got := allocate(g.Parts, decimal.NewFromInt(taxable), decimal.NewFromInt(unused)).tax
		if want := bruteForce(g.Parts, taxable, unused); !got.Equal(want) {
			t.Fatalf("%s gains %s and %s, taxable %d, band %d: allocate %s, brute force %s",
				g.Year, g.Parts[0].Gains, g.Parts[1].Gains, taxable, unused, got, want)
		}
	}
}

func TestCompute_never_negative_and_monotone_in_gains_and_income(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 2000; i++ {
		start := taxyear.First + r.IntN(taxyear.LastKnown-taxyear.First+1)
		parts := []string{fmt.Sprintf("%d.%02d/%d", r.IntN(60000), r.IntN(100), r.IntN(20000)),
			fmt.Sprintf("%d/%d.%02d", r.IntN(60000), r.IntN(20000), r.IntN(100))}
		g := gains(start, fmt.Sprint(r.IntN(5000)), parts...)
		in := income(fmt.Sprint(r.IntN(80000)), fmt.Sprint(r.IntN(3)*1000))
		base := Compute(g, in).Total.Exact()
		if base.Sign() < 0 {
			t.Fatalf("%s: negative tax %s", g.Year, base)
		}
		// more income: no less tax
		richer := in
		richer.TaxableIncome = in.TaxableIncome.Add(decimal.NewFromInt(int64(1 + r.IntN(20000))))
		if t2 := Compute(g, richer).Total.Exact(); t2.LessThan(base) {
			t.Fatalf("%s: income %s→%s lowered tax %s→%s", g.Year, in.TaxableIncome, richer.TaxableIncome, base, t2)
		}
		// more gain in either part: no less tax
		k := r.IntN(len(g.Parts))
		more := g
		more.Parts = append([]Part(nil), g.Parts...)
		more.Parts[k].Gains = more.Parts[k].Gains.Add(decimal.NewFromInt(int64(1 + r.IntN(20000))))
		if t2 := Compute(more, in).Total.Exact(); t2.LessThan(base) {
			t.Fatalf("%s: more gain in part %d lowered tax %s→%s", g.Year, k, base, t2)
		}
		if a := Adjustment(g, in); a.Sign() < 0 {
			t.Fatalf("%s: negative adjustment %s", g.Year, a)
		}
	}
}

func TestEvery_year_has_at_most_two_rate_periods(t *testing.T) {
	for start := taxyear.First; start <= taxyear.LastKnown+3; start++ {
		if n := len((taxyear.Year{Start: start}).RatePeriods()); n > 2 {
			t.Errorf("%d/%d has %d rate periods; allocate handles two", start, start+1, n)
		}
	}
}

func TestBoxes(t *testing.T) {
	adj := d("480")
	f := Figures{Disposals: 3, Proceeds: d("50000.99"), Costs: d("20000.01"), Gains: d("30000.50"), Losses: d("0.01"),
		LossesUsed: d("100.10"), LossesCarriedForward: d("5.99"), Adjustment: &adj}
	boxes, note := Boxes(taxyear.Year{Start: 2024}, f)
	var got []string
	for _, b := range boxes {
		got = append(got, b.Box+"="+b.Value)
	}
	want := "23=3 24=50000 25=20001 26=30000 27=1 45=101 47=6 51=480.00" // every loss box rounds up
	if strings.Join(got, " ") != want {
		t.Errorf("2024/25 boxes %q, want %q", strings.Join(got, " "), want)
	}
	if !strings.Contains(note, "SA108 2025") || !strings.Contains(note, "box 54") {
		t.Errorf("note %q", note)
	}
	boxes, note = Boxes(taxyear.Year{Start: 2019}, Figures{})
	if boxes[0].Box != "" || len(boxes) != 7 || !strings.Contains(note, "not confirmed") {
		t.Errorf("2019/20 boxes %+v %q", boxes, note)
	}
	f.Adjustment = nil
	boxes, note = Boxes(taxyear.Year{Start: 2024}, f)
	if last := boxes[len(boxes)-1]; last.Box != "51" || last.Value != "" || !strings.Contains(note, "taxable_income") {
		t.Errorf("2024/25 box 51 without income %+v %q", last, note)
	}
	if boxes, _ := Boxes(taxyear.Year{Start: 2023}, f); boxes[len(boxes)-1].Box == "51" {
		t.Error("box 51 outside 2024/25")
	}
}
