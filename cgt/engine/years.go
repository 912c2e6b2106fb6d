package engine

import (
	"cmp"
	"runtime"
	"slices"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/shopspring/decimal"
)

// yearBuild collects one tax year while the report is assembled.
type yearBuild struct {
	year      taxyear.Year
	disposals []Disposal // the year's part of the report's disposals
	incomes   []*income
}

// taxYears groups disposals and dividends into tax years, totals them and applies losses.
// It returns the years in date order and the losses left to carry forward at the end.
func taxYears(results []tickerResult, disposals []Disposal, broughtForward decimal.Decimal) ([]TaxYear, model.Money) {
	builds := collectYears(results, disposals)
	out := totalYears(builds, len(disposals))
	bf := broughtForward
	for k := range out { // losses carried forward pass from each year to the next, in order
		bf = applyLosses(&out[k], builds[k].year, bf)
	}
	return out, model.NewMoney(bf)
}

// collectYears divides the disposals, already in date-then-ticker order (see placement),
// into tax years, and sorts every income by date into its tax year.
func collectYears(results []tickerResult, disposals []Disposal) []*yearBuild {
	is := incomesByDate(results)
	var builds []*yearBuild
	find := func(d model.Date) *yearBuild {
		for _, b := range builds {
			if d >= b.year.StartDate() && d <= b.year.EndDate() {
				return b
			}
		}
		b := &yearBuild{year: taxyear.For(d)}
		builds = append(builds, b)
		return b
	}
	for lo := 0; lo < len(disposals); {
		b := find(disposals[lo].Date)
		// found by a search, not a walk: a large year is a million rows
		hi := lo + sortedUntil(disposals[lo:], b.year.EndDate())
		b.disposals = disposals[lo:hi:hi] // capacity ends with the year: appending cannot reach the next
		lo = hi
	}
	var cur *yearBuild
	for _, in := range is {
		if cur == nil || in.date > cur.year.EndDate() || in.date < cur.year.StartDate() {
			cur = find(in.date)
		}
		cur.incomes = append(cur.incomes, in)
	}
	order.Hot(builds, func(a, b *yearBuild) int { return cmp.Compare(a.year.StartDate(), b.year.StartDate()) })
	return builds
}

// incomesByDate lists every ticker's in-scope incomes by date; incomes of one date keep the
// ticker order, then their own.
func incomesByDate(results []tickerResult) []*income {
	type placed struct {
		in        *income
		ticker, k int
	}
	var ps []placed
	for i := range results {
		for k := range results[i].incomes {
			if taxyear.InScope(results[i].incomes[k].date) {
				ps = append(ps, placed{&results[i].incomes[k], i, k})
			}
		}
	}
	// date, then ticker, then position: the order a stable sort by date of the list as built
	// gives, at the cost of an unstable sort
	order.Sort(ps, func(a, b placed) int {
		if c := cmp.Compare(a.in.date, b.in.date); c != 0 {
			return c
		}
		if c := cmp.Compare(a.ticker, b.ticker); c != 0 {
			return c
		}
		return cmp.Compare(a.k, b.k)
	})
	out := make([]*income, len(ps))
	for i, p := range ps {
		out[i] = p.in
	}
	return out
}

// totals are the summed rounded figures of a set of disposals.
type totals struct {
	_ model.NotComparable

	count                          int
	proceeds, costs, gains, losses num
}

// add adds one disposal's figures, each rounded to pence first so that the totals equal the
// sum of the figures the report shows.
func (t *totals) add(d *Disposal) {
	t.count++
	t.proceeds = addNZ(t.proceeds, pence(d.Proceeds))
	t.costs = addNZ(t.costs, pence(d.AllowableCost))
	if g := pence(d.Gain); g.sign() >= 0 {
		t.gains = addNZ(t.gains, g)
	} else {
		t.losses = t.losses.sub(g)
	}
}

// pence is a reported figure rounded to 2 decimal places, as the report writes it.
func pence(m model.Money) num {
	return numOfMoney(m).round(model.MoneyPlaces)
}

// plus adds two sets of totals.
func (t totals) plus(o totals) totals {
	return totals{count: t.count + o.count, proceeds: addNZ(t.proceeds, o.proceeds), costs: addNZ(t.costs, o.costs),
		gains: addNZ(t.gains, o.gains), losses: addNZ(t.losses, o.losses)}
}

