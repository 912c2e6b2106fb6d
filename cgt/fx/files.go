package fx

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cgt-tools/cgt/cgt/internal/xmlscan"
	"github.com/cgt-tools/cgt/cgt/model"
)

// The rate overlays: months read from files a user gave (they win over the bundled table and
// the cache), and, for projections, the latest month standing in for months with no rate yet.
// The caller reads the files; these work on their bytes.

// DownloadHint says where HMRC publishes the monthly rate files that the rates argument
// reads, for the hints of the errors that ask for one.
const DownloadHint = "HMRC's monthly rate files (\"exchange rates for customs and VAT\", XML) are at https://www.trade-tariff.service.gov.uk/exchange_rates."

// File is one rate file as the caller read it.
type File struct {
	Name string // as the user named it (or folder/name), for messages and citations
	Data []byte
	// Listed is set for a file found by listing a folder the user gave, rather than named:
	// one that is not an HMRC monthly file is left out (counted, never named or quoted), since
	// the folder may hold anything.
	Listed bool
}

// FileMonth is one month's rates and the file they came from.
type FileMonth struct {
	File  string
	Month Month
}

// ReadFiles reads each file as one HMRC month, sorted by month. The same month in two files
// is accepted when the rates agree and is an error when they do not. The reader's notes
// (entries skipped), and how many listed files were left out, come back as warnings. An error
// about a file that is not an HMRC monthly file names it and never quotes its content.
func ReadFiles(files []File) ([]FileMonth, []string, error) {
	var months []FileMonth
	var warnings []string
	byPeriod := map[string]int{}
	skipped := 0
	for _, f := range files {
		if f.Listed && !IsMonthlyXML(f.Data) {
			skipped++
			continue
		}
		m, err := readFile(f)
		if err != nil {
			return nil, warnings, err
		}
		if i, dup := byPeriod[m.Period]; dup {
			if err := sameRates(months[i], FileMonth{f.Name, m}); err != nil {
				return nil, warnings, err
			}
			continue
		}
		byPeriod[m.Period] = len(months)
		months = append(months, FileMonth{f.Name, m})
		for _, n := range m.Notes {
			warnings = append(warnings, "rate file "+f.Name+": "+n)
		}
	}
	if skipped > 0 {
		warnings = append(warnings, fmt.Sprintf("%d file(s) in the rates folders given are not HMRC monthly rate files and were left out", skipped))
	}
	if len(months) == 0 && skipped > 0 {
		return nil, warnings, &model.Error{Code: model.CodeInvalidArgument,
			Message: "the rates folders given hold no HMRC monthly rate files",
			Hint:    "Put HMRC's monthly exchange-rate XML files in the folder, or name the files themselves."}
	}
	sort.Slice(months, func(i, j int) bool { return months[i].Month.Period < months[j].Month.Period })
	return months, warnings, nil
}

// IsMonthlyXML reports whether data's root element is HMRC's exchangeRateMonthList, reading
// no further than that element's start.
func IsMonthlyXML(data []byte) bool {
	data, err := toUTF8(data)
	if err != nil {
		return false
	}
	d := newDecoder(data)
	for i := 0; i < 64; i++ { // the prolog is a few tokens
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if tok.Kind == xmlscan.StartElement {
			return tok.Name == "exchangeRateMonthList"
		}
	}
	return false
}

// readFile reads one file as an HMRC month. A file that is not one is named, not quoted.
func readFile(f File) (Month, error) {
	if !IsMonthlyXML(f.Data) {
		return Month{}, notMonthly(f)
	}
	m, err := ReadMonthly(bytes.NewReader(f.Data))
	if err != nil {
		return Month{}, fileParseError(f, err)
	}
	return m, nil
}

// notMonthly is the error of a file that is not HMRC's monthly XML: empty, not XML (HMRC's
// CSV file, a saved web page), or XML of another kind. Its content is never quoted: it may
// be anything the user has (a key, a .env file).
func notMonthly(f File) *model.Error {
	why := "is not an HMRC monthly exchange-rate file in XML (root element exchangeRateMonthList)"
	if len(bytes.TrimSpace(bytes.TrimPrefix(f.Data, []byte{0xEF, 0xBB, 0xBF}))) == 0 {
		why = "is empty"
	}
	return &model.Error{Code: model.CodeParse, Message: "rate file " + f.Name + " " + why,
		Hint:    "Give HMRC's monthly rates in XML form (not the CSV file or the web page).",
		Context: map[string]any{"file": f.Name}}
}

