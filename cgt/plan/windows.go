package plan

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// MatchNotes say which of the ledger's purchases the engine matched with a planned disposal
// before the pool (same day, then the next 30 days): read from the disposal's own matches, so
// a purchase in a tax wrapper (never matched) is not named and an alias's is.
func MatchNotes(d *engine.Disposal) []string {
	if d == nil {
		return nil
	}
	var out []string
	for _, m := range d.Matches {
		if m.AcquisitionDate == nil {
			continue
		}
		switch m.Rule {
		case engine.RuleSameDay:
			out = append(out, fmt.Sprintf("the ledger has a purchase of %s on %s, the day of the sale: it is matched with the sale first (same-day rule, TCGA92/S105(1)); %s shares.", d.Ticker, *m.AcquisitionDate, m.Quantity.Exact()))
		case engine.RuleBedAndBreakfast:
			out = append(out, fmt.Sprintf("30-day rule: the ledger has a purchase of %s on %s, within 30 days after the sale: it is matched with the sale before the pool (TCGA92/S106A(5)), which changes the gain; %s shares.", d.Ticker, *m.AcquisitionDate, m.Quantity.Exact()))
		}
	}
	return out
}

// Rematches are notes on purchases read from the named file (the what-if lines, extra) that
// the 30-day rule matches with a sale of the ledger's own: a planned purchase that changes a
// sale already made.
func Rematches(rep *engine.Report, file string) []string {
	var out []string
	for _, ty := range rep.TaxYears {
		for i := range ty.Disposals {
			d := &ty.Disposals[i]
			if d.Source.File == file {
				continue
			}
			for _, m := range d.Matches {
				if m.Rule != engine.RuleBedAndBreakfast || m.AcquisitionDate == nil {
					continue
				}
				for _, src := range m.Sources {
					if src.File == file {
						out = append(out, fmt.Sprintf("%s:%d: the purchase of %s on %s is within 30 days after the sale of %s on %s (%s:%d): the 30-day rule matches %s of its shares with that sale, which changes that sale's gain (TCGA92/S106A(5)).",
							file, src.Line, d.Ticker, *m.AcquisitionDate, d.Ticker, d.Date, d.Source.File, d.Source.Line, m.Quantity.Exact()))
					}
				}
			}
		}
	}
	return out
}

// Window is a recent sale whose 30-day window is still open.
type Window struct {
	_ model.NotComparable

	Ticker    string        `json:"ticker" record:"entity" jsonschema_description:"Security sold."`
	SaleDate  model.Date    `json:"sale_date" record:"timestamp" jsonschema_description:"Day of the sale."`
	Quantity  model.Decimal `json:"quantity" jsonschema_description:"Shares sold."`
	Open      model.Decimal `json:"open_quantity" jsonschema_description:"Shares of the sale not yet matched by the same-day or 30-day rule: a purchase could still be matched with them."`
	Until     model.Date    `json:"until" jsonschema_description:"A purchase up to this day is matched with the sale."`
	SafeRebuy model.Date    `json:"first_safe_rebuy" jsonschema_description:"First day a purchase is not."`
}

// OpenWindows lists the sales in the 30 days up to d that a purchase from d to until could
// still change: those with shares identified with the pool. A sale the same-day and 30-day
// rules have already matched in full is closed (TCGA92 s106A(5): nothing is left to match).
func OpenWindows(rep *engine.Report, d model.Date) []Window {
	out := []Window{}
	add := func(ds []engine.Disposal) {
		for i := range ds {
			x := &ds[i]
			until, safe := engine.ThirtyDayWindow(x.Date)
			if x.Date > d || until < d || x.Kind != "" {
				continue
			}
			open := decimal.Zero
			for _, m := range x.Matches {
				if m.Rule == engine.RuleSection104 {
					open = open.Add(m.Quantity.Exact())
				}
			}
			if open.Sign() > 0 {
				out = append(out, Window{Ticker: x.Ticker, SaleDate: x.Date, Quantity: x.Quantity, Open: model.NewDecimal(open), Until: until, SafeRebuy: safe})
			}
		}
	}
	for _, ty := range rep.TaxYears {
		if ty.EndDate >= d.AddDays(-31) && ty.StartDate <= d {
			add(ty.Disposals)
		}
	}
	add(rep.OffshoreIncomeGains)
	order.Stable(out, func(a, b Window) int { return int(a.SaleDate) - int(b.SaleDate) })
	return out
}