// totalYear fills a tax year's figures from its disposals and incomes. The rate periods
// partition the year, so the year's totals are the sum of theirs.
func totalYear(b *yearBuild) TaxYear {
	y := TaxYear{
		Period:             b.year.Period(),
		StartDate:          b.year.StartDate(),
		EndDate:            b.year.EndDate(),
		AnnualExemptAmount: model.NewMoney(b.year.AnnualExemptAmount()),
		Disposals:          b.disposals,
		RatePeriods:        []RatePeriodResult{},
	}
	if y.Disposals == nil {
		y.Disposals = []Disposal{}
	}
	var all totals
	y.RatePeriods, all = ratePeriods(b)
	y.DisposalCount = all.count
	y.Proceeds, y.AllowableCosts = all.proceeds.money(), all.costs.money()
	y.Gains, y.Losses = all.gains.money(), all.losses.money()
	y.NetGain = all.gains.sub(all.losses).money()
	y.SA108 = SA108{NumberOfDisposals: all.count, DisposalProceeds: y.Proceeds, AllowableCosts: y.AllowableCosts,
		GainsBeforeLosses: y.Gains, LossesInYear: y.Losses}
	y.Dividends = dividends(b.incomes)
	y.Income = incomeBoxes(b.incomes)
	return y
}

// ratePeriods splits the year's disposals (in date order) by the parts of the year with one
// pair of rates, and returns the parts with the year's totals.
func ratePeriods(b *yearBuild) ([]RatePeriodResult, totals) {
	periods := b.year.RatePeriods()
	out := make([]RatePeriodResult, 0, len(periods))
	var all totals
	k := 0
	for _, p := range periods {
		end := k + sortedUntil(b.disposals[k:], p.To)
		t := sum(b.disposals[k:end])
		k = end
		all = all.plus(t)
		out = append(out, RatePeriodResult{
			RatePart: p.Part(), DisposalCount: t.count, Proceeds: t.proceeds.money(),
			Gains: t.gains.money(), Losses: t.losses.money(),
			NetGain: t.gains.sub(t.losses).money(),
		})
	}
	// a day outside every rate period still counts in the year
	return out, all.plus(sum(b.disposals[k:]))
}

// sortedUntil is how many of ds, which are in date order, fall on or before last.
func sortedUntil(ds []Disposal, last model.Date) int {
	n, _ := slices.BinarySearchFunc(ds, last+1, func(d Disposal, date model.Date) int { return cmp.Compare(d.Date, date) })
	return n
}

// sumParallelMin is the number of disposals below which one goroutine totals them.
const sumParallelMin = 20000

// sum totals a run of disposals, in parts at once when it is long. The figures are exact, so
// the order in which the parts are added does not change a total.
func sum(ds []Disposal) totals {
	parts := 1
	if len(ds) >= sumParallelMin {
		parts = runtime.GOMAXPROCS(0)
	}
	partial := make([]totals, parts)
	fanout.Each(parts, func(w int) {
		for k := len(ds) * w / parts; k < len(ds)*(w+1)/parts; k++ {
			partial[w].add(&ds[k])
		}
	})
	var t totals
	for _, p := range partial {
		t = t.plus(p)
	}
	return t
}

// dividends totals the year's cash dividends and notional (accumulation) distributions.
func dividends(incomes []*income) Dividends {
	var out Dividends
	var inc, tax, acc, uk, foreign, foreignTax, excess num
	for _, in := range incomes {
		if in.eri {
			excess = excess.add(in.amount)
			continue
		}
		if in.accumulation {
			acc = acc.add(in.amount)
			continue
		}
		out.Count++
		inc, tax = inc.add(in.amount), tax.add(in.tax)
		if in.foreign {
			foreign, foreignTax = foreign.add(in.amount), foreignTax.add(in.tax)
		} else {
			uk = uk.add(in.amount)
		}
	}
	out.Income, out.TaxPaid, out.Accumulations = inc.money(), tax.money(), acc.money()
	out.UKIncome, out.ForeignIncome, out.ForeignTaxPaid = uk.money(), foreign.money(), foreignTax.money()
	out.ERI = excess.money()
	return out
}

// applyLosses sets the year's loss and taxable-gain figures from the losses brought forward
// and returns the losses to carry to the next year. In-year losses are already netted in
// NetGain. Brought-forward losses reduce the net gain no lower than the annual exempt amount,
// so that the exempt amount is not wasted; a net loss is added to what carries forward.
func applyLosses(y *TaxYear, ty taxyear.Year, bf decimal.Decimal) decimal.Decimal {
	net := y.NetGain.Exact()
	aea := ty.AnnualExemptAmount()
	used := decimal.Decimal{}
	if excess := net.Sub(aea); excess.Sign() > 0 {
		used = bf
		if excess.Cmp(bf) < 0 {
			used = excess
		}
	}
	taxable := net.Sub(used).Sub(aea)
	if taxable.Sign() < 0 {
		taxable = decimal.Decimal{}
	}
	cf := bf.Sub(used)
	if net.Sign() < 0 {
		cf = cf.Sub(net)
	}
	y.LossesBroughtForward, y.LossesUsed = model.NewMoney(bf), model.NewMoney(used)
	y.LossesCarriedForward, y.TaxableGain = model.NewMoney(cf), model.NewMoney(taxable)
	return cf
}
