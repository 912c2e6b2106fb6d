package engine

import (
	"sort"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// HoldingsAt returns each ticker's Section 104 pool at the end of date d, from the pool
// history. The pool is the one the identification rules settled on: shares a disposal
// identified with an acquisition up to 30 days later are still in the pool until that
// acquisition, so within such a window the pool can exceed the shares actually held.
func (r *Report) HoldingsAt(d model.Date) []Holding {
	out := []Holding{}
	for _, p := range r.Pools {
		ev := p.Events
		n := sort.Search(len(ev), func(i int) bool { return ev[i].Date > d })
		if n == 0 {
			continue
		}
		last := ev[n-1]
		if last.Quantity.Sign() > 0 {
			out = append(out, holding(p.Ticker, last.Quantity.Exact(), last.Cost.Exact()))
		}
	}
	return out
}

// Year is the report's entry for tax year y, or that year with zero totals and the losses
// carried into it when the report has no entry for it.
func (r *Report) Year(y taxyear.Year) TaxYear {
	for _, ty := range r.TaxYears {
		if ty.Period == y.Period() {
			return ty
		}
	}
	zero := model.NewMoney(decimal.Zero)
	carried := r.CarriedInto(y)
	ty := TaxYear{Period: y.Period(), StartDate: y.StartDate(), EndDate: y.EndDate(),
		Proceeds: zero, AllowableCosts: zero, Gains: zero, Losses: zero, NetGain: zero,
		AnnualExemptAmount: model.NewMoney(y.AnnualExemptAmount()), LossesBroughtForward: carried,
		LossesUsed: zero, LossesCarriedForward: carried, TaxableGain: zero,
		SA108:     SA108{DisposalProceeds: zero, AllowableCosts: zero, GainsBeforeLosses: zero, LossesInYear: zero},
		Dividends: Dividends{Income: zero, TaxPaid: zero, Accumulations: zero, UKIncome: zero, ForeignIncome: zero, ForeignTaxPaid: zero},
		Disposals: []Disposal{}}
	for _, p := range y.RatePeriods() {
		ty.RatePeriods = append(ty.RatePeriods, RatePeriodResult{RatePart: p.Part(),
			Proceeds: zero, Gains: zero, Losses: zero, NetGain: zero})
	}
	return ty
}

// CarriedInto is the losses available at the start of tax year y: what the last earlier year
// of the report carried forward, or the losses brought into the ledger.
func (r *Report) CarriedInto(y taxyear.Year) model.Money {
	carried := r.LossesBroughtForward
	for _, ty := range r.TaxYears {
		if ty.StartDate < y.StartDate() {
			carried = ty.LossesCarriedForward
		}
	}
	return carried
}
