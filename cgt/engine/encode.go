package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/jsontext"
)

// The report's per-row types write their own JSON: a large report has millions of disposals,
// matches and pool events, and encoding/json's reflection over them (and its second pass
// over each match, marshalled by Match.MarshalJSON, compacted and re-indented) cost most of
// the time a report took to write. The writers below produce exactly the bytes encoding/json
// produces for the same values (a test compares the two on generated ledgers), including
// its one quirk here: a match's strings are escaped for HTML (<, >, & as \u003c, \u003e,
// \u0026), because Match.MarshalJSON goes through json.Marshal, and nothing else's are.

// AppendJSON appends the disposal's JSON as encoding/json writes it with the envelope
// writer's settings (no HTML escaping): indented by two spaces a level from level, the first
// line not indented (it follows a key or an array's bracket), or on one line when indent is
// false. Steps of its matches are written straight into b, not kept.
func (d *Disposal) AppendJSON(b []byte, level int, indent bool) []byte {
	w := getWriter(b, indent)
	w.disposal(d, level)
	return w.release()
}

// AppendJSON appends the pool event's JSON; see Disposal.AppendJSON.
func (e *PoolEvent) AppendJSON(b []byte, level int, indent bool) []byte {
	w := getWriter(b, indent)
	w.poolEvent(e, level)
	return w.release()
}

// AppendJSON appends the match's JSON; see Disposal.AppendJSON.
func (m *Match) AppendJSON(b []byte, level int, indent bool) []byte {
	w := getWriter(b, indent)
	w.match(m, level)
	return w.release()
}

// AppendJSON appends the holding's JSON; see Disposal.AppendJSON.
func (h *Holding) AppendJSON(b []byte, level int, indent bool) []byte {
	w := getWriter(b, indent)
	w.holding(h, level)
	return w.release()
}

// AppendJSON appends the excluded transaction's JSON; see Disposal.AppendJSON.
func (x *ExcludedTransaction) AppendJSON(b []byte, level int, indent bool) []byte {
	w := getWriter(b, indent)
	o := w.object(level)
	o.key(kTicker)
	w.str(x.Ticker)
	o.key(kDate)
	w.b = x.Date.AppendJSON(w.b)
	o.key(kAction)
	w.str(x.Action)
	o.key(kAccount)
	w.str(x.Account)
	o.key(kAccountType)
	w.str(x.Type)
	o.key(kSource)
	w.source(&x.Source, level+1)
	o.close()
	return w.release()
}

// jsonWriter appends JSON to b; steps is its scratch for a match's explanation lines, and
// file the quoted form of the last ledger file name written (every source of a report from
// one file names it).
type jsonWriter struct {
	b      []byte
	indent bool
	steps  stepText
	// sep is stepsSep's last answer, at sepLevel
	sep      string
	sepLevel int
	file     struct {
		name   string
		quoted []byte
	}
}

var writers = sync.Pool{New: func() any { return new(jsonWriter) }}

func getWriter(b []byte, indent bool) *jsonWriter {
	w := writers.Get().(*jsonWriter)
	w.b, w.indent = b, indent
	w.steps.figs.forget()
	return w
}

// release returns what was written and puts the writer back for reuse.
func (w *jsonWriter) release() []byte {
	b := w.b
	w.b = nil
	writers.Put(w)
	return b
}

// stepsSep is what separates two lines of a match's steps written as the strings of a JSON
// array whose elements are at level: the closing quote, the comma, the new line's indentation
// and its opening quote.
func (w *jsonWriter) stepsSep(level int) string {
	if !w.indent {
		return `","`
	}
	if 2*level < len(indentSpaces) {
		if w.sepLevel != level || w.sep == "" {
			w.sepLevel, w.sep = level, `",`+indentSpaces[:1+2*level]+`"`
		}
		return w.sep
	}
	return `",` + "\n" + strings.Repeat("  ", level) + `"`
}

// newline starts a line at the given level (nothing when compact).
func (w *jsonWriter) newline(level int) {
	if !w.indent {
		return
	}
	if 2*level < len(indentSpaces) {
		w.b = append(w.b, indentSpaces[:1+2*level]...)
		return
	}
	w.b = append(w.b, '\n')
	for range level {
		w.b = append(w.b, ' ', ' ')
	}
}

// indentSpaces is a newline and enough spaces for the levels a report reaches.
const indentSpaces = "\n                                "

// object is an object being written at a level; key starts each member.
type object struct {
	w     *jsonWriter
	level int
	n     int
}

func (w *jsonWriter) object(level int) object {
	w.b = append(w.b, '{')
	return object{w: w, level: level}
}

