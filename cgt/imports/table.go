package imports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
)

// table reads a CSV export record by record, with columns looked up by header name. Field
// readers (str, dec, date...) keep the first problem of a row, so a row mapping reads every
// field it needs and checks t.err once; the problem names the file, row, column and value.
type table struct {
	file   string
	b      *batch
	body   []byte // the file after its header line, decoded: isoDate reads a column of it again
	r      *csv.Reader
	header []string
	cols   map[string]int // lower-case header name -> index
	needed int            // fields a row must have: one past the last required column
	rec    []string
	line   int // 1-based line of the current record
	err    error
	// unsafe says that err is about a value holding a control character (a line end inside
	// a currency cell, say): that row is skipped (settle), the file is read on.
	unsafe bool
}

// openCSV starts reading src as CSV. Lines before the header (a report's preamble) are not
// rows: isHeader says which record is the header. nil isHeader takes the first record.
func openCSV(file string, src []byte, b *batch, isHeader func(fields []string) bool) (*table, error) {
	text := decodeText(src)
	t := &table{file: file, b: b}
	if b != nil && b.imp.Transactions == nil { // about one transaction a line: no regrowing
		b.imp.Transactions = make([]model.Transaction, 0, min(bytes.Count(text, []byte{'\n'})+1, 1<<20))
	}
	t.r = newCSVReader(text)
	for {
		rec, err := t.r.Read()
		if err == io.EOF {
			return nil, &model.Error{Code: model.CodeParse, File: file,
				Message: fmt.Sprintf("%s has no header line in the layout expected", file),
				Hint:    "Export the file again from the broker's website without editing it; if it was opened in a spreadsheet, save it as CSV (comma-separated, UTF-8)."}
		}
		if err != nil {
			return nil, t.csvError(err)
		}
		if isHeader == nil || isHeader(trimAll(rec)) {
			t.line, _ = t.r.FieldPos(0)
			t.setHeader(rec)
			t.body = text[t.r.InputOffset():]
			break
		}
	}
	if len(t.header) == 1 {
		if d := otherDelimiter(t.header[0]); d != "" {
			return nil, &model.Error{Code: model.CodeParse, File: file, Line: t.line, Column: 1, Value: clip(t.header[0], 120),
				Message: fmt.Sprintf("%s is separated by %s, not commas", file, d),
				Hint:    "Export the file again from the broker (its CSV is comma-separated), or save it from the spreadsheet as CSV with commas."}
		}
	}
	return t, nil
}

func newCSVReader(text []byte) *csv.Reader {
	r := csv.NewReader(bytes.NewReader(text))
	r.FieldsPerRecord = -1 // rows may be shorter (a missing trailing comma) or longer
	r.LazyQuotes = true    // a stray quote inside a description is text, not an error
	r.ReuseRecord = true
	return r
}

func otherDelimiter(s string) string {
	switch {
	case strings.Count(s, ";") >= 2:
		return "semicolons"
	case strings.Count(s, "\t") >= 2:
		return "tabs"
	case strings.Count(s, "|") >= 2:
		return "vertical bars"
	}
	return ""
}

func (t *table) setHeader(rec []string) {
	t.header = make([]string, len(rec))
	t.cols = make(map[string]int, len(rec))
	for i, h := range rec {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		t.header[i] = h
		key := strings.ToLower(h)
		if _, dup := t.cols[key]; !dup && key != "" {
			t.cols[key] = i
		}
	}
}

// col returns the index of the first of the names the header has, -1 when it has none.
func (t *table) col(names ...string) int {
	for _, n := range names {
		if i, ok := t.cols[strings.ToLower(n)]; ok {
			return i
		}
	}
	return -1
}

// need is col for a required column: a header without it is an error naming the columns it
// does have. A row too short to reach a required column is then an error too.
func (t *table) need(names ...string) (int, error) {
	i := t.col(names...)
	if i < 0 {
		return -1, &model.Error{Code: model.CodeParse, File: t.file, Line: t.line, Value: names[0],
			Message: fmt.Sprintf("%s has no %q column (its header is: %s)", t.file, names[0], clip(strings.Join(t.header, ","), 300)),
			Hint:    "Export the file again with all columns; cgt finds columns by their header names, in any order."}
	}
	t.needed = max(t.needed, i+1)
	return i, nil
}

// columnRef binds a required column, found by any of its header names, to the index a reader
// keeps for it.
type columnRef struct {
	dst   *int
	names []string
}

