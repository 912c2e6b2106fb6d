// Package tax works out the Capital Gains Tax payable on a tax year's gains from shares, given
// the taxpayer's taxable income, and the 2024/25 SA108 box 51 adjustment.
//
// The rules (TCGA 1992 s1H–s1J, and s1F for losses and the annual exempt amount; s4, s4B and
// s4BA before 2019/20): gains within the unused part of the basic rate band are charged at the
// lower rate and the rest at the higher rate; allowable losses and the annual exempt amount
// may be set against gains in the way that is most beneficial to the taxpayer, and so may the
// unused band when gains carry different rates. This package finds that allocation exactly.
// It does no I/O and imports nothing outside the domain.
package tax

import (
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// Income is what the tax on a year's gains depends on besides the gains.
type Income struct {
	// TaxableIncome is the income chargeable to income tax after allowances and reliefs
	// (TCGA 1992 s1J's "Step 3 income"): the personal allowance is already deducted.
	TaxableIncome decimal.Decimal
	// BandExtension is the gross Gift Aid donations plus gross relief-at-source pension
	// contributions of the year, which extend the basic rate band (ITA 2007 s414(2), FA 2004
	// s192(4)).
	BandExtension decimal.Decimal
}

// Part is the gains of one part of a tax year over which one pair of rates applied.
type Part struct {
	_ model.NotComparable

	From, To      model.Date
	Basic, Higher decimal.Decimal // rates as fractions
	Gains         decimal.Decimal // gains of the part's disposals with a gain
	Losses        decimal.Decimal // losses of the part's disposals with a loss, positive
}

// Gains are the figures of one tax year that the tax is charged on.
type Gains struct {
	Year  taxyear.Year
	Parts []Part // in date order, covering the year; at most two
	// LossesUsed is the brought-forward losses set against the year's gains.
	LossesUsed decimal.Decimal
}

// Payable is the tax on a year's gains and how it was reached.
type Payable struct {
	TaxableIncome       model.Money  `json:"taxable_income" jsonschema_description:"Income chargeable to income tax after allowances, as given (GBP)"`
	BasicBandExtension  model.Money  `json:"basic_band_extension" jsonschema_description:"Gross Gift Aid and relief-at-source pension contributions extending the basic rate band, as given (GBP)"`
	BasicRateLimit      model.Money  `json:"basic_rate_limit" jsonschema_description:"The year's UK basic rate limit (ITA 2007 s10), which CGT uses for every taxpayer, Scottish taxpayers included (GBP)"`
	BasicRateBand       model.Money  `json:"basic_rate_band" jsonschema_description:"basic_rate_limit plus basic_band_extension (GBP)"`
	BasicRateBandUnused model.Money  `json:"basic_rate_band_unused" jsonschema_description:"basic_rate_band minus taxable_income, not below zero: the gains charged at the lower rate (TCGA 1992 s1I, s1J) (GBP)"`
	TaxableGain         model.Money  `json:"taxable_gain" jsonschema_description:"Gains less losses, losses brought forward used and the annual exempt amount: the total of the charges' gains (GBP)"`
	Allocation          []Allocation `json:"allocation" jsonschema_description:"Per part of the year with one pair of rates: its gains, the losses and annual exempt amount set against them, and what is charged" record:"rows=tax_allocation"`
	Charges             []Charge     `json:"charges" jsonschema_description:"The gains charged at each rate, by part of the year; only charges with a gain are listed" record:"rows=tax_charge"`
	Total               model.Money  `json:"total" jsonschema_description:"Capital Gains Tax payable on the year's gains: the sum of the charges' tax (GBP)"`
	Reference           string       `json:"reference" jsonschema_description:"Legislation behind the calculation"`
}

// Allocation is what is set against one part's gains.
type Allocation struct {
	_ model.NotComparable

	From     model.Date  `json:"from" jsonschema_description:"First day of the part" record:"timestamp"`
	To       model.Date  `json:"to" jsonschema_description:"Last day of the part"`
	Gains    model.Money `json:"gains" jsonschema_description:"Gains of the part's disposals with a gain (GBP)"`
	Deducted model.Money `json:"deducted" jsonschema_description:"In-year losses, losses brought forward and annual exempt amount set against the part's gains, where they save most tax (GBP)"`
	Charged  model.Money `json:"charged" jsonschema_description:"gains minus deducted: the part's gains charged to tax (GBP)"`
}

// Charge is the gains of one part of the year charged at one rate.
type Charge struct {
	_ model.NotComparable

	From model.Date    `json:"from" jsonschema_description:"First day of the part of the year" record:"timestamp"`
	To   model.Date    `json:"to" jsonschema_description:"Last day of the part of the year"`
	Rate model.Decimal `json:"rate" jsonschema_description:"Rate as a fraction (0.24 = 24%)"`
	Gain model.Money   `json:"gain" jsonschema_description:"Gains charged at the rate (GBP)"`
	Tax  model.Money   `json:"tax" jsonschema_description:"gain × rate, rounded down to the penny (GBP)"`
}

// Reference is the legislation the calculation follows.
const Reference = "TCGA 1992 s1H (rates), s1I and s1J (lower rate within the unused basic rate band), s1F (losses and the annual exempt amount set where most beneficial); before 2019/20 s4, s4B and s4BA; Finance Act 2025 s7 and Sch 1 (18% and 24% from 30 October 2024)"

// result is an allocation of a year's taxable gain between its parts and the basic rate band.
type result struct {
	charged []decimal.Decimal // per part
	inBand  []decimal.Decimal // per part, within the unused basic rate band
	tax     decimal.Decimal   // sum of the charges' tax, each rounded down to the penny
}

// Compute works out the tax on the year's gains for a taxpayer with the given income.
func Compute(g Gains, in Income) Payable {
	limit := g.Year.BasicRateLimit()
	band := limit.Add(in.BandExtension)
	unused := positive(band.Sub(in.TaxableIncome))
	taxable := taxableGain(g)
	r := allocate(g.Parts, taxable, unused)
	p := Payable{
		TaxableIncome: model.NewMoney(in.TaxableIncome), BasicBandExtension: model.NewMoney(in.BandExtension),
		BasicRateLimit: model.NewMoney(limit), BasicRateBand: model.NewMoney(band),
		BasicRateBandUnused: model.NewMoney(unused), TaxableGain: model.NewMoney(taxable),
		Allocation: []Allocation{}, Charges: []Charge{}, Total: model.NewMoney(r.tax), Reference: Reference,
	}
	for i, part := range g.Parts {
		p.Allocation = append(p.Allocation, Allocation{From: part.From, To: part.To, Gains: model.NewMoney(part.Gains),
			Deducted: model.NewMoney(part.Gains.Sub(r.charged[i])), Charged: model.NewMoney(r.charged[i])})
		p.Charges = append(p.Charges, charges(part, r.charged[i], r.inBand[i])...)
	}
	return p
}

// Adjustment is the 2024/25 SA108 box 51 figure: the tax on the year's gains at the rates in
// force on each disposal's date, minus the tax the return's own calculation charges, which
// applies the rates before 30 October 2024 (10% and 20%) to all of the year's gains with the
// same unused band. It is zero in every other year: their returns charge the right rates.
func Adjustment(g Gains, in Income) decimal.Decimal {
	if !needsAdjustment(g) {
		return decimal.Zero
	}
	right := Compute(g, in).Total.Exact()
	// The return sees the year as one: its totals at the first part's rates, one charge per rate.
	whole := Part{From: g.Year.StartDate(), To: g.Year.EndDate(), Basic: g.Parts[0].Basic, Higher: g.Parts[0].Higher}
	for _, p := range g.Parts {
		whole.Gains, whole.Losses = whole.Gains.Add(p.Gains), whole.Losses.Add(p.Losses)
	}
	return right.Sub(Compute(Gains{Year: g.Year, Parts: []Part{whole}, LossesUsed: g.LossesUsed}, in).Total.Exact())
}

// AdjustmentWithoutIncome is the box 51 figure when it does not depend on the taxpayer's
// income: zero outside 2024/25, when nothing is taxable, or when no gain accrued on or after
// 30 October 2024. ok is false when the income is needed.
func AdjustmentWithoutIncome(g Gains) (decimal.Decimal, bool) {
	if !needsAdjustment(g) || taxableGain(g).Sign() == 0 {
		return decimal.Zero, true
	}
	for _, p := range g.Parts[1:] {
		if p.Gains.Sign() > 0 {
			return decimal.Zero, false
		}
	}
	return decimal.Zero, true
}

// needsAdjustment reports whether the year's return charges some gains at the wrong rates:
// only 2024/25, whose SA108 was printed before the rates changed on 30 October 2024.
func needsAdjustment(g Gains) bool { return g.Year.Start == 2024 && len(g.Parts) > 1 }

// taxableGain is the year's gains less in-year losses, the brought-forward losses used and the
// annual exempt amount, not below zero.
func taxableGain(g Gains) decimal.Decimal {
	net := g.LossesUsed.Neg().Sub(g.Year.AnnualExemptAmount())
	for _, p := range g.Parts {
		net = net.Add(p.Gains).Sub(p.Losses)
	}
	return positive(net)
}

// allocate finds the charged gains per part and their use of the band that give the least
// tax. With one part it is direct. With two, the tax as a function of the gain charged in the
// first part (the second takes the rest) is piecewise linear with its corners where the
// first part's charge reaches the unused band or leaves exactly the band to the second, so
// the least tax is at one of those corners or at an end of the range; each is tried.
func allocate(parts []Part, taxable, unused decimal.Decimal) result {
	switch len(parts) {
	case 0:
		return result{}
	case 1:
		return placeBand(parts, []decimal.Decimal{taxable}, unused)
	}
	// Parts after the second never occur (a year has at most two rate periods); they are
	// charged nothing, which taxableGain and the caller's figures would show.
	g1, g2 := parts[0].Gains, parts[1].Gains
	lo := positive(taxable.Sub(g2))
	hi := decimal.Min(g1, taxable)
	clamp := func(d decimal.Decimal) decimal.Decimal { return decimal.Max(lo, decimal.Min(hi, d)) }
	// Ties go to the first candidate: the most charged in the earlier part, so losses and the
	// exempt amount go against the later gains.
	candidates := []decimal.Decimal{hi, lo, clamp(unused), clamp(taxable.Sub(unused))}
	var best result
	for i, c1 := range candidates {
		charged := make([]decimal.Decimal, len(parts))
		charged[0], charged[1] = c1, taxable.Sub(c1)
		for k := 2; k < len(parts); k++ {
			charged[k] = decimal.Zero
		}
		r := placeBand(parts, charged, unused)
		if i == 0 || r.tax.LessThan(best.tax) {
			best = r
		}
	}
	return best
}

// placeBand puts the unused band against the charged gains where it saves most (the largest
// difference between higher and basic rate first; the earlier part on a tie) and works out
// the tax.
func placeBand(parts []Part, charged []decimal.Decimal, unused decimal.Decimal) result {
	r := result{charged: charged, inBand: make([]decimal.Decimal, len(parts))}
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	saving := func(i int) decimal.Decimal { return parts[i].Higher.Sub(parts[i].Basic) }
	for i := 1; i < len(order); i++ { // insertion sort: stable, and at most two parts
		for k := i; k > 0 && saving(order[k]).GreaterThan(saving(order[k-1])); k-- {
			order[k], order[k-1] = order[k-1], order[k]
		}
	}
	left := unused
	for _, i := range order {
		r.inBand[i] = decimal.Min(charged[i], left)
		left = left.Sub(r.inBand[i])
	}
	for i, p := range parts {
		for _, c := range charges(p, charged[i], r.inBand[i]) {
			r.tax = r.tax.Add(c.Tax.Exact())
		}
	}
	return r
}

// charges splits a part's charged gain between its two rates; a part with one rate (18% flat
// before 23 June 2010) has one charge.
func charges(p Part, charged, inBand decimal.Decimal) []Charge {
	var out []Charge
	add := func(rate, gain decimal.Decimal) {
		if gain.Sign() <= 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Rate.Exact().Equal(rate) {
			gain = gain.Add(out[n-1].Gain.Exact())
			out = out[:n-1]
		}
		out = append(out, Charge{From: p.From, To: p.To, Rate: model.NewDecimal(rate), Gain: model.NewMoney(gain),
			Tax: model.NewMoney(gain.Mul(rate).RoundFloor(model.MoneyPlaces))})
	}
	add(p.Basic, inBand)
	add(p.Higher, charged.Sub(inBand))
	return out
}

func positive(d decimal.Decimal) decimal.Decimal {
	if d.Sign() < 0 {
		return decimal.Zero
	}
	return d
}