// key writes the next member's key with what comes before it (see member).
func (o *object) key(k memberKey) {
	w, m := o.w, &members[k]
	var s string
	switch {
	case !w.indent:
		s = m.compact
	case o.level < len(m.indented):
		s = m.indented[o.level]
	default: // deeper than any report goes
		if o.n > 0 {
			w.b = append(w.b, ',')
		}
		o.n++
		w.newline(o.level + 1)
		w.b = append(append(append(w.b, '"'), m.name...), `": `...)
		return
	}
	if o.n == 0 {
		s = s[1:] // the first member: no comma
	}
	o.n++
	w.b = append(w.b, s...)
}

// member is an object member's key written out with everything before it: the comma after
// the member before, the new line and indentation of a member of an object at each level
// (indented[level]; compact: none), the quoted key, the colon and, indented, a space. Keys
// are plain ASCII names, written as they are. A report writes some sixty keys for each
// disposal: one append of a whole piece costs a fraction of the five it takes to write
// the parts one by one.
type member struct {
	name     string
	compact  string
	indented [(len(indentSpaces) - 1) / 2]string // members of objects at levels 0–15
}

func newMember(name string) member {
	m := member{name: name, compact: `,"` + name + `":`}
	for level := range m.indented {
		m.indented[level] = "," + indentSpaces[:1+2*(level+1)] + `"` + name + `": `
	}
	return m
}

// memberKey names one of the members the report's rows write; members holds them written out.
type memberKey uint8

const (
	kAccount memberKey = iota
	kAccountType
	kAcquisitionDate
	kAcquisitionQuantity
	kAction
	kAdjustments
	kAllowableCost
	kAmount
	kAverageCost
	kConsideration
	kCost
	kCostChange
	kCurrency
	kDate
	kEvent
	kFees
	kFile
	kGain
	kGbp
	kIdentifiedCost
	kIndex
	kKind
	kLine
	kMatches
	kOriginal
	kPoolAfter
	kPoolBefore
	kPrice
	kProceeds
	kQuantity
	kQuantityChange
	kRate
	kRatePeriod
	kReason
	kReference
	kRule
	kRules
	kSaleFees
	kSource
	kSources
	kSteps
	kTicker
	memberKeys // how many there are
)

var members = func() (ms [memberKeys]member) {
	for k, name := range [memberKeys]string{
		kAccount:             "account",
		kAccountType:         "account_type",
		kAcquisitionDate:     "acquisition_date",
		kAcquisitionQuantity: "acquisition_quantity",
		kAction:              "action",
		kAdjustments:         "adjustments",
		kAllowableCost:       "allowable_cost",
		kAmount:              "amount",
		kAverageCost:         "average_cost",
		kConsideration:       "consideration",
		kCost:                "cost",
		kCostChange:          "cost_change",
		kCurrency:            "currency",
		kDate:                "date",
		kEvent:               "event",
		kFees:                "fees",
		kFile:                "file",
		kGain:                "gain",
		kGbp:                 "gbp",
		kIdentifiedCost:      "identified_cost",
		kIndex:               "index",
		kKind:                "kind",
		kLine:                "line",
		kMatches:             "matches",
		kOriginal:            "original",
		kPoolAfter:           "pool_after",
		kPoolBefore:          "pool_before",
		kPrice:               "price",
		kProceeds:            "proceeds",
		kQuantity:            "quantity",
		kQuantityChange:      "quantity_change",
		kRate:                "rate",
		kRatePeriod:          "rate_period",
		kReason:              "reason",
		kReference:           "reference",
		kRule:                "rule",
		kRules:               "rules",
		kSaleFees:            "sale_fees",
		kSource:              "source",
		kSources:             "sources",
		kSteps:               "steps",
		kTicker:              "ticker",
	} {
		ms[k] = newMember(name)
	}
	return ms
}()

func (o *object) close() {
	if o.n > 0 {
		o.w.newline(o.level)
	}
	o.w.b = append(o.w.b, '}')
}

// elem starts the i-th element of an array at level: its bracket or separator and new line.
func (w *jsonWriter) elem(level, i int) {
	if i == 0 {
		w.b = append(w.b, '[')
	} else {
		w.b = append(w.b, ',')
	}
	w.newline(level + 1)
}

// endArray closes an array of n elements.
func (w *jsonWriter) endArray(level, n int) {
	if n == 0 {
		w.b = append(w.b, '[', ']')
		return
	}
	w.newline(level)
	w.b = append(w.b, ']')
}

