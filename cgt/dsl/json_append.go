package dsl

import (
	"strconv"

	"github.com/cgt-tools/cgt/internal/jsontext"
)

// AppendJSON appends the transaction's JSON as encoding/json writes it with the envelope
// writer's settings (no HTML escaping): indented by two spaces a level from level, the first
// line not indented (it follows a key or an array's bracket), or on one line when indent is
// false (envelope.Appender). An import of 100,000 rows writes as many of them; through
// encoding/json's reflection they cost as much as reading the export.
func (j *JSONTransaction) AppendJSON(b []byte, level int, indent bool) []byte {
	w := jsonObject{b: append(b, '{'), level: level, indent: indent}
	w.str("date", j.Date, false)
	w.str("action", j.Action, false)
	w.str("ticker", j.Ticker, false)
	w.str("new_ticker", j.NewTicker, true)
	w.str("quantity", j.Quantity, true)
	w.amount("price", j.Price)
	w.amount("fees", j.Fees)
	w.amount("total", j.Total)
	w.amount("tax", j.Tax)
	w.str("ratio", j.Ratio, true)
	w.str("fraction", j.Fraction, true)
	w.amount("cost", j.Cost)
	w.amount("cash", j.Cash)
	w.amount("value", j.Value)
	w.str("account_type", j.AccountType, true)
	w.str("account", j.Account, true)
	w.str("isin", j.ISIN, true)
	w.str("name", j.Name, true)
	w.str("broker_ref", j.BrokerRef, true)
	if s := j.Source; s != nil {
		w.key("source")
		o := jsonObject{b: append(w.b, '{'), level: w.level + 1, indent: indent}
		o.str("file", s.File, true)
		if s.Line != 0 {
			o.key("line")
			o.b = strconv.AppendInt(o.b, int64(s.Line), 10)
		}
		if s.Index != nil {
			o.key("index")
			o.b = strconv.AppendInt(o.b, int64(*s.Index), 10)
		}
		w.b = o.close()
	}
	return w.close()
}

// jsonObject is an object being written at a level.
type jsonObject struct {
	b      []byte
	level  int
	n      int
	indent bool
}

// key writes the separator, the new line and the key of the next member.
func (o *jsonObject) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.newline(o.level + 1)
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
	if o.indent {
		o.b = append(o.b, ' ')
	}
}

func (o *jsonObject) newline(level int) {
	if !o.indent {
		return
	}
	o.b = append(o.b, '\n')
	for range level {
		o.b = append(o.b, ' ', ' ')
	}
}

// str writes a string member; omitempty leaves out an empty one.
func (o *jsonObject) str(k, v string, omitempty bool) {
	if omitempty && v == "" {
		return
	}
	o.key(k)
	o.b = jsontext.AppendString(o.b, v, false)
}

func (o *jsonObject) amount(k string, a *JSONAmount) {
	if a == nil {
		return
	}
	o.key(k)
	m := jsonObject{b: append(o.b, '{'), level: o.level + 1, indent: o.indent}
	m.str("amount", a.Amount, false)
	m.str("currency", a.Currency, false)
	o.b = m.close()
}

func (o *jsonObject) close() []byte {
	if o.n > 0 {
		o.newline(o.level)
	}
	return append(o.b, '}')
}
