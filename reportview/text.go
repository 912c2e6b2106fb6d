// Package reportview renders results for people: the capital gains report for the person
// filing it (the text report of `--output text` and the self-contained HTML page of
// `--output html`, both built from the engine's report alone) and the plans' text (plan.go).
// The machine formats (JSON and the records renderings) are elsewhere.
package reportview

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/sources"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/records"
)

// Text writes the report as a person reads it: per tax year a summary with the SA108 box
// beside each figure, the tax due when income was given, one line per disposal (with the HMRC
// rate where an amount was converted), the year's dividends; then the holdings, what was kept
// out of the totals, and the warnings. Years with nothing in them are left out.
func Text(w io.Writer, rep *engine.Report, ledger string, warnings []string) error {
	b := bufio.NewWriter(w)
	title := "Capital gains report"
	if ledger != "" {
		title += ": " + ledger
	}
	fmt.Fprintf(b, "%s\n%s\n", title, strings.Repeat("=", len([]rune(title))))
	fmt.Fprintln(b, "Amounts in pounds sterling. \"box N\" is the box of the SA108 Capital gains summary for")
	fmt.Fprintln(b, "that year, with the figure to enter in whole pounds where it differs.")
	shown := 0
	for i := range rep.TaxYears {
		ty := &rep.TaxYears[i]
		if !hasActivity(ty) && len(rep.TaxYears) > 1 {
			continue
		}
		shown++
		writeYear(b, ty, notRead(warnings), rep.SecurityNames)
	}
	if shown == 0 {
		fmt.Fprintln(b, "\n"+nothingToReport(rep))
	}
	writeHoldings(b, rep)
	writeSetAside(b, rep)
	writeNotes(b, warnings)
	return b.Flush()
}

// nothingToReport says that no tax year has a figure for the SA108 or a dividend: the ledger
// has no disposals at all, or only disposals set apart from the SA108 (listed below it).
func nothingToReport(rep *engine.Report) string {
	if len(rep.Excluded)+len(rep.ExemptDisposals)+len(rep.OffshoreIncomeGains)+len(rep.NoGainNoLoss) > 0 {
		return "No disposals for the SA108 and no dividends: what the ledger holds is set apart below."
	}
	return "No disposals or dividends in the ledger."
}

// hasActivity reports whether a year has anything to show: a disposal, a dividend or a
// notional distribution.
func hasActivity(ty *engine.TaxYear) bool {
	return ty.DisposalCount > 0 || ty.Dividends.Count > 0 || !ty.Dividends.Accumulations.IsZero() || len(ty.Income) > 0 ||
		!ty.LossesUsed.IsZero()
}

func writeYear(b *bufio.Writer, ty *engine.TaxYear, unread bool, names map[string]string) {
	fmt.Fprintf(b, "\nTAX YEAR %s  (%s to %s)\n", ty.Period, longDate(ty.StartDate), longDate(ty.EndDate))
	if ty.DisposalCount == 0 && unread {
		fmt.Fprintln(b, "  No disposals read, but rows of the files were NOT READ (see CHECK THESE): check them before entering nothing.")
	} else if ty.DisposalCount == 0 {
		fmt.Fprintln(b, "  No disposals: nothing to enter on the SA108 for this year.")
	} else {
		writeSummary(b, ty)
		writeTax(b, ty)
		writeDisposals(b, ty.Disposals, names)
	}
	writeDividends(b, ty)
	writeIncome(b, ty)
}

// notRead reports whether rows of the files that could change a figure were not read (the
// first warning says so): a year without disposals must not read as a clean bill then.
func notRead(warnings []string) bool {
	return len(warnings) > 0 && strings.HasPrefix(warnings[0], sources.UnreadNotice)
}

// summaryRow is one figure of the year's summary, with the SA108 box that asks for it.
type summaryRow struct {
	_ model.NotComparable

	Label string
	Value string
	box   string // the label of the box on the form (see tax.Boxes), "" for none
}

func writeSummary(b *bufio.Writer, ty *engine.TaxYear) {
	boxes := boxesByLabel(ty.SA108.Boxes)
	for _, r := range summaryRows(ty) {
		fmt.Fprintf(b, "  %-30s %14s%s\n", r.Label, r.Value, boxNote(boxes[r.box], r.Value))
	}
}

