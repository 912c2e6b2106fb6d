package engine

import (
	"bytes"
	"runtime"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
	"github.com/cgt-tools/cgt/cgt/internal/wide"

	"github.com/cgt-tools/cgt/cgt/model"
	json "github.com/cgt-tools/cgt/internal/jsonx"
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

// Prose gives the steps for the text and dense renderings (records.Proser): Explain.
func (m *Match) Prose() []string { return m.Explain() }

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
	// Without HTML escaping, as every other value of the report is written: a file named
	// "M&G.cgt" is written the same inside a match as in the disposal that holds it.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(plain(m)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// lines writes the steps of one leg.
func (m *Match) lines() []string {
	var t stepText
	t.write(m)
	out := make([]string, len(t.ends))
	text := string(t.buf) // one string for all the lines, which share it
	from := 0
	for i, end := range t.ends {
		out[i], from = text[from:end], end
	}
	return out
}

// stepText holds the steps of one leg written end to end, and where each line ends. The JSON
// writer reuses one for every match, so writing the steps allocates nothing; it has the lines
// written straight into its output as the strings of a JSON array (sep set), so they are not
// copied there afterwards.
type stepText struct {
	buf  []byte
	ends []int
	figs figures
	sep  string // after each line when the lines are a JSON array's elements: `",` and the next line's start
}

// reset starts the lines of another leg after what buf holds.
func (t *stepText) reset() { t.ends = t.ends[:0] }

// figures remembers the plain string forms of the last amounts and quantities written (up
// to figureSlots of each), so that a figure a disposal's JSON and its steps both show is
// formatted once: a match's cost appears up to four times, the pool's cost three. A value
// is found only under the same representation (coefficient and exponent), which is what
// the engine hands out for one figure; another representation of an equal value is simply
// formatted again.
type figures struct {
	text  []byte
	money slots[model.Money]
	qty   slots[model.Decimal]
}

// slots are the last figureSlots values of one kind and where their forms sit in text.
type slots[T comparable] struct {
	keys [figureSlots]T
	at   [figureSlots][2]int32
	n    int
}

// figureSlots is how many figures of each kind are remembered; a disposal rarely shows more
// distinct ones.
const figureSlots = 16

// forget starts over, for the next disposal.
func (f *figures) forget() { f.text, f.money.n, f.qty.n = f.text[:0], 0, 0 }

// moneyDigits is m's plain form, rounded to pence ("-1234.50").
func (f *figures) moneyDigits(m model.Money) []byte { return remember(f, &f.money, m) }

// qtyDigits is d's exact plain form ("1234.5").
func (f *figures) qtyDigits(d model.Decimal) []byte { return remember(f, &f.qty, d) }

// remember returns v's plain form from the slots, writing it into text when it is not there.
func remember[T interface {
	comparable
	AppendString([]byte) []byte
}](f *figures, s *slots[T], v T) []byte {
	for i := range min(s.n, figureSlots) {
		if s.keys[i] == v {
			return f.text[s.at[i][0]:s.at[i][1]]
		}
	}
	from := len(f.text)
	f.text = v.AppendString(f.text)
	k := s.n % figureSlots
	s.keys[k], s.at[k] = v, [2]int32{int32(from), int32(len(f.text))}
	s.n++
	return f.text[from:]
}

// end closes the line written since the last one (and, in a JSON array, opens the next).
func (t *stepText) end() {
	t.ends = append(t.ends, len(t.buf))
	t.buf = append(t.buf, t.sep...)
}

func (t *stepText) str(s string) *stepText { t.buf = append(t.buf, s...); return t }

// write writes the lines of one leg. The figures are written from the model values' own
// string forms, which give what decimal.Decimal would (exact for shares and averages, pence
// rounded half away from zero for money) without converting each one.
func (t *stepText) write(m *Match) {
	t.reset()
	q := m.Quantity
	s := m.recipe
	var acqDate model.Date
	var acqUsed, acqQty model.Decimal
	var acqCost model.Money
	if s != nil {
		// the acquisition's shares used: the match's own, unless a split came between
		acqDate, acqUsed, acqQty, acqCost = *m.AcquisitionDate, q, s.acqQty.quantity(), s.acqCost.money()
		if m.AcquisitionQuantity != nil {
			acqUsed = *m.AcquisitionQuantity
		}
	}
	switch m.Rule {
	case RuleSameDay:
		t.str("same-day acquisition on ").date(acqDate).str(": ").shares(acqQty).str(" for ").gbp(acqCost).str(" in total (" + RefSameDay + ")").end()
		t.str("cost = ").shares(acqUsed).str(" × ").gbp(acqCost).str(" ÷ ").shares(acqQty).share(acqUsed, acqCost, acqQty, m.Cost, "cost").end()
	case RuleBedAndBreakfast:
		t.str("acquisition on ").date(acqDate).str(", within 30 days after the disposal: ").
			shares(acqQty).str(" for ").gbp(acqCost).str(" in total (" + RefBedAndBreakfast + ")").end()
		if f := s.split; f != nil {
			t.str("a split or consolidation in between: 1 share then = ").qty(f.num.divRound(f.den, divPlaces).quantity()).
				str(" shares now, so ").shares(acqUsed).str(" acquired match ").shares(q).str(" disposed of").end()
		}
		t.str("cost = ").shares(acqUsed).str(" × ").gbp(acqCost).str(" ÷ ").shares(acqQty).share(acqUsed, acqCost, acqQty, m.Cost, "cost").end()
	default:
		before, after := m.PoolBefore, m.PoolAfter
		t.str("Section 104 pool before: ").shares(before.Quantity).str(" costing ").gbp(before.Cost).
			str(" (average ").gbpExact(*m.AverageCost).str(" a share) (" + RefSection104 + ")").end()
		t.str("cost = ").shares(q).str(" × ").gbp(before.Cost).str(" ÷ ").shares(before.Quantity).share(q, before.Cost, before.Quantity, m.Cost, "cost").end()
		t.str("pool after: ").shares(after.Quantity).str(" costing ").gbp(after.Cost).end()
	}
	if sale := m.disposal; !numOfDecimal(q).equal(numOfDecimal(sale.Quantity)) {
		t.str("proceeds = ").shares(q).str(" × ").gbp(sale.Proceeds).str(" ÷ ").shares(sale.Quantity).share(q, sale.Proceeds, sale.Quantity, m.Proceeds, "proceeds").end()
		t.str("sale fees = ").shares(q).str(" × ").gbp(sale.SaleFees).str(" ÷ ").shares(sale.Quantity).share(q, sale.SaleFees, sale.Quantity, m.SaleFees, "sale fees").end()
	}
	// The gain as written: the terms as shown (to the penny), so the line adds up as it reads.
	shown := pence(m.Proceeds).sub(pence(m.SaleFees)).sub(pence(m.Cost))
	t.str("gain = ").gbp(m.Proceeds).str(" − ").gbp(m.SaleFees).str(" − ").gbp(m.Cost).str(" = ").gbpPence(shown)
	if exact := numOfMoney(m.Gain).round(2); !exact.equal(shown) {
		t.str(" (").gbp(m.Gain).str(" from the figures before rounding: the gain used)")
	}
	t.end()
}

// share ends a line "N × £total ÷ M" with its result worked from the figures as shown (the
// total to the penny), and, when the figure used (worked from the unrounded total) differs,
// that figure too: every line adds up as it reads.
func (t *stepText) share(n model.Decimal, total model.Money, of model.Decimal, used model.Money, what string) *stepText {
	shown := numOfDecimal(n).mul(pence(total)).divRound(numOfDecimal(of), 2)
	t.str(" = ").gbpPence(shown)
	if exact := numOfMoney(used).round(2); !exact.equal(shown) {
		t.str(" (").gbp(used).str(" from the figures before rounding: the " + what + " used)")
	}
	return t
}

func (t *stepText) date(d model.Date) *stepText { t.buf = d.AppendString(t.buf); return t }

// shares writes a share count with its unit.
func (t *stepText) shares(d model.Decimal) *stepText {
	digits := t.figs.qtyDigits(d)
	if isOne(digits) {
		return t.str("1 share")
	}
	t.buf = appendGrouped(t.buf, digits)
	return t.str(" shares")
}

// isOne reports whether a plain decimal string is the number one ("1", "1.000").
func isOne(s []byte) bool {
	if len(s) == 0 || s[0] != '1' {
		return false
	}
	if len(s) == 1 {
		return true
	}
	if s[1] != '.' {
		return false
	}
	for _, c := range s[2:] {
		if c != '0' {
			return false
		}
	}
	return true
}

// qty writes an exact quantity with thousands separators.
func (t *stepText) qty(d model.Decimal) *stepText {
	t.buf = appendGrouped(t.buf, t.figs.qtyDigits(d))
	return t
}

// gbp writes a GBP amount rounded to pence, half away from zero, with separators; the sign
// is the exact amount's, so a loss under a halfpenny reads −£0.00.
func (t *stepText) gbp(m model.Money) *stepText {
	return t.pounds(m.Sign(), t.figs.moneyDigits(m))
}

// gbpPence writes a figure worked to pence (by round or divRound to 2 places) as gbp writes it,
// straight from its coefficient rather than through a model.Money.
func (t *stepText) gbpPence(n num) *stepText {
	if n.big != nil || n.exp != -model.MoneyPlaces || n.hi>>32 != 0 {
		return t.gbp(n.money())
	}
	var digits [48]byte
	return t.pounds(n.sign(), wide.AppendString(digits[:0], false, n.hi, n.lo, n.exp, false))
}

// gbpExact writes a GBP amount at its own precision.
func (t *stepText) gbpExact(d model.Decimal) *stepText {
	return t.pounds(d.Sign(), t.figs.qtyDigits(d))
}

// pounds writes −£ (for a negative sign) or £ and the figure's digits without their own sign.
func (t *stepText) pounds(sign int, digits []byte) *stepText {
	if sign < 0 {
		t.buf = append(t.buf, "−"...)
	}
	t.buf = append(t.buf, "£"...)
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	t.buf = appendGrouped(t.buf, digits)
	return t
}

// appendGrouped appends a plain decimal string with thousands separators in its integer part.
// The steps of a large report write millions of figures: most have three digits or fewer
// before the point and are appended whole; the rest are written into room made once, a
// group of three digits at a time.
func appendGrouped(b, s []byte) []byte {
	if len(s) > 0 && s[0] == '-' {
		b = append(b, '-')
		s = s[1:]
	}
	intLen := len(s)
	for i, c := range s {
		if c == '.' {
			intLen = i
			break
		}
	}
	if intLen <= 3 {
		return append(b, s...)
	}
	n := len(b)
	b = append(b, make([]byte, len(s)+(intLen-1)/3)...) // room for the grouped digits, filled below
	out := b[n:]
	j := copy(out, s[:(intLen-1)%3+1])
	for i := j; i < intLen; i, j = i+3, j+4 {
		out[j], out[j+1], out[j+2], out[j+3] = ',', s[i], s[i+1], s[i+2]
	}
	copy(out[j:], s[intLen:])
	return b
}

// shares and gbp are the string forms of the stepText writers, for lines written once (a
// reorganisation's, a transfer's).
func shares(d model.Decimal) string { var t stepText; return string(t.shares(d).buf) }
func gbp(m model.Money) string      { var t stepText; return string(t.gbp(m).buf) }
