// Package plan answers what sales that have not happened would do: each planned sale is
// written as a ledger line, appended to the ledger and run through the engine, so every figure
// is the engine's, with every identification rule, never an estimate beside it. It does no I/O:
// the caller reads the ledger and the rates.
package plan

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
)

// Note is the line every plan result carries: it is a projection, not a record.
const Note = "A projection: the ledger plus sales that have not happened, at the prices given; nothing is written to the ledger."

// File is the name the planned sale lines are read under (cited as plan:N).
const File = "plan"

// linePrefix is the word that the engine's warnings about planned lines start with; those
// warnings are about the plan, not the ledger, and are left out.
const linePrefix = File + " line"

// Figures are a tax year's totals as the engine gives them, with what is left of the annual
// exempt amount.
type Figures struct {
	_ model.NotComparable

	NetGain         model.Money  `json:"net_gain" jsonschema_description:"Gains minus losses of the year's disposals (GBP)."`
	Gains           model.Money  `json:"gains" jsonschema_description:"Gains of the year's disposals with a gain (GBP)."`
	Losses          model.Money  `json:"losses" jsonschema_description:"Losses of the year's disposals with a loss, positive (GBP)."`
	ExemptLeft      model.Money  `json:"exempt_left" jsonschema_description:"Annual exempt amount minus net gain, not below 0 (GBP)."`
	LossesAvailable model.Money  `json:"losses_available" jsonschema_description:"Losses brought forward into the year (GBP)."`
	LossesUsed      model.Money  `json:"losses_used" jsonschema_description:"Brought-forward losses set against the year's gains (GBP)."`
	LossesCarried   model.Money  `json:"losses_carried_forward" jsonschema_description:"Losses left to carry to later years after the year (GBP)."`
	TaxableGain     model.Money  `json:"taxable_gain" jsonschema_description:"Taxable gain of the year (GBP)."`
	Tax             *model.Money `json:"tax,omitempty" jsonschema_description:"Capital Gains Tax of the year, when taxable_income is given (GBP)."`
}

// Planner holds a ledger read once, and runs the engine on it with planned lines appended.
type Planner struct {
	Txns   []model.Transaction
	Opts   engine.Options
	Date   model.Date // the day of the planned sales
	Year   taxyear.Year
	Base   *engine.Report // the ledger as it is
	BaseTY engine.TaxYear // the plan's tax year in Base
	Income *tax.Income    // for the tax, when known

	ids    *engine.Securities // the ledger's identities, read when first needed
	ix     *index             // the ledger by security, built when first needed
	held   []engine.Holding   // Holdings at heldOn
	heldOn model.Date
	heldBy map[string]int // upper-case ticker → position in held
}

// New runs the engine once on the ledger as it is, for a plan dated d in d's tax year.
func New(txns []model.Transaction, opts engine.Options, d model.Date) (*Planner, error) {
	p := &Planner{Txns: txns, Opts: opts, Date: d, Year: taxyear.For(d)}
	rep, err := engine.Calculate(txns, opts)
	if err != nil {
		return nil, err
	}
	p.Base = rep
	p.BaseTY = rep.Year(p.Year)
	return p, nil
}

// SetYear makes the plan about another tax year than the date's.
func (p *Planner) SetYear(y taxyear.Year) {
	p.Year = y
	p.BaseTY = p.Base.Year(y)
}

// context is the calculation's context: never nil.
func (p *Planner) context() context.Context {
	if p.Opts.Context != nil {
		return p.Opts.Context
	}
	return context.Background()
}

// Warnings are the engine's warnings on the ledger, those about the planned lines left out
// (the plan's own notes say what matters).
func (p *Planner) Warnings() []string {
	out := []string{}
	for _, w := range p.Base.Warnings {
		if !strings.HasPrefix(w, linePrefix) {
			out = append(out, w)
		}
	}
	return out
}

// Price is an amount of money per share in a currency (GBX and GBp are pence, read as the
// ledger reads them).
type Price struct {
	_ model.NotComparable

	Amount     decimal.Decimal
	Currency   string
	NoCurrency bool // none was written: read as pounds (see CheckPrice)
}

func (p Price) String() string { return p.Amount.String() + " " + p.Currency }

// Sale is one planned sale: what its ledger line says.
type Sale struct {
	_ model.NotComparable

	Ticker   string
	Quantity decimal.Decimal
	Price    Price
	Fees     *Price
}

// Line writes the sale as a ledger line dated d.
func (s Sale) Line(d model.Date) string {
	l := fmt.Sprintf("%s SELL %s %s @ %s", d, s.Ticker, s.Quantity.String(), s.Price.String())
	if s.Fees != nil {
		l += " FEES " + s.Fees.String()
	}
	return l
}

