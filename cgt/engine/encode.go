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
	o.key("ticker")
	w.str(x.Ticker)
	o.key("date")
	w.b = x.Date.AppendJSON(w.b)
	o.key("action")
	w.str(x.Action)
	o.key("account")
	w.str(x.Account)
	o.key("account_type")
	w.str(x.Type)
	o.key("source")
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

// key writes the separator, the new line and the key of the next member. Keys are plain
// ASCII names, written as they are.
func (o *object) key(k string) {
	w := o.w
	if o.n > 0 {
		w.b = append(w.b, ',')
	}
	o.n++
	w.newline(o.level + 1)
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
	if w.indent {
		w.b = append(w.b, ' ')
	}
}

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
	o.key("date")
	w.b = d.Date.AppendJSON(w.b)
	o.key("ticker")
	w.str(d.Ticker)
	o.key("quantity")
	w.quantity(d.Quantity)
	o.key("proceeds")
	w.money(d.Proceeds)
	o.key("sale_fees")
	w.money(d.SaleFees)
	o.key("identified_cost")
	w.money(d.IdentifiedCost)
	o.key("allowable_cost")
	w.money(d.AllowableCost)
	o.key("gain")
	w.money(d.Gain)
	o.key("rules")
	w.strings(d.Rules, level+1)
	if d.Kind != "" {
		o.key("kind")
		w.str(d.Kind)
	}
	if d.Reference != "" {
		o.key("reference")
		w.str(d.Reference)
	}
	if len(d.Adjustments) > 0 {
		o.key("adjustments")
		for i := range d.Adjustments {
			w.elem(level+1, i)
			w.adjustment(&d.Adjustments[i], level+2)
		}
		w.endArray(level+1, len(d.Adjustments))
	}
	o.key("source")
	w.source(&d.Source, level+1)
	o.key("sources")
	w.sources(d.Sources, level+1)
	if len(d.Original) > 0 {
		o.key("original")
		for i := range d.Original {
			w.elem(level+1, i)
			w.tradeLine(&d.Original[i], level+2)
		}
		w.endArray(level+1, len(d.Original))
	}
	o.key("matches")
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
	o.key("reason")
	w.str(a.Reason)
	o.key("reference")
	w.str(a.Reference)
	o.key("cost")
	w.b = a.Cost.AppendJSON(w.b)
	o.key("source")
	w.source(&a.Source, level+1)
	o.close()
}

func (w *jsonWriter) source(s *SourceRef, level int) {
	o := w.object(level)
	if s.File != "" {
		o.key("file")
		w.fileName(s.File)
	}
	if s.Line != 0 {
		o.key("line")
		w.b = strconv.AppendInt(w.b, int64(s.Line), 10)
	}
	if s.Index != nil {
		o.key("index")
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
	o.key("quantity")
	w.b = t.Quantity.AppendJSON(w.b)
	o.key("price")
	w.converted(&t.Price, level+1)
	o.key("consideration")
	w.converted(&t.Consideration, level+1)
	o.key("fees")
	w.converted(&t.Fees, level+1)
	o.key("source")
	w.source(&t.Source, level+1)
	o.close()
}

func (w *jsonWriter) converted(c *Converted, level int) {
	o := w.object(level)
	o.key("gbp")
	w.b = c.GBP.AppendJSON(w.b)
	o.key("amount")
	w.b = c.Amount.AppendJSON(w.b)
	o.key("currency")
	w.str(c.Currency)
	if c.Rate != nil {
		o.key("rate")
		w.b = c.Rate.AppendJSON(w.b)
	}
	if c.RatePeriod != "" {
		o.key("rate_period")
		w.str(c.RatePeriod)
	}
	o.close()
}

// match writes a match as Match.MarshalJSON does: strings escaped for HTML, steps written
// from Explain when the match has none of its own, an empty list rather than null.
func (w *jsonWriter) match(m *Match, level int) {
	o := w.object(level)
	o.key("rule")
	w.str(m.Rule)
	o.key("reference")
	w.str(m.Reference)
	o.key("quantity")
	w.quantity(m.Quantity)
	if m.AcquisitionDate != nil {
		o.key("acquisition_date")
		w.b = m.AcquisitionDate.AppendJSON(w.b)
	}
	if m.AcquisitionQuantity != nil {
		o.key("acquisition_quantity")
		w.quantity(*m.AcquisitionQuantity)
	}
	o.key("proceeds")
	w.money(m.Proceeds)
	o.key("sale_fees")
	w.money(m.SaleFees)
	o.key("cost")
	w.money(m.Cost)
	o.key("gain")
	w.money(m.Gain)
	if m.PoolBefore != nil {
		o.key("pool_before")
		w.poolState(m.PoolBefore, level+1)
	}
	if m.PoolAfter != nil {
		o.key("pool_after")
		w.poolState(m.PoolAfter, level+1)
	}
	if m.AverageCost != nil {
		o.key("average_cost")
		w.quantity(*m.AverageCost)
	}
	o.key("steps")
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
		o.key("sources")
		w.sources(m.Sources, level+1)
	}
	o.close()
}

func (w *jsonWriter) poolState(p *PoolState, level int) {
	o := w.object(level)
	o.key("quantity")
	w.quantity(p.Quantity)
	o.key("cost")
	w.money(p.Cost)
	o.close()
}

func (w *jsonWriter) poolEvent(e *PoolEvent, level int) {
	o := w.object(level)
	o.key("date")
	w.b = e.Date.AppendJSON(w.b)
	o.key("event")
	w.str(e.Event)
	if e.Reference != "" {
		o.key("reference")
		w.str(e.Reference)
	}
	o.key("quantity_change")
	w.b = e.QuantityChange.AppendJSON(w.b)
	o.key("cost_change")
	w.b = e.CostChange.AppendJSON(w.b)
	o.key("quantity")
	w.b = e.Quantity.AppendJSON(w.b)
	o.key("cost")
	w.b = e.Cost.AppendJSON(w.b)
	o.key("source")
	w.source(&e.Source, level+1)
	o.close()
}

func (w *jsonWriter) holding(h *Holding, level int) {
	o := w.object(level)
	o.key("ticker")
	w.str(h.Ticker)
	o.key("quantity")
	w.b = h.Quantity.AppendJSON(w.b)
	o.key("cost")
	w.b = h.Cost.AppendJSON(w.b)
	o.key("average_cost")
	w.b = h.AverageCost.AppendJSON(w.b)
	o.close()
}
