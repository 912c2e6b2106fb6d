package reportview

import (
	"fmt"
	"io"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/plan"
)

// The plans for people (`--output text` of plan.sale, plan.allowance and plan.harvest): what
// to sell, what it realises and what it leaves, in pounds, then the notes and the line that
// says it is a projection.

// PlanSale writes a planned sale.
func PlanSale(w io.Writer, r plan.SaleResult, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Sell %s %s at %s on %s: ", r.Quantity.Exact(), r.Ticker, priceText(r.PriceGiven()), r.Date)
	if r.OffshoreIncome != nil {
		fmt.Fprintf(&b, "offshore income gain %s, taxed as income, not as a capital gain", r.OffshoreIncome.GBP())
	} else if r.Gain.Sign() < 0 {
		fmt.Fprintf(&b, "loss %s", model.NewMoney(r.Gain.Exact().Neg()).GBP())
	} else {
		fmt.Fprintf(&b, "gain %s", r.Gain.GBP())
	}
	fmt.Fprintf(&b, "; %s of your allowance left (%s before).\n", r.After.ExemptLeft.GBP(), r.Before.ExemptLeft.GBP())
	if r.OffshoreIncome != nil && r.IncomeTax != nil {
		fmt.Fprintf(&b, "Income tax on the offshore income gain at your marginal rates: %s.\n", r.IncomeTax.GBP())
	}
	fmt.Fprintf(&b, "Tax year %s: net gain %s -> %s; taxable gain %s -> %s.\n", r.TaxYear, r.Before.NetGain.GBP(), r.After.NetGain.GBP(),
		r.Before.TaxableGain.GBP(), r.After.TaxableGain.GBP())
	if r.TaxCost != nil {
		fmt.Fprintf(&b, "Capital Gains Tax: %s -> %s.\n", r.Before.Tax.GBP(), r.After.Tax.GBP())
	}
	totalsText(&b, r.Gain, r.Totals, r.After)
	if r.Disposal != nil && len(r.Disposal.Rules) > 0 {
		fmt.Fprintf(&b, "Matched by: %s.\n", strings.Join(r.Disposal.Rules, ", "))
	}
	fmt.Fprintf(&b, "Do not buy %s back before %s unless in an ISA (the 30-day rule would match it).\n", r.Ticker, r.SafeRebuy)
	fmt.Fprintf(&b, "Ledger line: %s\n", r.Line)
	return finishPlan(w, &b, warnings)
}

// PlanAllowance writes the allowance used and left, with each holding's unrealised gain.
func PlanAllowance(w io.Writer, r plan.AllowanceResult, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Tax year %s, as of %s\n", r.TaxYear, r.Date)
	fmt.Fprintf(&b, "  Realised so far        %12s  net gain (%d disposal%s; gains %s, losses %s)\n", r.NetGain.GBP(), r.DisposalCount, plural(r.DisposalCount), r.Gains.GBP(), r.Losses.GBP())
	fmt.Fprintf(&b, "  Annual exempt amount   %12s\n", r.AnnualExemptAmount.GBP())
	fmt.Fprintf(&b, "  Left to use            %12s\n", r.ExemptLeft.GBP())
	fmt.Fprintf(&b, "  Losses available       %12s  (brought forward; used only on gains above the exempt amount)\n", r.LossesAvailable.GBP())
	fmt.Fprintf(&b, "  Losses used            %12s\n", r.LossesUsed.GBP())
	fmt.Fprintf(&b, "  Losses carried forward %12s  (after the year)\n", r.LossesCarried.GBP())
	if r.Tax != nil {
		fmt.Fprintf(&b, "  Capital Gains Tax      %12s  (on the gains so far)\n", r.Tax.GBP())
	}
	if len(r.Holdings) > 0 {
		b.WriteString("Holdings\n")
		for _, h := range r.Holdings {
			fmt.Fprintf(&b, "  %-10s %12s shares  cost %12s", h.Ticker, h.Quantity.Exact(), h.Cost.GBP())
			switch {
			case h.OffshoreIncome != nil:
				fmt.Fprintf(&b, "  at %s: offshore income gain %s (non-reporting fund: income)", h.Price, h.OffshoreIncome.GBP())
			case h.Gain != nil:
				fmt.Fprintf(&b, "  at %s: unrealised %s", h.Price, h.Gain.GBP())
			}
			if h.NonReporting && h.OffshoreIncome == nil {
				b.WriteString("  (non-reporting fund)")
			}
			b.WriteString("\n")
		}
	}
	for _, o := range r.OpenWindows {
		fmt.Fprintf(&b, "30-day window open: %s %s sold on %s; buying it back up to %s is matched with that sale (safe from %s).\n", o.Open.Exact(), o.Ticker, o.SaleDate, o.Until, o.SafeRebuy)
	}
	return finishPlan(w, &b, warnings)
}

