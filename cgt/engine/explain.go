package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Finding a disposal by its day and ticker, and explaining its identification as readable
// steps (matching.explain).

// FindDisposals are the disposals of ticker on date: the tax years' first, then those outside
// the CGT totals (transfers to a spouse, offshore income gains, exempt disposals). With no
// ticker, the day's one security disposed of is taken; none, several, or no disposal of the
// ticker that day is an error listing what there is.
func (rep *Report) FindDisposals(date model.Date, ticker string) ([]Disposal, error) {
	if ticker == "" {
		t, err := rep.dayTicker(date)
		if err != nil {
			return nil, err
		}
		ticker = t
	}
	var found []Disposal
	for _, ty := range rep.TaxYears {
		for _, d := range ty.Disposals {
			if d.Date == date && d.Ticker == ticker {
				found = append(found, d)
			}
		}
	}
	for _, list := range [][]Disposal{rep.NoGainNoLoss, rep.OffshoreIncomeGains, rep.ExemptDisposals} {
		for _, d := range list {
			if d.Date == date && d.Ticker == ticker {
				found = append(found, d)
			}
		}
	}
	if len(found) == 0 {
		return nil, rep.disposalNotFound(date, ticker)
	}
	return found, nil
}

// allDisposals lists every disposal of the report: the years' and those outside the totals.
func (rep *Report) allDisposals() []Disposal {
	var out []Disposal
	for _, ty := range rep.TaxYears {
		out = append(out, ty.Disposals...)
	}
	for _, list := range [][]Disposal{rep.NoGainNoLoss, rep.OffshoreIncomeGains, rep.ExemptDisposals} {
		out = append(out, list...)
	}
	return out
}

// dayTicker is the ticker of the one security disposed of on a date; several, or none, is an
// error listing the day's disposals (or the dates that have some).
func (rep *Report) dayTicker(date model.Date) (string, error) {
	var tickers, dates []string
	for _, d := range rep.allDisposals() {
		if d.Date == date && !slices.Contains(tickers, d.Ticker) {
			tickers = append(tickers, d.Ticker)
		}
		if ds := d.Date.String(); !slices.Contains(dates, ds) {
			dates = append(dates, ds)
		}
	}
	switch len(tickers) {
	case 1:
		return tickers[0], nil
	case 0:
		order.Ascending(dates)
		e := &model.Error{Code: model.CodeNotFound, Message: "no disposal on " + date.String() + " in the ledger",
			Hint:    "Pick a date with disposals: " + strings.Join(dates[:min(len(dates), 20)], ", ") + ".",
			Context: map[string]any{"dates_with_disposals": nonNilStrings(dates)}}
		if len(dates) > 0 {
			e.Examples = []string{"date=" + dates[0]}
		}
		return "", e
	}
	order.Ascending(tickers)
	return "", &model.Error{Code: model.CodeInvalidArgument,
		Message:  fmt.Sprintf("%d securities were disposed of on %s: %s", len(tickers), date, strings.Join(tickers, ", ")),
		Hint:     "Give the ticker of the one to explain.",
		Examples: []string{"date=" + date.String() + " ticker=" + tickers[0]},
		Context:  map[string]any{"disposals": tickers, "argument": "ticker"}}
}

// disposalNotFound lists the ticker's disposals, or every ticker with disposals.
func (rep *Report) disposalNotFound(date model.Date, ticker string) error {
	var same, tickers []string
	seen := map[string]bool{}
	for _, ty := range rep.TaxYears {
		for _, d := range ty.Disposals {
			if d.Ticker == ticker {
				same = append(same, d.Date.String())
			}
			if !seen[d.Ticker] {
				seen[d.Ticker] = true
				tickers = append(tickers, d.Ticker)
			}
		}
	}
	e := &model.Error{Code: model.CodeNotFound, Message: fmt.Sprintf("no disposal of %s on %s in the ledger", ticker, date)}
	if len(same) > 0 {
		e.Hint = fmt.Sprintf("%s has disposals on %s.", ticker, strings.Join(same, ", "))
		e.Examples = []string{"date=" + same[0] + " ticker=" + ticker}
		e.Context = map[string]any{"disposals": same, "ticker": ticker}
		return e
	}
	e.Hint = "No disposals of " + ticker + "; tickers with disposals: " + strings.Join(tickers, ", ") + "."
	e.Context = map[string]any{"tickers_with_disposals": nonNilStrings(tickers), "ticker": ticker}
	return e
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Kinds names the kinds of the disposals for a message: "a sale, a transfer to a spouse or
// civil partner".
func Kinds(ds []Disposal) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = kindName(d.Kind)
	}
	return strings.Join(names, ", ")
}

