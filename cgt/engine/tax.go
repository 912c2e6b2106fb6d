package engine

import (
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// IncomeFunc gives the taxpayer's income for a tax year, or nil when it is not known; the
// year's tax is then left null.
type IncomeFunc func(taxyear.Year) *tax.Income

// ApplyTax fills a tax year's tax payable (null without income), its SA108 box 51 adjustment
// and its SA108 boxes, from the year's figures. It is idempotent: a year can be filled again
// with other income.
func ApplyTax(y *TaxYear, in *tax.Income) {
	ty := taxyear.For(y.StartDate)
	g := tax.Gains{Year: ty, LossesUsed: y.LossesUsed.Exact()}
	for _, p := range y.RatePeriods {
		g.Parts = append(g.Parts, tax.Part{From: p.From, To: p.To, Basic: p.Basic.Exact(), Higher: p.Higher.Exact(),
			Gains: p.Gains.Exact(), Losses: p.Losses.Exact()})
	}
	y.Tax = nil
	var adj *decimal.Decimal
	if in != nil {
		p := tax.Compute(g, *in)
		y.Tax = &p
		a := tax.Adjustment(g, *in)
		adj = &a
	} else if a, ok := tax.AdjustmentWithoutIncome(g); ok {
		adj = &a
	}
	y.SA108.Adjustment = nil
	if adj != nil {
		m := model.NewMoney(*adj)
		y.SA108.Adjustment = &m
	}
	y.SA108.Boxes, y.SA108.BoxesNote = tax.Boxes(ty, tax.Figures{
		Disposals: y.SA108.NumberOfDisposals, Proceeds: y.SA108.DisposalProceeds.Exact(),
		Costs: y.SA108.AllowableCosts.Exact(), Gains: y.SA108.GainsBeforeLosses.Exact(),
		Losses: y.SA108.LossesInYear.Exact(), LossesUsed: y.LossesUsed.Exact(),
		LossesCarriedForward: y.LossesCarriedForward.Exact(), Adjustment: adj,
	})
}