// column names a required column for bind: dst gets its index.
func column(dst *int, names ...string) columnRef { return columnRef{dst, names} }

// bind finds every required column of an importer's layout by its header name (in any order)
// and stores its index, or returns the error naming the first one missing. Optional columns
// are found with col.
func (t *table) bind(cols ...columnRef) error {
	for _, c := range cols {
		i, err := t.need(c.names...)
		if err != nil {
			return err
		}
		*c.dst = i
	}
	return nil
}

// require checks that the header has every column named, each by its one name; a row is
// then read by name with col.
func (t *table) require(names ...string) error {
	for _, n := range names {
		if _, err := t.need(n); err != nil {
			return err
		}
	}
	return nil
}

// next reads the next non-blank record and counts it as a row; false at the end or on an
// error (t.err). A record shorter than the required columns is a truncated row.
func (t *table) next() bool {
	t.settle()
	if t.err != nil {
		return false
	}
	for {
		rec, err := t.r.Read()
		if err == io.EOF {
			return false
		}
		if err != nil {
			t.err = t.csvError(err)
			return false
		}
		t.line, _ = t.r.FieldPos(0)
		if blank(rec) {
			continue
		}
		t.rec = rec
		t.b.seen()
		if len(rec) < t.needed {
			e := &model.Error{Code: model.CodeParse, File: t.file, Line: t.line, Column: len(rec) + 1,
				Value:   clip(strings.Join(rec, ","), 200),
				Message: fmt.Sprintf("%s row %d has %d fields but the header has %d: the row is cut short", t.file, t.line, len(rec), len(t.header)),
				Hint:    "Export the file again; a file cut off part-way or edited by hand loses fields."}
			if len(rec) < len(t.header) { // the first missing column, when the header names it
				e.Context = map[string]any{"field": t.header[len(rec)]}
			}
			t.err = e
			return false
		}
		return true
	}
}

func (t *table) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &model.Error{Code: model.CodeParse, File: t.file, Line: pe.Line, Column: pe.Column,
			Message: fmt.Sprintf("%s line %d is not valid CSV: %v", t.file, pe.Line, pe.Err),
			Hint:    "Export the file again from the broker without editing it."}
	}
	return err
}

// eachRecord reads src as CSV record by record, for the readers whose files are sections of
// several tables (IBKR statements, Vanguard reports): fn gets each non-blank record, its cells
// trimmed, with its 1-based line. A line that is not CSV is an error naming it.
func eachRecord(file string, src []byte, fn func(line int, rec []string) error) error {
	t := &table{file: file}
	r := newCSVReader(decodeText(src))
	r.ReuseRecord = false
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return t.csvError(err)
		}
		line, _ := r.FieldPos(0)
		if blank(rec) {
			continue
		}
		if err := fn(line, trimAll(rec)); err != nil {
			return err
		}
	}
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

func trimAll(rec []string) []string {
	out := make([]string, len(rec))
	for i, f := range rec {
		out[i] = strings.TrimSpace(strings.TrimPrefix(f, "\ufeff"))
	}
	return out
}

// str is the trimmed field in column c ("" when the column is absent or the row short).
func (t *table) str(c int) string {
	if c < 0 || c >= len(t.rec) {
		return ""
	}
	return strings.TrimSpace(t.rec[c])
}

// fail records the first problem of the current row.
func (t *table) fail(c int, value, msg, hint string) {
	if t.err != nil {
		return
	}
	name := ""
	if c >= 0 && c < len(t.header) {
		name = t.header[c]
	}
	t.err = &model.Error{Code: model.CodeParse, File: t.file, Line: t.line, Column: c + 1, Value: value,
		Message: fmt.Sprintf("%s row %d, column %q: %s", t.file, t.line, name, msg), Hint: hint,
		Context: map[string]any{"field": name}}
	t.unsafe = t.b != nil && hasControl(value)
}

// settle turns the error of a row whose value holds a control character into a skipped row
// with a warning: text that is no value of its column is not written, and the other rows of
// the file are still read.
func (t *table) settle() {
	if t.err == nil || !t.unsafe {
		return
	}
	var e *model.Error
	if errors.As(t.err, &e) {
		t.b.warn(e.Line, "unsafe_text", fmt.Sprintf("column %q holds %q, with a control character (a line end, tab or NUL)",
			e.Context["field"], clip(e.Value, 80)), "check the row in the export and add it to the ledger by hand if it is a real transaction")
	}
	t.err, t.unsafe = nil, false
}

