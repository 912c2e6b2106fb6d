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
	NetGain         model.Money  `json:"net_gain" jsonschema_description:"Gains minus losses of the year's disposals (GBP)."`
	Gains           model.Money  `json:"gains" jsonschema_description:"Gains of the year's disposals with a gain (GBP)."`
	Losses          model.Money  `json:"losses" jsonschema_description:"Losses of the year's disposals with a loss, positive (GBP)."`
	ExemptLeft      model.Money  `json:"exempt_left" jsonschema_description:"Annual exempt amount minus net gain, not below 0 (GBP)."`
	LossesAvailable model.Money  `json:"losses_available" jsonschema_description:"Losses brought forward into the year (GBP)."`
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

	ids *engine.Securities // the ledger's identities, read when first needed
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
	Amount     decimal.Decimal
	Currency   string
	NoCurrency bool // none was written: read as pounds (see CheckPrice)
}

func (p Price) String() string { return p.Amount.String() + " " + p.Currency }

// Sale is one planned sale: what its ledger line says.
type Sale struct {
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
	f := Figures{NetGain: ty.NetGain, Gains: ty.Gains, Losses: ty.Losses,
		ExemptLeft: model.NewMoney(ExemptLeft(ty)), LossesAvailable: ty.LossesBroughtForward, TaxableGain: ty.TaxableGain}
	if p.Income != nil {
		engine.ApplyTax(&ty, p.Income)
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
func (p *Planner) Holdings() []engine.Holding { return p.Base.HoldingsAt(p.Date) }

// HeldAt is the Section 104 holding of a ticker at the end of the plan's date, found
// case-insensitively; ok is false when none is held.
func (p *Planner) HeldAt(ticker string) (engine.Holding, bool) {
	for _, h := range p.Holdings() {
		if strings.EqualFold(h.Ticker, ticker) {
			return h, true
		}
	}
	return engine.Holding{}, false
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

// FullSaleGain is the change in the year's net gain if all of a holding were sold on the
// plan's date at price: the engine's figure with every rule.
func (p *Planner) FullSaleGain(h engine.Holding, pr Price) (model.Money, error) {
	_, ty, err := p.Run([]Sale{{Ticker: h.Ticker, Quantity: h.Quantity.Exact(), Price: pr}})
	if err != nil {
		return model.Money{}, err
	}
	return Delta(ty.NetGain, p.BaseTY.NetGain), nil
}

// PurchasesWithin lists the ledger's acquisitions of ticker from d to the end of the 30-day
// window (same day included): each would be matched with a sale on d before the pool.
func (p *Planner) PurchasesWithin(ticker string, d model.Date) (sameDay bool, later []model.Date) {
	until, _ := engine.ThirtyDayWindow(d)
	for _, t := range p.Txns {
		if !strings.EqualFold(t.Ticker, ticker) || t.Action != model.Buy || t.Date < d || t.Date > until {
			continue
		}
		if t.Date == d {
			sameDay = true
		} else {
			later = append(later, t.Date)
		}
	}
	return sameDay, later
}