// PlanHarvest writes the sales a harvest suggests and where they leave the year.
func PlanHarvest(w io.Writer, r plan.HarvestResult, warnings []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Tax year %s: net gain so far %s; target %s", r.TaxYear, r.Before.NetGain.GBP(), r.Target.GBP())
	if r.Margin.Sign() > 0 {
		fmt.Fprintf(&b, ", less a margin of %s", r.Margin.GBP())
	}
	b.WriteString(".\n")
	for _, s := range r.Sales {
		word, amt := "gain", s.Gain
		if amt.Sign() < 0 {
			word, amt = "loss", model.NewMoney(amt.Exact().Neg())
		}
		fmt.Fprintf(&b, "Sell %s %s at %s: %s %s", s.Quantity.Exact(), s.Ticker, priceText(s.PriceGiven()), word, amt.GBP())
		if s.WholeHolding {
			b.WriteString(" (the whole holding)")
		}
		b.WriteString(".\n")
	}
	if len(r.Sales) == 0 {
		b.WriteString("Nothing to sell.\n")
	}
	totalsText(&b, r.Realised, r.Totals, r.After)
	fmt.Fprintf(&b, "After the sales on %s: net gain %s; %s of your allowance left.\n", r.Date, r.After.NetGain.GBP(), r.After.ExemptLeft.GBP())
	if len(r.Sales) > 0 {
		fmt.Fprintf(&b, "%s\n", r.Defeats)
		b.WriteString("Ledger lines, once sold:\n")
		for _, l := range strings.Split(r.Lines, "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return finishPlan(w, &b, warnings)
}

// finishPlan adds the notes and the projection line, and writes the plan.
func finishPlan(w io.Writer, b *strings.Builder, warnings []string) error {
	for _, wn := range warnings {
		fmt.Fprintf(b, "note: %s\n", wn)
	}
	b.WriteString(plan.Note + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// totalsText says what a plan realises, in the words of its result.
func totalsText(b *strings.Builder, gain model.Money, t plan.Totals, after plan.Figures) {
	word, amt := "a capital gain of", gain
	if gain.Sign() < 0 {
		word, amt = "a capital loss of", model.NewMoney(gain.Exact().Neg())
	}
	switch {
	case t.OffshoreIncome != nil && gain.Sign() == 0:
		fmt.Fprintf(b, "In total: an offshore income gain of %s (a non-reporting fund: income, not a capital gain) on proceeds of %s.\n", t.OffshoreIncome.GBP(), t.Proceeds.GBP())
	case t.OffshoreIncome != nil:
		fmt.Fprintf(b, "In total: %s %s, and an offshore income gain of %s (a non-reporting fund: income), on proceeds of %s.\n", word, amt.GBP(), t.OffshoreIncome.GBP(), t.Proceeds.GBP())
	default:
		fmt.Fprintf(b, "In total: %s %s on proceeds of %s.\n", word, amt.GBP(), t.Proceeds.GBP())
	}
	fmt.Fprintf(b, "Losses brought forward: %s available, %s used this year, %s carried forward after.\n",
		after.LossesAvailable.GBP(), after.LossesUsed.GBP(), after.LossesCarried.GBP())
	if t.TaxCost == nil || after.Tax == nil {
		return
	}
	fmt.Fprintf(b, "Tax: Capital Gains Tax for the year %s after the sales", after.Tax.GBP())
	if t.IncomeTax != nil {
		fmt.Fprintf(b, ", plus income tax of %s on the offshore income gain", t.IncomeTax.GBP())
	}
	fmt.Fprintf(b, "; the sales cost %s in tax.\n", t.TaxCost.GBP())
}

// priceText writes a price for people: £98.20, $230.00, 9820 GBX.
func priceText(p plan.Price) string {
	switch p.Currency {
	case model.GBP:
		return "£" + model.Grouped(p.Amount)
	case "USD":
		return "$" + model.Grouped(p.Amount)
	}
	return p.Amount.String() + " " + p.Currency
}

// plural is "s" for any count but one.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
