// Package taxyear knows the UK tax year (6 April to 5 April) and, for each year from 2008/09,
// the Capital Gains Tax annual exempt amount and the rates on gains from shares and fund
// units. The rates are those for shares: residential property, carried interest and Business
// Asset Disposal Relief have rates of their own, outside this package.
//
// Sources: the Taxation of Chargeable Gains Act 1992 (TCGA) as amended by the Finance Acts
// cited on each figure, and HMRC's published "Capital Gains Tax rates and allowances"
// (https://www.gov.uk/government/publications/rates-and-allowances-capital-gains-tax).
package taxyear

import (
	"fmt"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// First is the first tax year in scope (2008/09): the present share identification rules
// and rates start on 6 April 2008, when taper relief and indexation ended.
const First = 2008

// ScopeStart is 6 April 2008 (model.NewDate(2008, time.April, 6)): disposals before it are out
// of scope.
const ScopeStart model.Date = 13975

// LastKnown is the last tax year (2026/27) whose figures this package was checked against.
// Later years carry its figures forward; Year.Projected reports them so callers can warn.
const LastKnown = 2026

// InScope reports whether a disposal on d falls within the rules this program implements
// (on or after 6 April 2008).
func InScope(d model.Date) bool { return d >= ScopeStart }

// Year is a UK tax year, named by the calendar year in which it starts: Start 2024 is 2024/25,
// 6 April 2024 to 5 April 2025.
type Year struct {
	Start int
}

// For returns the tax year containing d.
func For(d model.Date) Year {
	y := d.Year()
	if d < model.NewDate(y, time.April, 6) {
		y--
	}
	return Year{Start: y}
}

// Period names the year as HMRC writes it on returns: "2024/25".
func (y Year) Period() string { return fmt.Sprintf("%d/%02d", y.Start, (y.Start+1)%100) }

// String is Period.
func (y Year) String() string { return y.Period() }

// StartDate is 6 April of the start year.
func (y Year) StartDate() model.Date { return model.NewDate(y.Start, time.April, 6) }

// EndDate is 5 April of the following year.
func (y Year) EndDate() model.Date { return model.NewDate(y.Start+1, time.April, 5) }

// Contains reports whether d falls within the year.
func (y Year) Contains(d model.Date) bool { return d >= y.StartDate() && d <= y.EndDate() }

// Next returns the following tax year.
func (y Year) Next() Year { return Year{Start: y.Start + 1} }

// Prev returns the preceding tax year.
func (y Year) Prev() Year { return Year{Start: y.Start - 1} }

// InScope reports whether the year is 2008/09 or later. The figures below are defined only
// for such years.
func (y Year) InScope() bool { return y.Start >= First }

// Projected reports whether the year is later than LastKnown, so its figures are LastKnown's
// carried forward rather than checked against legislation.
func (y Year) Projected() bool { return y.Start > LastKnown }

// AnnualExemptAmount is the annual exempt amount for an individual, in pounds. It is zero for
// a year before 2008/09.
func (y Year) AnnualExemptAmount() decimal.Decimal {
	if a, ok := y.allowance(); ok {
		return decimal.NewFromInt(a.amount)
	}
	return decimal.Zero
}

// AnnualExemptReference cites the legislation that sets the year's annual exempt amount.
func (y Year) AnnualExemptReference() string {
	if a, ok := y.allowance(); ok {
		return a.reference
	}
	return ""
}

func (y Year) allowance() (allowance, bool) {
	if !y.InScope() {
		return allowance{}, false
	}
	found := allowances[0]
	for _, a := range allowances {
		if a.from <= y.Start {
			found = a
		}
	}
	return found, true
}

// Notes says what a reader of the year's figures should know: that they are projected, that
// the rates changed during the year, or that the year is out of scope.
func (y Year) Notes() []string {
	if !y.InScope() {
		return []string{fmt.Sprintf("%s is before 2008/09: disposals before 6 April 2008 are out of scope, so no figures are given.", y.Period())}
	}
	var notes []string
	if y.Projected() {
		notes = append(notes, fmt.Sprintf("%s is later than %s, the last tax year whose figures this version was checked against: the annual exempt amount and rates shown are %s's, assumed unchanged. Check GOV.UK for changes.",
			y.Period(), Year{Start: LastKnown}.Period(), Year{Start: LastKnown}.Period()))
	}
	if ps := y.RatePeriods(); len(ps) > 1 {
		notes = append(notes, "Rates changed during the year: "+describe(ps)+". Gains are taxed at the rates in force on the date of each disposal.")
	}
	return notes
}