// fileParseError puts the file, and the text at fault, on the reader's error about an HMRC
// monthly file.
func fileParseError(f File, err error) error {
	var me *model.Error
	if !errors.As(err, &me) {
		return &model.Error{Code: model.CodeParse, Message: "rate file " + f.Name + ": " + err.Error(), Context: map[string]any{"file": f.Name}}
	}
	where := f.Name
	if me.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.Name, me.Line)
	}
	e := &model.Error{Code: me.Code, Message: "rate file " + where + ": " + me.Message, Hint: me.Hint, Examples: me.Examples,
		Context: map[string]any{"file": f.Name}}
	if me.Line > 0 {
		e.Context["line"] = me.Line
	}
	if v := offendingValue(me.Message, f.Data, me.Line); v != "" {
		e.Value = v
	}
	return e
}

// offendingValue is the text the reader quoted in its message (a rate, a code, a period), or
// else the text of the line at fault.
func offendingValue(msg string, data []byte, line int) string {
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
			if v, err := strconv.Unquote(q); err == nil && v != "" {
				return v
			}
		}
	}
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return ""
	}
	return clip(strings.ToValidUTF8(string(bytes.TrimSpace(lines[line-1])), "?"))
}

// sameRates accepts a month given again (the same file twice, or a copy) only when every
// currency has the same rate; otherwise which file to trust is the user's choice.
func sameRates(a, b FileMonth) error {
	ra, rb := byCurrency(a.Month.Rates), byCurrency(b.Month.Rates)
	codes := map[string]bool{}
	for c := range ra {
		codes[c] = true
	}
	for c := range rb {
		codes[c] = true
	}
	for _, c := range sortedKeys(codes) {
		x, okA := ra[c]
		y, okB := rb[c]
		if okA && okB && x.PerGBP.Equal(y.PerGBP) {
			continue
		}
		rateA, rateB := rateText(x, okA), rateText(y, okB)
		period := a.Month.Period
		return &model.Error{Code: model.CodeInvalidArgument,
			Message: fmt.Sprintf("rate files %s and %s both give %s, with different rates: %s is %s in %s and %s in %s", a.File, b.File, period, c, rateA, a.File, rateB, b.File),
			Hint:    "Give each month once: leave out the file you do not mean. When HMRC republishes a month, use its latest file.",
			Value:   rateB,
			Context: map[string]any{"period": period, "currency": c, "files": []string{a.File, b.File}}}
	}
	return nil
}

func byCurrency(rates []Rate) map[string]Rate {
	m := make(map[string]Rate, len(rates))
	for _, r := range rates {
		m[r.Currency] = r
	}
	return m
}

func rateText(r Rate, ok bool) string {
	if !ok {
		return "missing"
	}
	return r.Text()
}

// rateKey is a currency and calendar month.
type rateKey struct {
	code string
	m    month
}

// Overlay answers from the months read from files, and otherwise from the base (the bundled
// table and the cache): a file's rate replaces the base's for its currency and month, and a
// currency the file does not list keeps the base's rate. It is safe for concurrent use.
type Overlay struct {
	rates  map[rateKey]Rate
	base   Source
	months []FileMonth
}

// NewOverlay lays the months over base (an empty table when nil). Each rate is cited with
// its file.
func NewOverlay(months []FileMonth, base Source) *Overlay {
	if base == nil {
		base = NewTable()
	}
	o := &Overlay{rates: map[rateKey]Rate{}, base: base, months: months}
	for _, fm := range months {
		m, ok := parsePeriod(fm.Month.Period)
		if !ok {
			continue // the reader returns only YYYY-MM periods
		}
		for _, r := range fm.Month.Rates {
			if r.Currency == model.GBP {
				continue // sterling is always 1, whatever a file says
			}
			r.Source = SourceFor(fm.Month.Period) + ", read from " + fm.File
			o.rates[rateKey{r.Currency, m}] = r
		}
	}
	return o
}