// money and quantity write a figure a match's steps may show as well, through the writer's
// memory of the figures of the row (see figures).
func (w *jsonWriter) money(m model.Money) {
	w.b = append(w.b, '"')
	w.b = append(w.b, w.steps.figs.moneyDigits(m)...)
	w.b = append(w.b, '"')
}

func (w *jsonWriter) quantity(d model.Decimal) {
	w.b = append(w.b, '"')
	w.b = append(w.b, w.steps.figs.qtyDigits(d)...)
	w.b = append(w.b, '"')
}

func (w *jsonWriter) null() { w.b = append(w.b, "null"...) }

func (w *jsonWriter) str(s string) { w.b = jsontext.AppendString(w.b, s, false) }

func (w *jsonWriter) strings(ss []string, level int) {
	if ss == nil {
		w.null()
		return
	}
	for i, s := range ss {
		w.elem(level, i)
		w.str(s)
	}
	w.endArray(level, len(ss))
}

func (w *jsonWriter) disposal(d *Disposal, level int) {
	o := w.object(level)
	o.key(kDate)
	w.b = d.Date.AppendJSON(w.b)
	o.key(kTicker)
	w.str(d.Ticker)
	o.key(kQuantity)
	w.quantity(d.Quantity)
	o.key(kProceeds)
	w.money(d.Proceeds)
	o.key(kSaleFees)
	w.money(d.SaleFees)
	o.key(kIdentifiedCost)
	w.money(d.IdentifiedCost)
	o.key(kAllowableCost)
	w.money(d.AllowableCost)
	o.key(kGain)
	w.money(d.Gain)
	o.key(kRules)
	w.strings(d.Rules, level+1)
	if d.Kind != "" {
		o.key(kKind)
		w.str(d.Kind)
	}
	if d.Reference != "" {
		o.key(kReference)
		w.str(d.Reference)
	}
	if len(d.Adjustments) > 0 {
		o.key(kAdjustments)
		for i := range d.Adjustments {
			w.elem(level+1, i)
			w.adjustment(&d.Adjustments[i], level+2)
		}
		w.endArray(level+1, len(d.Adjustments))
	}
	o.key(kSource)
	w.source(&d.Source, level+1)
	o.key(kSources)
	w.sources(d.Sources, level+1)
	if len(d.Original) > 0 {
		o.key(kOriginal)
		for i := range d.Original {
			w.elem(level+1, i)
			w.tradeLine(&d.Original[i], level+2)
		}
		w.endArray(level+1, len(d.Original))
	}
	o.key(kMatches)
	if d.Matches == nil {
		w.null()
	} else {
		for i := range d.Matches {
			w.elem(level+1, i)
			w.match(&d.Matches[i], level+2)
		}
		w.endArray(level+1, len(d.Matches))
	}
	o.close()
}

func (w *jsonWriter) adjustment(a *Adjustment, level int) {
	o := w.object(level)
	o.key(kReason)
	w.str(a.Reason)
	o.key(kReference)
	w.str(a.Reference)
	o.key(kCost)
	w.b = a.Cost.AppendJSON(w.b)
	o.key(kSource)
	w.source(&a.Source, level+1)
	o.close()
}

func (w *jsonWriter) source(s *SourceRef, level int) {
	o := w.object(level)
	if s.File != "" {
		o.key(kFile)
		w.fileName(s.File)
	}
	if s.Line != 0 {
		o.key(kLine)
		w.b = strconv.AppendInt(w.b, int64(s.Line), 10)
	}
	if s.Index != nil {
		o.key(kIndex)
		w.b = strconv.AppendInt(w.b, int64(*s.Index), 10)
	}
	o.close()
}

// fileName writes a ledger file name, quoted once for the rows that name the same file.
func (w *jsonWriter) fileName(name string) {
	if name != w.file.name || w.file.quoted == nil {
		w.file.name, w.file.quoted = name, jsontext.AppendString(w.file.quoted[:0], name, false)
	}
	w.b = append(w.b, w.file.quoted...)
}

func (w *jsonWriter) sources(ss []SourceRef, level int) {
	if ss == nil {
		w.null()
		return
	}
	for i := range ss {
		w.elem(level, i)
		w.source(&ss[i], level+1)
	}
	w.endArray(level, len(ss))
}

func (w *jsonWriter) tradeLine(t *TradeLine, level int) {
	o := w.object(level)
	o.key(kQuantity)
	w.b = t.Quantity.AppendJSON(w.b)
	o.key(kPrice)
	w.converted(&t.Price, level+1)
	o.key(kConsideration)
	w.converted(&t.Consideration, level+1)
	o.key(kFees)
	w.converted(&t.Fees, level+1)
	o.key(kSource)
	w.source(&t.Source, level+1)
	o.close()
}