// Run appends the sales (one ledger line each, dated the plan's date) to the ledger and runs
// the engine: the report, and the tax year of the plan.
func (p *Planner) Run(sales []Sale) (*engine.Report, engine.TaxYear, error) {
	if len(sales) == 0 {
		return p.Base, p.BaseTY, nil
	}
	var b strings.Builder
	for _, s := range sales {
		b.WriteString(s.Line(p.Date))
		b.WriteByte('\n')
	}
	extra, err := dsl.Parse(File, []byte(b.String()))
	if err != nil {
		return nil, engine.TaxYear{}, err
	}
	all := make([]model.Transaction, 0, len(p.Txns)+len(extra))
	all = append(append(all, p.Txns...), extra...)
	rep, err := engine.Calculate(all, p.Opts)
	if err != nil {
		return nil, engine.TaxYear{}, err
	}
	return rep, rep.Year(p.Year), nil
}

// Figures are a tax year's totals with the exempt amount left and, given income, the tax.
func (p *Planner) Figures(ty engine.TaxYear) Figures {
	return p.FiguresWith(ty, p.Income)
}

// FiguresWith are Figures with the tax worked out on income (nil: no tax).
func (p *Planner) FiguresWith(ty engine.TaxYear, income *tax.Income) Figures {
	f := Figures{NetGain: ty.NetGain, Gains: ty.Gains, Losses: ty.Losses,
		ExemptLeft: model.NewMoney(ExemptLeft(ty)), LossesAvailable: ty.LossesBroughtForward, TaxableGain: ty.TaxableGain,
		LossesUsed: ty.LossesUsed, LossesCarried: ty.LossesCarriedForward}
	if income != nil {
		engine.ApplyTax(&ty, income)
		if ty.Tax != nil {
			t := ty.Tax.Total
			f.Tax = &t
		}
	}
	return f
}

// ExemptLeft is the annual exempt amount minus the year's net gain (a net loss adds to it),
// not below zero.
func ExemptLeft(ty engine.TaxYear) decimal.Decimal {
	left := ty.AnnualExemptAmount.Exact().Sub(ty.NetGain.Exact())
	if left.Sign() < 0 {
		return decimal.Zero
	}
	return left
}

// Holdings are the Section 104 holdings at the end of the plan's date.
func (p *Planner) Holdings() []engine.Holding {
	if p.held == nil || p.heldOn != p.Date {
		p.held, p.heldOn = p.Base.HoldingsAt(p.Date), p.Date
		p.heldBy = make(map[string]int, len(p.held))
		for i, h := range p.held {
			p.heldBy[strings.ToUpper(h.Ticker)] = i
		}
	}
	return p.held
}

// HeldAt is the Section 104 holding of a ticker at the end of the plan's date, found
// case-insensitively; ok is false when none is held.
func (p *Planner) HeldAt(ticker string) (engine.Holding, bool) {
	p.Holdings()
	i, ok := p.heldBy[strings.ToUpper(ticker)]
	if !ok {
		return engine.Holding{}, false
	}
	return p.held[i], true
}

// NotHeld is the error for a sale of a ticker not held on the plan's date, naming those held
// and the nearest.
func (p *Planner) NotHeld(ticker string) error {
	var held []string
	for _, h := range p.Holdings() {
		held = append(held, h.Ticker)
	}
	msg := fmt.Sprintf("%s is not held on %s", ticker, p.Date)
	if len(held) == 0 {
		msg += ": nothing is held then"
	} else {
		msg += "; held then: " + strings.Join(held, ", ")
	}
	hint := "Name a ticker held on the plan's date (holdings.list shows them)."
	var examples []string
	if near := engine.NearTickers(ticker, held); len(near) > 0 {
		hint = "Did you mean " + strings.Join(near, " or ") + "? " + hint
		examples = []string{`{"ticker":"` + near[0] + `"}`}
	} else if len(held) > 0 {
		examples = []string{`{"ticker":"` + held[0] + `"}`}
	}
	return &model.Error{Code: model.CodeInvalidArgument, Message: msg, Hint: hint, Examples: examples,
		Value: ticker, Context: map[string]any{"argument": "ticker"}}
}

// Delta is after minus before.
func Delta(after, before model.Money) model.Money {
	return model.NewMoney(after.Exact().Sub(before.Exact()))
}

// FindDisposal is the tax year's disposal of ticker on d, if any.
func FindDisposal(ty engine.TaxYear, ticker string, d model.Date) *engine.Disposal {
	for i := range ty.Disposals {
		if ty.Disposals[i].Date == d && strings.EqualFold(ty.Disposals[i].Ticker, ticker) {
			return &ty.Disposals[i]
		}
	}
	return nil
}

// Result is what planned sales do: the report with them, the plan's tax year, and what they
// realise.
type Result struct {
	Report *engine.Report
	Year   engine.TaxYear
	// Gain is the change in the year's net gain (chargeable gains less allowable losses).
	Gain decimal.Decimal
	// Proceeds is what the sales raise, gross (before their fees), in pounds.
	Proceeds decimal.Decimal
	// OffshoreIncome is the offshore income gains they realise (non-reporting funds sold at a
	// gain): income, not capital gains.
	OffshoreIncome decimal.Decimal
}