// summaryRows are the year's figures in the order the summary shows them.
func summaryRows(ty *engine.TaxYear) []summaryRow {
	return []summaryRow{
		{Label: "Disposals", Value: fmt.Sprint(ty.DisposalCount), box: "Number of disposals"},
		{Label: "Disposal proceeds", Value: records.Pounds(ty.Proceeds.String()), box: "Disposal proceeds"},
		{Label: "Allowable costs", Value: records.Pounds(ty.AllowableCosts.String()), box: "Allowable costs (including purchase price)"},
		{Label: "Gains in the year", Value: records.Pounds(ty.Gains.String()), box: "Gains in the year, before losses"},
		{Label: "Losses in the year", Value: records.Pounds(ty.Losses.String()), box: "Losses in the year"},
		{Label: "Net gain", Value: records.Pounds(ty.NetGain.String()), box: ""},
		{Label: "Annual exempt amount", Value: records.Pounds(ty.AnnualExemptAmount.String()), box: ""},
		{Label: "Losses brought forward used", Value: records.Pounds(ty.LossesUsed.String()), box: "Losses brought forward and used in the year"},
		{Label: "Losses carried forward", Value: records.Pounds(ty.LossesCarriedForward.String()), box: "Losses available to be carried forward to later years"},
		{Label: "Taxable gain", Value: records.Pounds(ty.TaxableGain.String()), box: ""},
	}
}

// boxNote is the " box N" note beside a figure, with the whole-pound entry when it differs
// from the figure as printed.
func boxNote(bx tax.Box, printed string) string {
	if bx.Box == "" {
		return ""
	}
	note := "   box " + bx.Box
	if bx.Value != "" && bx.Value != printed {
		note += ": enter " + bx.Value
	}
	return note
}

func boxesByLabel(boxes []tax.Box) map[string]tax.Box {
	m := make(map[string]tax.Box, len(boxes))
	for _, bx := range boxes {
		m[bx.Label] = bx
	}
	return m
}

// rateChangeYear is the one tax year whose SA108 has box 51, the adjustment for the change of
// rates on 30 October 2024.
const rateChangeYear = "2024/25"

// writeTax writes the tax due (when income was given) and the 2024/25 box 51 figure.
func writeTax(b *bufio.Writer, ty *engine.TaxYear) {
	if ty.Tax == nil {
		fmt.Fprintln(b, "  Tax due                        (give taxable_income=AMOUNT to work it out)")
	} else {
		t := ty.Tax
		fmt.Fprintf(b, "  %-30s %14s\n", "Tax due", records.Pounds(t.Total.String()))
		for _, c := range t.Charges {
			fmt.Fprintf(b, "    %s on %s (%s to %s) = %s\n", percent(c.Rate), records.Pounds(c.Gain.String()),
				shortDate(c.From), shortDate(c.To), records.Pounds(c.Tax.String()))
		}
		fmt.Fprintf(b, "    taxable income %s; basic rate band %s, of which %s unused\n",
			records.Pounds(t.TaxableIncome.String()), records.Pounds(t.BasicRateBand.String()), records.Pounds(t.BasicRateBandUnused.String()))
	}
	if adj := ty.SA108.Adjustment; adj != nil && ty.Period == rateChangeYear {
		fmt.Fprintf(b, "  %-30s %14s   box 51 (the rate change of 30 October 2024)\n", "Adjustment to CGT", records.Pounds(adj.String()))
	}
}

func writeDisposals(b *bufio.Writer, ds []engine.Disposal, names map[string]string) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintln(b, "  Disposals")
	fmt.Fprintf(b, "    %-10s  %-12s %12s %13s %13s %13s  %s\n", "Date", "Security", "Quantity", "Proceeds", "Cost", "Gain", "Rule")
	for i := range ds {
		d := &ds[i]
		fmt.Fprintf(b, "    %-10s  %-12s %12s %13s %13s %13s  %s\n", d.Date, clip(d.Ticker, 12), d.Quantity.String(),
			records.Pounds(d.Proceeds.String()), records.Pounds(d.AllowableCost.String()), records.Pounds(d.Gain.String()), rules(d))
		if n, ok := names[d.Ticker]; ok {
			fmt.Fprintf(b, "      %s: %s (the broker's name; the ticker is made from it)\n", d.Ticker, n)
		}
		for _, line := range conversions(d) {
			fmt.Fprintf(b, "      %s\n", line)
		}
	}
}

