package engine

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"

	"github.com/cgt-tools/cgt/cgt/model"
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

// WriteSteps sets every match's Steps from Explain, so that renderings other than JSON carry
// them too. A large report's disposals are shared out among the processors: each match's
// lines depend only on its own figures.
func (r *Report) WriteSteps() {
	for i := range r.TaxYears {
		ds := r.TaxYears[i].Disposals
		parts := 1
		if len(ds) >= stepsParallelMin {
			parts = runtime.GOMAXPROCS(0)
		}
		fanout.Each(parts, func(w int) {
			for j := len(ds) * w / parts; j < len(ds)*(w+1)/parts; j++ {
				ms := ds[j].Matches
				for k := range ms {
					ms[k].Steps = ms[k].Explain()
				}
			}
		})
	}
}

// stepsParallelMin is the number of disposals in a tax year worth sharing out.
const stepsParallelMin = 2000

// MarshalJSON writes the match with its Steps filled in.
func (m Match) MarshalJSON() ([]byte, error) {
	type plain Match // drops the method, so Marshal does not recurse
	m.Steps = m.Explain()
	if m.Steps == nil {
		m.Steps = []string{}
	}
	return json.Marshal(plain(m))
}

// lines writes the steps of one leg. The figures are written from the model values' own
// string forms, which give what decimal.Decimal would (exact for shares and averages, pence
// rounded half away from zero for money) without converting each one.
func (m *Match) lines() []string {
	q := m.Quantity
	var out []string
	s := m.recipe
	var acqDate string
	var acqUsed, acqQty model.Decimal
	var acqCost model.Money
	if s != nil {
		// the acquisition's shares used: the match's own, unless a split came between
		acqDate, acqUsed, acqQty, acqCost = m.AcquisitionDate.String(), q, s.acqQty.quantity(), s.acqCost.money()
		if m.AcquisitionQuantity != nil {
			acqUsed = *m.AcquisitionQuantity
		}
	}
	switch m.Rule {
	case RuleSameDay:
		out = append(out,
			"same-day acquisition on "+acqDate+": "+shares(acqQty)+" for "+gbp(acqCost)+" in total ("+RefSameDay+")",
			"cost = "+shares(acqUsed)+" × "+gbp(acqCost)+" ÷ "+shares(acqQty)+" = "+gbp(m.Cost))
	case RuleBedAndBreakfast:
		out = append(out, "acquisition on "+acqDate+", within 30 days after the disposal: "+
			shares(acqQty)+" for "+gbp(acqCost)+" in total ("+RefBedAndBreakfast+")")
		if f := s.split; f != nil {
			out = append(out, "a split or consolidation in between: 1 share then = "+qty(f.num.divRound(f.den, divPlaces).quantity())+
				" shares now, so "+shares(acqUsed)+" acquired match "+shares(q)+" disposed of")
		}
		out = append(out, "cost = "+shares(acqUsed)+" × "+gbp(acqCost)+" ÷ "+shares(acqQty)+" = "+gbp(m.Cost))
	default:
		before, after := m.PoolBefore, m.PoolAfter
		out = append(out,
			"Section 104 pool before: "+shares(before.Quantity)+" costing "+gbp(before.Cost)+
				" (average "+gbpExact(*m.AverageCost)+" a share) ("+RefSection104+")",
			"cost = "+shares(q)+" × "+gbp(before.Cost)+" ÷ "+shares(before.Quantity)+" = "+gbp(m.Cost),
			"pool after: "+shares(after.Quantity)+" costing "+gbp(after.Cost))
	}
	if sale := m.disposal; !numOfDecimal(q).equal(numOfDecimal(sale.Quantity)) {
		out = append(out,
			"proceeds = "+shares(q)+" × "+gbp(sale.Proceeds)+" ÷ "+shares(sale.Quantity)+" = "+gbp(m.Proceeds),
			"sale fees = "+shares(q)+" × "+gbp(sale.SaleFees)+" ÷ "+shares(sale.Quantity)+" = "+gbp(m.SaleFees))
	}
	gain := numOfMoney(m.Proceeds).sub(numOfMoney(m.SaleFees)).sub(numOfMoney(m.Cost)).money()
	return append(out, "gain = "+gbp(m.Proceeds)+" − "+gbp(m.SaleFees)+" − "+gbp(m.Cost)+" = "+gbp(gain))
}

// shares writes a share count with its unit.
func shares(d model.Decimal) string {
	if numOfDecimal(d).equal(numInt(1)) {
		return "1 share"
	}
	return qty(d) + " shares"
}

// qty writes an exact quantity with thousands separators.
func qty(d model.Decimal) string { return group(d.String()) }

// gbp writes a GBP amount rounded to pence, half away from zero, with separators; the sign
// is the exact amount's, so a loss under a halfpenny reads −£0.00.
func gbp(m model.Money) string {
	return sign(m.Sign()) + "£" + group(strings.TrimPrefix(m.String(), "-"))
}

// gbpExact writes a GBP amount at its own precision.
func gbpExact(d model.Decimal) string {
	return sign(d.Sign()) + "£" + group(strings.TrimPrefix(d.String(), "-"))
}

func sign(s int) string {
	if s < 0 {
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