// Apply runs the sales and says what they realise.
func (p *Planner) Apply(sales []Sale) (Result, error) {
	rep, ty, err := p.Run(sales)
	if err != nil {
		return Result{}, err
	}
	r := Result{Report: rep, Year: ty, Gain: ty.NetGain.Exact().Sub(p.BaseTY.NetGain.Exact())}
	sold := map[string]bool{}
	for _, s := range sales {
		sold[strings.ToUpper(s.Ticker)] = true
	}
	proceeds, oig := p.dayFigures(rep, sold)
	bp, boig := p.dayFigures(p.Base, sold)
	r.Proceeds, r.OffshoreIncome = proceeds.Sub(bp), oig.Sub(boig)
	return r, nil
}

// Totals are what a plan's sales realise besides their gain, in pounds.
type Totals struct {
	Proceeds       model.Money  `json:"proceeds" jsonschema_description:"What the sales raise, before their fees (GBP)."`
	OffshoreIncome *model.Money `json:"offshore_income_gain,omitempty" jsonschema_description:"Offshore income gains of non-reporting funds sold: income, not capital gains (GBP)."`
	IncomeTax      *model.Money `json:"income_tax,omitempty" jsonschema_description:"Income tax on the offshore income gains, when taxable_income is given (GBP)."`
	TaxCost        *model.Money `json:"tax_cost,omitempty" jsonschema_description:"Tax after minus tax before, income tax included, when taxable_income is given (GBP)."`
}

// Outcome is the year's figures after planned sales, with the tax on any offshore income gain
// they realise (it adds to income, at the person's marginal rates, and can move gains into
// the higher rate), and their totals.
func (p *Planner) Outcome(r Result) (Figures, Totals) {
	t := Totals{Proceeds: model.NewMoney(r.Proceeds)}
	income, itax := p.Income, decimal.Zero
	if r.OffshoreIncome.Sign() > 0 {
		o := model.NewMoney(r.OffshoreIncome)
		t.OffshoreIncome = &o
		if income != nil {
			in := *income
			itax = tax.IncomeTaxOn(p.Year, in, r.OffshoreIncome)
			in.TaxableIncome = in.TaxableIncome.Add(r.OffshoreIncome)
			income = &in
			it := model.NewMoney(itax)
			t.IncomeTax = &it
		}
	}
	after, before := p.FiguresWith(r.Year, income), p.Figures(p.BaseTY)
	if before.Tax != nil && after.Tax != nil {
		c := model.NewMoney(after.Tax.Exact().Sub(before.Tax.Exact()).Add(itax))
		t.TaxCost = &c
	}
	return after, t
}

// ApplyOwn is Apply for one sale worked on the security's own sub-ledger (see own): the same
// figures for it, at the cost of its own lines rather than the whole ledger's. Report and Year
// are the sub-ledger's.
func (p *Planner) ApplyOwn(s Sale) (Result, error) {
	sub := &Planner{Txns: p.own(s.Ticker), Opts: p.Opts, Date: p.Date, Year: p.Year, ids: p.ids}
	base, err := engine.Calculate(sub.Txns, p.Opts)
	if err != nil {
		return Result{}, err
	}
	sub.Base, sub.BaseTY = base, base.Year(p.Year)
	return sub.Apply([]Sale{s})
}

// dayFigures are the proceeds of the disposals on the plan's date of the securities sold, and
// their offshore income gains.
func (p *Planner) dayFigures(rep *engine.Report, sold map[string]bool) (proceeds, oig decimal.Decimal) {
	add := func(ds []engine.Disposal, income bool) {
		for i := range ds {
			if d := &ds[i]; d.Date == p.Date && sold[strings.ToUpper(d.Ticker)] {
				proceeds = proceeds.Add(d.Proceeds.Exact())
				if income {
					oig = oig.Add(d.Gain.Exact())
				}
			}
		}
	}
	add(rep.Year(p.Year).Disposals, false)
	add(rep.OffshoreIncomeGains, true)
	add(rep.ExemptDisposals, false)
	return proceeds, oig
}

// Disposal is the report's disposal of ticker on the plan's date: in the tax year's disposals,
// or among the offshore income gains or the exempt disposals.
func (p *Planner) Disposal(rep *engine.Report, ticker string) *engine.Disposal {
	if d := FindDisposal(rep.Year(p.Year), ticker, p.Date); d != nil {
		return d
	}
	for _, ds := range [][]engine.Disposal{rep.OffshoreIncomeGains, rep.ExemptDisposals} {
		for i := range ds {
			if ds[i].Date == p.Date && strings.EqualFold(ds[i].Ticker, ticker) {
				return &ds[i]
			}
		}
	}
	return nil
}

// NonReporting reports whether a security (by its name in the report) is declared a
// non-reporting offshore fund.
func (p *Planner) NonReporting(security string) bool { return p.securities().NonReporting(security) }

// FullSaleGain is the change in the year's net gain if all of a holding were sold on the
// plan's date at price: the engine's figure with every rule.
func (p *Planner) FullSaleGain(h engine.Holding, pr Price) (model.Money, error) {
	_, ty, err := p.Run([]Sale{{Ticker: h.Ticker, Quantity: h.Quantity.Exact(), Price: pr}})
	if err != nil {
		return model.Money{}, err
	}
	return Delta(ty.NetGain, p.BaseTY.NetGain), nil
}