// conversions describes each foreign amount of a disposal and the HMRC rate that converted it.
func conversions(d *engine.Disposal) []string {
	var out []string
	for _, o := range d.Original {
		c := o.Consideration
		if c.Rate == nil {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s at %s %s per £1 (HMRC rate for %s) = %s, %s",
			c.Currency, group(c.Amount.String()), c.Rate.String(), c.Currency, c.RatePeriod, records.Pounds(c.GBP.String()), where(o.Source)))
	}
	return out
}

func writeDividends(b *bufio.Writer, ty *engine.TaxYear) {
	dv := ty.Dividends
	if dv.Count == 0 && dv.Accumulations.IsZero() {
		return
	}
	if dv.Count > 0 {
		fmt.Fprintf(b, "  Dividends (income, not gains): %d received, %s\n", dv.Count, records.Pounds(dv.Income.String()))
		fmt.Fprintf(b, "    UK %s (SA100); foreign %s with %s tax withheld abroad (SA106)\n",
			records.Pounds(dv.UKIncome.String()), records.Pounds(dv.ForeignIncome.String()), records.Pounds(dv.ForeignTaxPaid.String()))
	}
	if !dv.Accumulations.IsZero() {
		fmt.Fprintf(b, "  Accumulation distributions: %s (added to the funds' cost; taxable as income)\n", records.Pounds(dv.Accumulations.String()))
	}
}

// writeIncome lists the year's income as the return asks for it: form, box, amount, tax
// taken off, the securities it comes from, and the note on where else it may go.
func writeIncome(b *bufio.Writer, ty *engine.TaxYear) {
	if len(ty.Income) == 0 {
		return
	}
	fmt.Fprintln(b, "  Income for the return (income tax, not CGT):")
	for _, in := range ty.Income {
		box := in.Form
		if in.Box != "" {
			box += " box " + in.Box
		}
		fmt.Fprintf(b, "    %s, %s: %s", box, in.Label, records.Pounds(in.Amount.String()))
		if !in.TaxTakenOff.IsZero() {
			fmt.Fprintf(b, ", tax taken off %s", records.Pounds(in.TaxTakenOff.String()))
		}
		fmt.Fprintln(b)
		parts := make([]string, len(in.Sources))
		for k, s := range in.Sources {
			parts[k] = s.Ticker + " " + records.Pounds(s.Amount.String())
		}
		fmt.Fprintf(b, "      from %s\n      %s\n", strings.Join(parts, ", "), in.Note)
	}
}

func writeHoldings(b *bufio.Writer, rep *engine.Report) {
	if len(rep.Holdings) == 0 {
		return
	}
	fmt.Fprintln(b, "\nHOLDINGS at the end of the ledger (Section 104 pools)")
	fmt.Fprintf(b, "    %-12s %14s %14s %14s\n", "Security", "Quantity", "Cost", "Average cost")
	for _, h := range rep.Holdings {
		fmt.Fprintf(b, "    %-12s %14s %14s %14s\n", clip(h.Ticker, 12), h.Quantity.String(), records.Pounds(h.Cost.String()), "£"+h.AverageCost.String())
		if n, ok := rep.SecurityNames[h.Ticker]; ok {
			fmt.Fprintf(b, "      %s: %s (the broker's name; the ticker is made from it)\n", h.Ticker, n)
		}
	}
}

// writeSetAside lists what the totals leave out: transactions in tax wrappers, disposals of
// exempt securities, offshore income gains and transfers to a spouse.
func writeSetAside(b *bufio.Writer, rep *engine.Report) {
	if len(rep.Excluded) > 0 {
		fmt.Fprintf(b, "\nOUTSIDE CGT: %d transactions in tax-free accounts (ISA, LISA, JISA, SIPP), not counted\n", len(rep.Excluded))
		for _, e := range rep.Excluded[:min(len(rep.Excluded), 5)] {
			fmt.Fprintf(b, "    %s %s %s in %s (%s)\n", e.Date, e.Action, e.Ticker, e.Account, e.Type)
		}
		if n := len(rep.Excluded) - 5; n > 0 {
			fmt.Fprintf(b, "    and %d more\n", n)
		}
	}
	setAside(b, "EXEMPT (gilts and qualifying corporate bonds, TCGA92 s115): not counted", rep.ExemptDisposals)
	setAside(b, "OFFSHORE INCOME GAINS (non-reporting funds): income, on the SA106, not the SA108", rep.OffshoreIncomeGains)
	setAside(b, "NO GAIN, NO LOSS (transfers to a spouse or civil partner, TCGA92 s58)", rep.NoGainNoLoss)
	writeExcessIncome(b, rep.ExcessIncome)
}

