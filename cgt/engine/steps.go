package engine

import (
	"encoding/json"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// stepRecipe holds the figures behind a Match's Steps. Writing the lines costs far more than
// the identification itself, so they are written only when asked for (Explain, or JSON).
type stepRecipe struct {
	acqDate                     model.Date
	acqUsed, acqQty, acqCost    decimal.Decimal // same_day, bed_and_breakfast
	num, den                    decimal.Decimal // bed_and_breakfast across a split; zero when none
	poolQty, poolCost           decimal.Decimal // section_104, before
	poolAfterQty, poolAfterCost decimal.Decimal // section_104, after
	rule                        string
	qty, proceeds, fees, cost   decimal.Decimal // the leg
	sellQty, gross, saleFees    decimal.Decimal // the whole disposal
}

// fill records the leg's own figures once the proceeds are shared out.
func (s *stepRecipe) fill(rule string, qty, proceeds, fees, cost decimal.Decimal, d *day) {
	s.rule, s.qty, s.proceeds, s.fees, s.cost = rule, qty, proceeds, fees, cost
	s.sellQty, s.gross, s.saleFees = d.sellQty, d.gross, d.fees
}

// Explain returns the match's cost arithmetic as readable lines: Steps when set, otherwise
// written from the figures the engine kept.
func (m *Match) Explain() []string {
	if m.Steps != nil || m.recipe == nil {
		return m.Steps
	}
	return m.recipe.lines()
}

// MarshalJSON writes the match with its Steps filled in.
func (m Match) MarshalJSON() ([]byte, error) {
	type plain Match // drops the method, so Marshal does not recurse
	m.Steps = m.Explain()
	if m.Steps == nil {
		m.Steps = []string{}
	}
	return json.Marshal(plain(m))
}

// lines writes the steps of one leg.
func (s *stepRecipe) lines() []string {
	var out []string
	switch s.rule {
	case RuleSameDay:
		out = append(out,
			"same-day acquisition on "+s.acqDate.String()+": "+shares(s.acqQty)+" for "+gbp(s.acqCost)+" in total ("+RefSameDay+")",
			"cost = "+shares(s.acqUsed)+" × "+gbp(s.acqCost)+" ÷ "+shares(s.acqQty)+" = "+gbp(s.cost))
	case RuleBedAndBreakfast:
		out = append(out, "acquisition on "+s.acqDate.String()+", within 30 days after the disposal: "+
			shares(s.acqQty)+" for "+gbp(s.acqCost)+" in total ("+RefBedAndBreakfast+")")
		if !s.num.IsZero() {
			out = append(out, "a split or consolidation in between: 1 share then = "+qty(s.num.DivRound(s.den, divPlaces))+
				" shares now, so "+shares(s.acqUsed)+" acquired match "+shares(s.qty)+" disposed of")
		}
		out = append(out, "cost = "+shares(s.acqUsed)+" × "+gbp(s.acqCost)+" ÷ "+shares(s.acqQty)+" = "+gbp(s.cost))
	default:
		out = append(out,
			"Section 104 pool before: "+shares(s.poolQty)+" costing "+gbp(s.poolCost)+
				" (average "+gbpExact(s.poolCost.DivRound(s.poolQty, avgPlaces))+" a share) ("+RefSection104+")",
			"cost = "+shares(s.qty)+" × "+gbp(s.poolCost)+" ÷ "+shares(s.poolQty)+" = "+gbp(s.cost),
			"pool after: "+shares(s.poolAfterQty)+" costing "+gbp(s.poolAfterCost))
	}
	if !s.qty.Equal(s.sellQty) {
		out = append(out,
			"proceeds = "+shares(s.qty)+" × "+gbp(s.gross)+" ÷ "+shares(s.sellQty)+" = "+gbp(s.proceeds),
			"sale fees = "+shares(s.qty)+" × "+gbp(s.saleFees)+" ÷ "+shares(s.sellQty)+" = "+gbp(s.fees))
	}
	return append(out, "gain = "+gbp(s.proceeds)+" − "+gbp(s.fees)+" − "+gbp(s.cost)+" = "+
		gbp(s.proceeds.Sub(s.fees).Sub(s.cost)))
}

// shares writes a share count with its unit.
func shares(d decimal.Decimal) string {
	if d.Equal(decimal.NewFromInt(1)) {
		return "1 share"
	}
	return qty(d) + " shares"
}

// qty writes an exact quantity with thousands separators.
func qty(d decimal.Decimal) string { return group(d.String()) }

// gbp writes a GBP amount rounded to pence, half away from zero, with separators.
func gbp(d decimal.Decimal) string { return sign(d) + "£" + group(d.Abs().StringFixed(2)) }

// gbpExact writes a GBP amount at its own precision.
func gbpExact(d decimal.Decimal) string { return sign(d) + "£" + group(d.Abs().String()) }

func sign(d decimal.Decimal) string {
	if d.Sign() < 0 {
		return "−"
	}
	return ""
}

// group puts thousands separators into the integer part of a plain decimal string.
func group(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	b.WriteString(frac)
	return b.String()
}
