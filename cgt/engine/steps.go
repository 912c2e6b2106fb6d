package engine

import (
	"encoding/json"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// stepRecipe holds the acquisition figures behind the Steps of a same_day or
// bed_and_breakfast Match, which the Match itself does not carry: the whole day's
// acquisition, shared by every match with it, and for a match across a split the conversion.
// Writing the lines costs far more than the identification itself, so they are written only
// when asked for (Explain, or JSON).
type stepRecipe struct {
	acqQty, acqCost num
	date            model.Date   // the acquisition's; Match.AcquisitionDate points here
	split           *splitFactor // bed_and_breakfast across a split; nil when none
}

// splitFactor converts acquisition shares into disposal shares: one share then is num/den
// shares now.
type splitFactor struct {
	num, den num
}

// Explain returns the match's cost arithmetic as readable lines: Steps when set, otherwise
// written from the figures the engine kept.
func (m *Match) Explain() []string {
	if m.Steps != nil || m.disposal == nil {
		return m.Steps
	}
	return m.lines()
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
func (m *Match) lines() []string {
	q, cost := m.Quantity.Exact(), m.Cost.Exact()
	proceeds, fees := m.Proceeds.Exact(), m.SaleFees.Exact()
	var out []string
	s := m.recipe
	var acqDate string
	var acqUsed, acqQty, acqCost decimal.Decimal
	if s != nil {
		// the acquisition's shares used: the match's own, unless a split came between
		acqDate, acqUsed, acqQty, acqCost = m.AcquisitionDate.String(), q, s.acqQty.decimal(), s.acqCost.decimal()
		if m.AcquisitionQuantity != nil {
			acqUsed = m.AcquisitionQuantity.Exact()
		}
	}
	switch m.Rule {
	case RuleSameDay:
		out = append(out,
			"same-day acquisition on "+acqDate+": "+shares(acqQty)+" for "+gbp(acqCost)+" in total ("+RefSameDay+")",
			"cost = "+shares(acqUsed)+" × "+gbp(acqCost)+" ÷ "+shares(acqQty)+" = "+gbp(cost))
	case RuleBedAndBreakfast:
		out = append(out, "acquisition on "+acqDate+", within 30 days after the disposal: "+
			shares(acqQty)+" for "+gbp(acqCost)+" in total ("+RefBedAndBreakfast+")")
		if f := s.split; f != nil {
			out = append(out, "a split or consolidation in between: 1 share then = "+qty(f.num.divRound(f.den, divPlaces).decimal())+
				" shares now, so "+shares(acqUsed)+" acquired match "+shares(q)+" disposed of")
		}
		out = append(out, "cost = "+shares(acqUsed)+" × "+gbp(acqCost)+" ÷ "+shares(acqQty)+" = "+gbp(cost))
	default:
		before, after := m.PoolBefore, m.PoolAfter
		out = append(out,
			"Section 104 pool before: "+shares(before.Quantity.Exact())+" costing "+gbp(before.Cost.Exact())+
				" (average "+gbpExact(m.AverageCost.Exact())+" a share) ("+RefSection104+")",
			"cost = "+shares(q)+" × "+gbp(before.Cost.Exact())+" ÷ "+shares(before.Quantity.Exact())+" = "+gbp(cost),
			"pool after: "+shares(after.Quantity.Exact())+" costing "+gbp(after.Cost.Exact()))
	}
	if sale := m.disposal; !q.Equal(sale.Quantity.Exact()) {
		saleQty := sale.Quantity.Exact()
		out = append(out,
			"proceeds = "+shares(q)+" × "+gbp(sale.Proceeds.Exact())+" ÷ "+shares(saleQty)+" = "+gbp(proceeds),
			"sale fees = "+shares(q)+" × "+gbp(sale.SaleFees.Exact())+" ÷ "+shares(saleQty)+" = "+gbp(fees))
	}
	return append(out, "gain = "+gbp(proceeds)+" − "+gbp(fees)+" − "+gbp(cost)+" = "+gbp(proceeds.Sub(fees).Sub(cost)))
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