// kindName is what a disposal is, in words.
func kindName(kind string) string {
	switch kind {
	case KindSpouseTransfer:
		return "a transfer to a spouse or civil partner"
	case KindNegligible:
		return "a negligible value claim"
	case KindCapitalDistribution:
		return "a capital distribution"
	}
	return "a sale"
}

// Explain is a disposal's identification as readable steps, rule by rule, ending with the
// gain; period is its tax year. It fills each match's Steps.
func Explain(period string, d Disposal) []string {
	lines := []string{fmt.Sprintf("%s of %s %s on %s (tax year %s): proceeds %s, sale fees %s.",
		explainHead(d), d.Quantity.String(), d.Ticker, d.Date, period, d.Proceeds.GBP(), d.SaleFees.GBP())}
	for i := range d.Matches {
		m := &d.Matches[i]
		m.Steps = m.Explain()
		lines = append(lines, fmt.Sprintf("%d. %s (%s): %s shares, cost %s, gain %s.", i+1, ruleName(m.Rule), m.Reference, m.Quantity.String(), m.Cost.GBP(), m.Gain.GBP()))
		for _, s := range m.Steps {
			lines = append(lines, "   "+s)
		}
	}
	return append(lines, allowableLine(d))
}

// explainHead is what the disposal is, as the explanation's first words.
func explainHead(d Disposal) string {
	head := "Disposal"
	switch d.Kind {
	case KindSpouseTransfer:
		head = "Transfer to a spouse or civil partner (no gain, no loss; not counted on the SA108)"
	case KindNegligible:
		head = "Negligible value claim, a deemed sale and reacquisition at the value claimed (" + d.Reference + ")"
	case KindCapitalDistribution:
		head = "Capital distribution treated as a part disposal"
	}
	switch d.Reference {
	case RefOffshoreIncome:
		head += " of a non-reporting fund: an offshore income gain, charged to income tax (SA106), outside the CGT totals"
	case RefOffshoreLoss:
		head += " of a non-reporting fund at a loss: no offshore income gain (" + d.Reference + "), an allowable capital loss"
	case RefExempt:
		head += " of an exempt security (" + d.Reference + "): no chargeable gain or allowable loss"
	}
	return head
}

// allowableLine is the disposal's allowable cost as the sum of its parts as shown (each to the
// penny), so the line adds up as it reads; the cost used, worked from the figures before
// rounding, follows when it differs.
func allowableLine(d Disposal) string {
	parts := []string{"identified cost " + d.IdentifiedCost.GBP(), "sale fees " + d.SaleFees.GBP()}
	sum := d.IdentifiedCost.Rounded().Add(d.SaleFees.Rounded())
	for _, a := range d.Adjustments {
		parts = append(parts, a.Reason+" "+a.Cost.GBP())
		sum = sum.Add(a.Cost.Rounded())
	}
	line := fmt.Sprintf("Allowable cost %s (%s)", model.NewMoney(sum).GBP(), strings.Join(parts, " + "))
	if !sum.Equal(d.AllowableCost.Rounded()) {
		line += fmt.Sprintf("; %s from the figures before rounding is the cost used", d.AllowableCost.GBP())
	}
	return line + fmt.Sprintf(", gain %s.", d.Gain.GBP())
}

func ruleName(rule string) string {
	switch rule {
	case RuleSameDay:
		return "Same-day rule"
	case RuleBedAndBreakfast:
		return "30-day (bed and breakfast) rule"
	case RuleSection104:
		return "Section 104 pool"
	}
	return rule
}