// Rate is the file's rate for the month when a file gave one, the base's otherwise. The map
// holds no GBP, so "GBp" (pence, which upper-cases to GBP) still reaches the base's refusal.
func (o *Overlay) Rate(currency string, year int, mon time.Month) (Rate, error) {
	if r, ok := o.rates[rateKey{strings.ToUpper(strings.TrimSpace(currency)), monthOf(year, mon)}]; ok {
		return r, nil
	}
	return o.base.Rate(currency, year, mon)
}

// Periods lists the months read from files.
func (o *Overlay) Periods() []string {
	out := make([]string, len(o.months))
	for i, m := range o.months {
		out[i] = m.Month.Period
	}
	return out
}

// Summary is the warning that keeps figures citable: which months came from which file, and
// which of them replaced months the base has.
func (o *Overlay) Summary() string {
	first, last := "", ""
	if t, ok := o.base.(interface{ Months() (string, string) }); ok {
		first, last = t.Months()
	}
	parts := make([]string, len(o.months))
	for i, m := range o.months {
		parts[i] = m.Month.Period + " from " + m.File
		if first != "" && m.Month.Period >= first && m.Month.Period <= last {
			parts[i] += " (replacing the bundled rates for that month)"
		}
	}
	return "HMRC monthly rates read from files take precedence over the bundled rates: " + strings.Join(parts, "; ")
}

// Nearest widens the base's nearest months before and after period (as its missing-rate
// error gives them) with the months the files give a rate for code.
func (o *Overlay) Nearest(base map[string]string, code, period string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for _, m := range o.months {
		p := m.Month.Period
		if !hasCurrency(m.Month.Rates, code) || p == period {
			continue
		}
		if p < period && p > out["before"] {
			out["before"] = p
		}
		if p > period && (out["after"] == "" || p < out["after"]) {
			out["after"] = p
		}
	}
	return out
}

func hasCurrency(rates []Rate, code string) bool {
	for _, r := range rates {
		if r.Currency == code {
			return true
		}
	}
	return false
}

// Latest answers from the base, and for a month after the last one the base has for a
// currency uses that last month, noting it: a planned sale, or a what-if line, can be dated
// past the rates published. Only projections use it. It is safe for concurrent use.
type Latest struct {
	base Source
	only map[string]bool // when set, the months ("2026-12") that may fall back

	mu   sync.Mutex
	used map[string]string // "USD 2026-12" -> "2026-10"
}

// NewLatest is base with the latest-month fallback, for every month (only nil) or for the
// months in only.
func NewLatest(base Source, only map[string]bool) *Latest { return &Latest{base: base, only: only} }

// Base is the source without the fallback.
func (l *Latest) Base() Source { return l.base }

// Rate is the base's rate, or for a later month the last month's, noted.
func (l *Latest) Rate(currency string, year int, mon time.Month) (Rate, error) {
	r, err := l.base.Rate(currency, year, mon)
	if err == nil {
		return r, nil
	}
	last, later := Later(err)
	if !later || (l.only != nil && !l.only[monthOf(year, mon).String()]) {
		return r, err
	}
	t, perr := time.Parse("2006-01", last)
	if perr != nil {
		return r, err
	}
	r2, err2 := l.base.Rate(currency, t.Year(), t.Month())
	if err2 != nil {
		return r, err
	}
	l.mu.Lock()
	if l.used == nil {
		l.used = map[string]string{}
	}
	l.used[strings.ToUpper(strings.TrimSpace(currency))+" "+monthOf(year, mon).String()] = last
	l.mu.Unlock()
	return r2, nil
}

// Notes says which months were converted at an earlier month's rate.
func (l *Latest) Notes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := []string{}
	for _, k := range sortedKeys(l.used) {
		out = append(out, fmt.Sprintf("no HMRC rate yet for %s: converted at the latest month bundled, %s; the figures will move when that month's rate is published (pass it in rates).", k, l.used[k]))
	}
	return out
}
