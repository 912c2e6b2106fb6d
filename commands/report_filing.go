package commands

import (
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
)

// filingView is a report's summary (and disposals) detail as the dense formats write it:
// per tax year what goes on the return — the totals, the SA108 boxes, the gains before and
// after a change of rates within the year, the tax due and the rate each part of it is
// charged at — and none of what a filer does not enter (the year's
// dates, the references of the rates, the tax's allocation and legislation, the
// form's note, a year's dividends when it has none, the SA108 figures in pence beside the
// boxes). The JSON result keeps everything; detail full writes every record.
type filingView struct {
	ledger    string
	TaxYears  []filingYear      `json:"tax_years" record:"rows=tax_year"`
	Exempt    []engine.Disposal `json:"exempt_disposals,omitempty" record:"rows=exempt_disposal"`
	Offshore  []engine.Disposal `json:"offshore_income_gains,omitempty" record:"rows=offshore_income_gain"`
	NoGainNoL []engine.Disposal `json:"no_gain_no_loss,omitempty" record:"rows=no_gain_no_loss"`
}

// RecordEntity names the view's records that belong to no ticker: the ledger's.
func (v filingView) RecordEntity() string { return v.ledger }

// filingYear is one tax year of the filing view.
type filingYear struct {
	Period               string            `json:"period" record:"period"`
	DisposalCount        int               `json:"disposal_count"`
	Proceeds             model.Money       `json:"proceeds"`
	AllowableCosts       model.Money       `json:"allowable_costs"`
	Gains                model.Money       `json:"gains"`
	Losses               model.Money       `json:"losses"`
	NetGain              model.Money       `json:"net_gain"`
	AnnualExemptAmount   model.Money       `json:"annual_exempt_amount"`
	LossesBroughtForward model.Money       `json:"losses_brought_forward"`
	LossesUsed           model.Money       `json:"losses_used"`
	LossesCarriedForward model.Money       `json:"losses_carried_forward"`
	TaxableGain          model.Money       `json:"taxable_gain"`
	SA108                filingBoxes       `json:"sa108"`
	TaxDue               *model.Money      `json:"tax_due,omitempty"`
	Dividends            *engine.Dividends `json:"dividends,omitempty"`
	Parts                []filingPart      `json:"parts,omitempty" record:"rows=rate_period"`
	Charges              []tax.Charge      `json:"charges,omitempty" record:"rows=tax_charge"`
	Disposals            []engine.Disposal `json:"disposals,omitempty" record:"rows=disposal"`
}

// filingPart is a part of a year whose CGT rates changed within it (2024/25 from 30 October
// 2024): the gains in each part are what the box 51 adjustment is worked from, and what
// HMRC asks to be given with it.
type filingPart struct {
	_ model.NotComparable

	From    model.Date  `json:"from" record:"timestamp"`
	To      model.Date  `json:"to"`
	Gains   model.Money `json:"gains"`
	Losses  model.Money `json:"losses"`
	NetGain model.Money `json:"net_gain"`
}

// filingBoxes are the SA108 boxes, each written as a field of its own (sa108.box24=41714).
type filingBoxes struct {
	Boxes []tax.Box `json:"boxes"`
}

// newFilingView is the filing view of a report already summarized.
func newFilingView(rep *engine.Report, ledger string) filingView {
	v := filingView{ledger: ledger, Exempt: rep.ExemptDisposals, Offshore: rep.OffshoreIncomeGains, NoGainNoL: rep.NoGainNoLoss,
		TaxYears: make([]filingYear, len(rep.TaxYears))}
	for i := range rep.TaxYears {
		ty := &rep.TaxYears[i]
		fy := filingYear{Period: ty.Period, DisposalCount: ty.DisposalCount, Proceeds: ty.Proceeds, AllowableCosts: ty.AllowableCosts,
			Gains: ty.Gains, Losses: ty.Losses, NetGain: ty.NetGain, AnnualExemptAmount: ty.AnnualExemptAmount,
			LossesBroughtForward: ty.LossesBroughtForward, LossesUsed: ty.LossesUsed, LossesCarriedForward: ty.LossesCarriedForward,
			TaxableGain: ty.TaxableGain, SA108: filingBoxes{Boxes: ty.SA108.Boxes}, Disposals: ty.Disposals}
		if len(ty.RatePeriods) > 1 {
			for _, p := range ty.RatePeriods {
				fy.Parts = append(fy.Parts, filingPart{From: p.From, To: p.To, Gains: p.Gains, Losses: p.Losses, NetGain: p.NetGain})
			}
		}
		if ty.Tax != nil {
			total := ty.Tax.Total
			fy.TaxDue, fy.Charges = &total, ty.Tax.Charges
		}
		if ty.Dividends.Count > 0 || !ty.Dividends.Accumulations.Exact().IsZero() || !ty.Dividends.ERI.Exact().IsZero() {
			d := ty.Dividends
			fy.Dividends = &d
		}
		v.TaxYears[i] = fy
	}
	return v
}