// dec reads a plain decimal number; an empty field is zero.
func (t *table) dec(c int) decimal.Decimal {
	d, _ := t.decOK(c, plainNumber)
	return d
}

// money reads an amount that may carry a currency sign, thousands separators or
// parentheses for a negative ("$1,234.56", "-£3.00", "(12.50)"); an empty field is zero.
func (t *table) money(c int) decimal.Decimal {
	d, _ := t.decOK(c, moneyNumber)
	return d
}

// decOK reads a number and says whether the field held one (false for empty and n/a cells).
func (t *table) decOK(c int, style numberStyle) (decimal.Decimal, bool) {
	s := t.str(c)
	if isEmptyCell(s) {
		return decimal.Decimal{}, false
	}
	if tooManyDigits(s) {
		t.fail(c, clip(s, 80), fmt.Sprintf("%q has more than %d digits", clip(s, 40), maxNumberDigits), "No quantity, price or amount has that many digits; export the file again without editing it.")
		return decimal.Decimal{}, false
	}
	d, ok := parseNumber(s, style)
	if !ok {
		t.fail(c, s, fmt.Sprintf("%q is not a number", clip(s, 40)), "Numbers are written with a '.' decimal point, such as 1234.56; export the file again without editing it in a spreadsheet.")
		return decimal.Decimal{}, false
	}
	return d, true
}

// date reads the date part of a date or date-time field in one of the broker's layouts.
func (t *table) date(c int, layouts ...string) model.Date {
	s := t.str(c)
	d, ok := parseDate(s, layouts...)
	if !ok {
		t.fail(c, s, fmt.Sprintf("%q is not a date in the layout %s", clip(s, 40), layoutNames(layouts)), "Export the file again without editing it; dates are read in the broker's own layout.")
	}
	return d
}

// currency reads a currency code column: an ISO 4217 code, or GBX/GBp for pence (pence is
// then true and the code GBP).
func (t *table) currency(c int) (code string, pence bool) {
	s := strings.Trim(t.str(c), `"`)
	code, pence, ok := currencyCode(s)
	if !ok {
		t.fail(c, s, fmt.Sprintf("%q is not a currency code", clip(s, 40)), "Currencies are ISO 4217 codes such as GBP, USD, EUR; GBX (or GBp) means pence.")
	}
	return code, pence
}

// parseDate reads s in the first layout that fits; the time of day, when present, is
// dropped: the trade date is the date the broker wrote.
func parseDate(s string, layouts ...string) (model.Date, bool) {
	for _, l := range layouts {
		if tm, err := time.Parse(l, s); err == nil {
			return model.NewDate(tm.Year(), tm.Month(), tm.Day()), true
		}
	}
	return 0, false
}

func layoutNames(layouts []string) string {
	var out []string
	for _, l := range layouts {
		r := strings.NewReplacer("2006", "YYYY", "01", "MM", "02", "DD", "15", "hh", "04", "mm", "05", "ss", "Jan", "Mon", "Z07:00", "Z", "06", "YY")
		out = append(out, r.Replace(l))
	}
	return strings.Join(out, " or ")
}

// jsonTable reads a JSON list of flat objects as a table, so that a broker's JSON export is
// mapped by the same row functions as its CSV twin: the header is the union of the objects'
// keys, each object a row numbered by its 1-based position, strings and numbers as text,
// null as an empty cell.
func jsonTable(file string, items []map[string]any, b *batch) *table {
	t := &table{file: file, b: b}
	var header []string
	seen := map[string]bool{}
	for _, it := range items {
		for k := range it {
			if !seen[k] {
				seen[k] = true
				header = append(header, k)
			}
		}
	}
	order.Ascending(header)
	t.setHeader(header)
	return t
}

// setJSONRow makes item the current row (row is its 1-based position) and counts it.
func (t *table) setJSONRow(row int, item map[string]any) {
	t.rec = t.rec[:0]
	for _, h := range t.header {
		t.rec = append(t.rec, jsonCell(item[h]))
	}
	t.line = row
	t.b.seen()
}

func jsonCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}

// decodeJSON reads a JSON document with numbers kept as their text (never float64).
func decodeJSON(file string, src []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(decodeText(src)))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return &model.Error{Code: model.CodeParse, File: file, Message: fmt.Sprintf("%s is not valid JSON: %v", file, err),
			Hint: "Export the file again from the broker without editing it."}
	}
	return nil
}
