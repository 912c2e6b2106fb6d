package engine

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
)

// What a report leaves out for a summary, and the warnings it carries about the figures a
// person gave (income) or must act on (the reporting threshold, a year with nothing in it).

// Summarize leaves out what a summary does not show: the disposals (unless kept), every
// disposal's matches, the pools, holdings and excluded transactions. The lists stay present
// and empty, so the report keeps its shape.
func (rep *Report) Summarize(keepDisposals bool) {
	for i := range rep.TaxYears {
		ty := &rep.TaxYears[i]
		if !keepDisposals {
			ty.Disposals = []Disposal{}
			continue
		}
		for j := range ty.Disposals {
			ty.Disposals[j].Matches = []Match{}
		}
	}
	if !keepDisposals {
		rep.ExemptDisposals, rep.OffshoreIncomeGains, rep.NoGainNoLoss = nil, nil, nil
	}
	for _, ds := range [][]Disposal{rep.ExemptDisposals, rep.OffshoreIncomeGains, rep.NoGainNoLoss} {
		for j := range ds {
			ds[j].Matches = []Match{}
		}
	}
	rep.Holdings, rep.Pools, rep.Excluded = []Holding{}, []PoolHistory{}, nil
}

// IncomeWarnings say what to pass when the tax could not be worked out, and which years the
// taxable income and the band extension given (either may be nil) name that the report has no
// figures for.
func (rep *Report) IncomeWarnings(taxable, extension *tax.Amounts) []string {
	var out []string
	if taxable == nil {
		if extension != nil {
			out = append(out, "basic_band_extension is used only with taxable_income, which was not given.")
		}
		for _, ty := range rep.TaxYears {
			// Only where there is tax to work out: with no taxable gain the tax is nil
			// whatever the income, and the note would be a general notice on every answer.
			if ty.TaxableGain.Exact().IsPositive() {
				out = append(out, "tax payable not worked out: give taxable_income (income after allowances, e.g. 52000, or per year 2023:52000,2024:60000) for the tax payable and the 2024/25 box 51 figure.")
				break
			}
		}
		return out
	}
	reported := map[int]bool{}
	for _, ty := range rep.TaxYears {
		y := taxyear.For(ty.StartDate)
		reported[y.Start] = true
		if ty.Tax == nil {
			out = append(out, fmt.Sprintf("taxable_income gives no amount for %s, so its tax is null: add %d:AMOUNT.", y.Period(), y.Start))
		}
	}
	for _, r := range []struct {
		name string
		a    *tax.Amounts
	}{{"taxable_income", taxable}, {"basic_band_extension", extension}} {
		for _, start := range r.a.Years() {
			if !reported[start] {
				out = append(out, fmt.Sprintf("%s names %s, which this report has no figures for; it is not used.", r.name, taxyear.Year{Start: start}.Period()))
			}
		}
	}
	return out
}

// ProceedsWarnings name each year whose disposal proceeds are over the amount above which the
// disposals must be reported even without a gain: £50,000 from 2023/24, four times the annual
// exempt amount before.
func (rep *Report) ProceedsWarnings() []string {
	var out []string
	for _, ty := range rep.TaxYears {
		y := taxyear.For(ty.StartDate)
		limit := y.ReportingThreshold()
		if ty.Proceeds.Exact().LessThanOrEqual(limit) {
			continue
		}
		rule := "over £50,000"
		if y.Start < 2023 {
			rule = "over four times the annual exempt amount (£" + model.Grouped(limit) + ")"
		}
		out = append(out, fmt.Sprintf("%s: disposal proceeds of £%s are %s, so the disposals must be reported on the SA108 capital gains pages even if no tax is due.",
			y.Period(), model.Grouped(ty.Proceeds.Exact()), rule))
	}
	return out
}

// EmptyYearWarning says so when the year asked for (as the person wrote it) has nothing in it
// (no disposal, no dividend), naming the years that have: zero totals for a mistyped year look
// like a clean bill.
func (rep *Report) EmptyYearWarning(y taxyear.Year, asked string) []string {
	var with []string
	for _, ty := range rep.TaxYears {
		if ty.Period == y.Period() {
			return nil
		}
		with = append(with, ty.Period)
	}
	other := 0
	for _, p := range rep.Pools {
		for _, ev := range p.Events {
			if ev.Date >= y.StartDate() && ev.Date <= y.EndDate() {
				other++
			}
		}
	}
	msg := fmt.Sprintf("year=%s: the ledger has no disposals or dividends in %s (%s to %s), so its figures are all zero", asked,
		y.Period(), y.StartDate(), y.EndDate())
	if other == 1 {
		msg += "; it has 1 other change to a holding then (purchases, splits), which give no figures of their own"
	} else if other > 1 {
		msg += fmt.Sprintf("; it has %d other changes to a holding then (purchases, splits), which give no figures of their own", other)
	}
	if len(with) == 0 {
		return []string{msg + ". No tax year of the ledger has a disposal or a dividend."}
	}
	return []string{msg + ". Tax years with disposals or dividends: " + strings.Join(with, ", ") + "."}
}