func (w *jsonWriter) converted(c *Converted, level int) {
	o := w.object(level)
	o.key(kGbp)
	w.b = c.GBP.AppendJSON(w.b)
	o.key(kAmount)
	w.b = c.Amount.AppendJSON(w.b)
	o.key(kCurrency)
	w.str(c.Currency)
	if c.Rate != nil {
		o.key(kRate)
		w.b = c.Rate.AppendJSON(w.b)
	}
	if c.RatePeriod != "" {
		o.key(kRatePeriod)
		w.str(c.RatePeriod)
	}
	o.close()
}

// match writes a match as Match.MarshalJSON does: strings escaped for HTML, steps written
// from Explain when the match has none of its own, an empty list rather than null.
func (w *jsonWriter) match(m *Match, level int) {
	o := w.object(level)
	o.key(kRule)
	w.str(m.Rule)
	o.key(kReference)
	w.str(m.Reference)
	o.key(kQuantity)
	w.quantity(m.Quantity)
	if m.AcquisitionDate != nil {
		o.key(kAcquisitionDate)
		w.b = m.AcquisitionDate.AppendJSON(w.b)
	}
	if m.AcquisitionQuantity != nil {
		o.key(kAcquisitionQuantity)
		w.quantity(*m.AcquisitionQuantity)
	}
	o.key(kProceeds)
	w.money(m.Proceeds)
	o.key(kSaleFees)
	w.money(m.SaleFees)
	o.key(kCost)
	w.money(m.Cost)
	o.key(kGain)
	w.money(m.Gain)
	if m.PoolBefore != nil {
		o.key(kPoolBefore)
		w.poolState(m.PoolBefore, level+1)
	}
	if m.PoolAfter != nil {
		o.key(kPoolAfter)
		w.poolState(m.PoolAfter, level+1)
	}
	if m.AverageCost != nil {
		o.key(kAverageCost)
		w.quantity(*m.AverageCost)
	}
	o.key(kSteps)
	switch {
	case m.Steps != nil || m.disposal == nil:
		if m.Steps == nil {
			w.endArray(level+1, 0)
		} else {
			w.strings(m.Steps, level+1)
		}
	default:
		// The lines are the engine's own text, figures and dates: nothing in them is
		// escaped by encoding/json (the test against encoding/json would fail if a
		// wording ever needed it), so they are written straight into the output as they
		// are. Each line ends with the next one's opening (`",`, the new line's indentation
		// and quote), which the last line gives back but for its quote.
		w.elem(level+1, 0)
		w.b = append(w.b, '"')
		t := &w.steps
		t.buf, t.sep = w.b, w.stepsSep(level+2)
		t.write(m)
		w.b = t.buf[:len(t.buf)-len(t.sep)+1]
		t.buf = nil
		w.endArray(level+1, len(t.ends))
	}
	if len(m.Sources) > 0 {
		o.key(kSources)
		w.sources(m.Sources, level+1)
	}
	o.close()
}

func (w *jsonWriter) poolState(p *PoolState, level int) {
	o := w.object(level)
	o.key(kQuantity)
	w.quantity(p.Quantity)
	o.key(kCost)
	w.money(p.Cost)
	o.close()
}

func (w *jsonWriter) poolEvent(e *PoolEvent, level int) {
	o := w.object(level)
	o.key(kDate)
	w.b = e.Date.AppendJSON(w.b)
	o.key(kEvent)
	w.str(e.Event)
	if e.Reference != "" {
		o.key(kReference)
		w.str(e.Reference)
	}
	o.key(kQuantityChange)
	w.b = e.QuantityChange.AppendJSON(w.b)
	o.key(kCostChange)
	w.b = e.CostChange.AppendJSON(w.b)
	o.key(kQuantity)
	w.b = e.Quantity.AppendJSON(w.b)
	o.key(kCost)
	w.b = e.Cost.AppendJSON(w.b)
	o.key(kSource)
	w.source(&e.Source, level+1)
	o.close()
}

func (w *jsonWriter) holding(h *Holding, level int) {
	o := w.object(level)
	o.key(kTicker)
	w.str(h.Ticker)
	o.key(kQuantity)
	w.b = h.Quantity.AppendJSON(w.b)
	o.key(kCost)
	w.b = h.Cost.AppendJSON(w.b)
	o.key(kAverageCost)
	w.b = h.AverageCost.AppendJSON(w.b)
	o.close()
}