// writeExcessIncome lists every excess reportable income figure applied: the fund, the
// period, the figure per unit, the units, the rate and the pounds, and where it went.
func writeExcessIncome(b *bufio.Writer, rows []engine.ExcessIncome) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(b, "\nFUND INCOME: excess reportable income of offshore reporting funds (SI 2009/3001 reg 94; added to cost, reg 99)")
	for _, r := range rows {
		what := "bundled table"
		if r.Source != nil {
			what = "ledger line " + r.Source.String()
		}
		if r.Origin == engine.OriginBundled {
			what = fmt.Sprintf("period to %s, %s %s per unit × %s units = %s %s", r.PeriodEnd, r.PerUnit, r.Currency, r.Units, r.Amount, r.Currency)
		}
		if r.Rate != "" {
			what += " at " + r.Rate + " per £1"
		}
		fmt.Fprintf(b, "    %s  %-8s %s  %s: %s, income of %s", r.DistributionDate, clip(r.Ticker, 8), r.ISIN, what, records.Pounds(r.GBP.String()), r.TaxYear)
		if !r.ToDisposals.IsZero() {
			fmt.Fprintf(b, " (%s added to disposals before this date)", records.Pounds(r.ToDisposals.String()))
		}
		fmt.Fprintln(b)
	}
}

func setAside(b *bufio.Writer, title string, ds []engine.Disposal) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", title)
	for i := range ds {
		d := &ds[i]
		fmt.Fprintf(b, "    %s  %-12s %12s  proceeds %s, cost %s, gain %s\n", d.Date, clip(d.Ticker, 12), d.Quantity.String(),
			records.Pounds(d.Proceeds.String()), records.Pounds(d.AllowableCost.String()), records.Pounds(d.Gain.String()))
	}
}

func writeNotes(b *bufio.Writer, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintln(b, "\nCHECK THESE")
	for _, w := range warnings {
		fmt.Fprintf(b, "  - %s\n", w)
	}
}

// rules names the identification rules of a disposal as people say them.
func rules(d *engine.Disposal) string {
	switch {
	case d.Kind == engine.KindCapitalDistribution:
		return "part disposal (s122)"
	case d.Kind == engine.KindNegligible:
		return "negligible value claim (s24(2))"
	case d.Reference == engine.RefOffshoreLoss:
		return "non-reporting fund at a loss: a capital loss (reg 42)"
	}
	names := make([]string, 0, len(d.Rules))
	for _, r := range d.Rules {
		switch r {
		case engine.RuleSameDay:
			names = append(names, "same day")
		case engine.RuleBedAndBreakfast:
			names = append(names, "30 days")
		case engine.RuleSection104:
			names = append(names, "Section 104")
		case engine.RulePartDisposal:
			names = append(names, "part disposal")
		default:
			names = append(names, r)
		}
	}
	return strings.Join(names, " + ")
}

func where(s engine.SourceRef) string {
	switch {
	case s.File != "" && s.Line > 0:
		return fmt.Sprintf("%s line %d", s.File, s.Line)
	case s.Line > 0:
		return fmt.Sprintf("line %d", s.Line)
	case s.Index != nil:
		return fmt.Sprintf("transaction %d", *s.Index+1)
	}
	return "the ledger"
}

// percent writes a rate fraction as a percentage: 0.24 → 24%, 0.1 → 10%.
func percent(r model.Decimal) string {
	return r.Exact().Shift(2).String() + "%"
}

// group writes a plain decimal with thousands separators: 12345.60 → 12,345.60.
func group(s string) string {
	return strings.TrimPrefix(records.Pounds(s), "£")
}

func longDate(d model.Date) string { return d.Time().Format("2 January 2006") }

func shortDate(d model.Date) string { return d.Time().Format("2 Jan 2006") }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
