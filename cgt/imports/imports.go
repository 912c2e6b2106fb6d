// Package imports reads broker export files into ledger transactions. Each broker format is
// one Importer in its own file (trading212.go, schwab.go...): a detector that looks at the
// content (the header line, the XML root element, the JSON keys; never the file name) and a
// reader from the file's bytes to transactions plus a report that accounts for every data row
// of the file: imported, or skipped with its type and reason. All lists the importers.
//
// The package is pure: callers read the files and pass their bytes.
package imports

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Importer reads one broker export format.
type Importer struct {
	// Name is the stable name used in broker= and in reports: trading212, ibkr-flex...
	Name string
	// Title is what a person calls the export ("Trading 212 account History CSV").
	Title string
	// Broker is the firm as people name it ("Trading 212"), the title of its page.
	Broker string
	// Page is the name of the broker's page in the documentation site
	// (docs-site/src/content/docs/guides/brokers/PAGE.md); two formats of one broker share it.
	Page string
	// Signature says what the detector looks for, quoted when a file is not recognised.
	Signature string
	// Detect reports whether the content is in this format. It reads the sniffed header
	// lines, XML root or JSON keys, never the file name.
	Detect func(c *Content) bool
	// Read converts the file. file names the file in sources, reports, warnings and errors.
	Read func(file string, src []byte) (*Import, error)
}

// All is the one explicit list of importers, in the order detection tries them (a more
// specific signature before a looser one).
func All() []*Importer {
	return []*Importer{
		Trading212,
		Freetrade,
		Schwab,
		SchwabAwards,
		IBKRFlex,
		II,
		AJBell,
		MorganStanley,
		Revolut,
		EToro,
		Degiro,
		InvestEngine,
		Sharesight,
		IBKRHistory,
		IBKRActivity,
		HL,
		Vanguard,
	}
}

// Names lists the importer names, for errors and documentation.
func Names() []string {
	var out []string
	for _, im := range All() {
		out = append(out, im.Name)
	}
	return out
}

// Lookup finds an importer by name (case-insensitive).
func Lookup(name string) (*Importer, bool) {
	for _, im := range All() {
		if strings.EqualFold(im.Name, name) {
			return im, true
		}
	}
	return nil, false
}

// Detect returns the importer whose detector accepts src, or nil when none does (a text
// ledger, for one).
func Detect(src []byte) *Importer {
	c := Sniff(src)
	for _, im := range All() {
		if im.Detect(c) {
			return im
		}
	}
	return nil
}

// Options tune Read.
type Options struct {
	// Broker forces a format by importer name; "" or "auto" detects it from the content.
	Broker string
	// Account labels every transaction (and the report) with this account, overriding any
	// account the file names.
	Account string
}

// Read converts one export file: detected from its content unless opts.Broker names the
// format. An unrecognised file is a parse_error listing the known formats and the header seen.
func Read(file string, src []byte, opts Options) (*Import, error) {
	src = decodeText(src) // once, for every importer: UTF-16, Windows-1252, CR-only line ends
	var im *Importer
	if b := strings.TrimSpace(opts.Broker); b != "" && !strings.EqualFold(b, "auto") {
		found, ok := Lookup(b)
		if !ok {
			return nil, &model.Error{Code: model.CodeInvalidArgument, Message: fmt.Sprintf("unknown broker format %q", b),
				Hint: "Known formats: auto, " + strings.Join(Names(), ", ") + ".", Examples: []string{"broker=trading212"},
				Value: b, Context: map[string]any{"argument": "broker", "known": Names()}}
		}
		im = found
	} else if im = Detect(src); im == nil {
		return nil, Unrecognised(file, src)
	}
	account := strings.TrimSpace(opts.Account)
	if account != "" {
		label, msg, hint := dsl.CheckAccountLabel(account)
		if msg != "" {
			return nil, &model.Error{Code: model.CodeInvalidArgument, Message: msg, Hint: hint, Value: clip(account, 80),
				Examples: []string{"account=T212-ISA"}, Context: map[string]any{"argument": "account"}}
		}
		account = label
	}
	imp, err := im.Read(file, src)
	if err != nil {
		return nil, err
	}
	if imp.Report.Rows == 0 {
		return nil, noRows(file, im)
	}
	if account != "" {
		imp.Report.Account = account
		for i := range imp.Transactions {
			imp.Transactions[i].Account = account
		}
	}
	checkWritable(imp)
	return imp, nil
}

// noRows is the error for an export recognised by its header that gave no data row: a file
// whose rows were lost (line ends a program changed, a filter that kept nothing) must not
// read as a period without transactions.
func noRows(file string, im *Importer) *model.Error {
	return &model.Error{Code: model.CodeParse, File: file,
		Message: fmt.Sprintf("%s was recognised as %s, but no data rows were read from it", file, im.Title),
		Hint: "Check that the export covers the period wanted and was not cut or re-saved: export it again from the broker's website " +
			"(CSV, UTF-8, one row per line). If the period really had no transactions, leave the file out.",
		Examples: []string{"cgt transactions.import history.csv broker=" + im.Name},
		Context:  map[string]any{"broker": im.Name, "rows": 0, "reason": "no_rows"}}
}

// Unrecognised is the error for a file no importer recognises: it names the file, says what
// kind of text it is (XML, JSON, comma-separated fields, other text) and lists every known
// format. It quotes none of the file: a file that is not a recognised export may be anything
// that was in the folder (a list of passwords, a key), and its header line, root element or
// keys are its text.
func Unrecognised(file string, src []byte) *model.Error {
	c := Sniff(src)
	shape, kind := contentShape(c)
	var known []string
	for _, im := range All() {
		known = append(known, im.Name+" ("+im.Title+": "+im.Signature+")")
	}
	return &model.Error{Code: model.CodeParse, File: file,
		Message: fmt.Sprintf("%s is not a broker export cgt recognises: it is %s (none of its text is shown)", file, shape),
		Hint: "Known formats: " + strings.Join(known, "; ") + ". Give broker=NAME to force one, or export the file again in one of these layouts; " +
			"if it is not an export or a ledger, leave it out.",
		Examples: []string{"cgt transactions.import history.csv broker=trading212"},
		Context:  map[string]any{"known": Names(), "content": kind}}
}

// contentShape describes sniffed content without quoting it: a phrase for the message and a
// one-word kind for the error's context.
func contentShape(c *Content) (shape, kind string) {
	switch {
	case c.XMLRoot != "":
		return "an XML document whose root element no known export has", "xml"
	case c.JSONKeys != nil:
		if len(c.JSONKeys) == 1 {
			return "a JSON object whose one top-level key is not a known export's", "json"
		}
		return fmt.Sprintf("a JSON object with %d top-level keys, none of them a known export's", len(c.JSONKeys)), "json"
	case c.Header == "":
		return "empty (no text)", "empty"
	case strings.Count(c.Header, ",") >= 1:
		return fmt.Sprintf("comma-separated text with %d fields on its first line, which is no known export's header", strings.Count(c.Header, ",")+1), "csv"
	}
	return "text whose first line is not a header of a known export", "text"
}

// Import is one file converted: its transactions (Source.Line is the file's row), the report
// accounting for every row, and warnings about rows that need a hand-written ledger line.
type Import struct {
	Report       Report
	Transactions []model.Transaction
	Warnings     []string
}

// Report accounts for every data row of one file: Rows = Imported + len(Skipped).
type Report struct {
	File     string `json:"file" jsonschema_description:"The file read." record:"entity"`
	Broker   string `json:"broker" jsonschema_description:"The format detected or forced: one of the importers' names (transactions.import lists them in its broker argument)."`
	Account  string `json:"account,omitempty" jsonschema_description:"The account label given to its transactions, when there is one."`
	Rows     int    `json:"rows" jsonschema_description:"Data rows in the file (trades, income, cash movements, corporate actions, statement entries); headers, blank lines and totals are not rows."`
	Imported int    `json:"imported" jsonschema_description:"Rows converted into transactions (a row folded into another's transaction, such as a fee or a withholding, counts here)."`
	Skipped  []Skip `json:"skipped" record:"rows=skipped" jsonschema_description:"Every row not converted, with its type and the reason."`
}

// Skip is a row not converted.
type Skip struct {
	Row    int    `json:"row" jsonschema_description:"1-based line of the file (for JSON files: 1-based position in its list of transactions)."`
	Type   string `json:"type" jsonschema_description:"What the row is: deposit, withdrawal, interest, fx_conversion, fee, transfer, metadata, duplicate, unsupported, unsafe_text (a value that cannot be written in a ledger line)..."`
	Reason string `json:"reason" jsonschema_description:"Why it is not a transaction, or what to add to the ledger by hand."`
	// Unread marks a row that could change a figure and was not converted (a warning says
	// what to add by hand): until it is added, the figures leave it out.
	Unread bool `json:"-"`
}

// batch builds an Import row by row. Every data row the reader meets is counted (seen) and
// then given exactly one outcome: add (one or more transactions), fold (merged into another
// row's transaction), skip, or warn (skip, and a warning naming what to add by hand).
type batch struct {
	imp  Import
	rows int
	last int // the last row counted as imported by add

	divs map[string]int // dividend key (ticker, date) -> index in imp.Transactions
	wht  []withholding  // withholding rows, folded into their dividends by done

	dayFirst bool // the file's slash dates are dd/MM (settleSlashOrder)
	settled  bool // the order of a spreadsheet's dates is settled (isoDate)
}

// withholding is tax withheld (negative) or refunded (positive) on its own row.
type withholding struct {
	_ model.NotComparable

	row    int
	key    string
	amount model.Amount
	what   string
}

func newBatch(file, broker string) *batch {
	return &batch{imp: Import{Report: Report{File: file, Broker: broker, Skipped: []Skip{}}}}
}

func (b *batch) seen() { b.rows++ }

// unseen takes back a seen: the line turned out to be a total or footer, not a row.
func (b *batch) unseen() { b.rows-- }

// add appends a transaction read from row; several transactions from one row count it once.
func (b *batch) add(row int, t model.Transaction) {
	t.Source = model.Source{File: b.imp.Report.File, Line: row, Index: -1}
	b.imp.Transactions = append(b.imp.Transactions, t)
	if row != b.last || b.last == 0 {
		b.imp.Report.Imported++
		b.last = row
	}
}

// fold counts a row whose figures went into another row's transaction (a withholding row
// folded into its dividend, a fee row into its trade).
func (b *batch) fold(row int) { b.imp.Report.Imported++ }

// skip accounts for a row that is not a transaction.
func (b *batch) skip(row int, typ, reason string) {
	b.imp.Report.Skipped = append(b.imp.Report.Skipped, Skip{Row: row, Type: typ, Reason: reason})
}

// warn skips a row that could change a CGT figure and cannot be converted, with a warning
// naming the file, the row and what to add to the ledger by hand.
func (b *batch) warn(row int, typ, reason, todo string) {
	b.imp.Report.Skipped = append(b.imp.Report.Skipped, Skip{Row: row, Type: typ, Reason: reason + "; " + todo, Unread: true})
	b.imp.Warnings = append(b.imp.Warnings, fmt.Sprintf("%s row %d: %s; %s", b.imp.Report.File, row, reason, todo))
}

// warnf adds a warning that skips nothing (a converted row with a caveat).
func (b *batch) warnf(format string, args ...any) {
	b.imp.Warnings = append(b.imp.Warnings, fmt.Sprintf(format, args...))
}

// dividend adds a dividend that withholding rows of the same key (ticker and date) fold into.
func (b *batch) dividend(row int, key string, t model.Transaction) {
	if b.divs == nil {
		b.divs = map[string]int{}
	}
	b.add(row, t)
	if _, ok := b.divs[key]; !ok {
		b.divs[key] = len(b.imp.Transactions) - 1
	}
}

// withhold records a withholding row (negative: tax withheld; positive: a refund of it), to be
// folded into the dividend of the same key when the file has one.
func (b *batch) withhold(row int, key string, a model.Amount, what string) {
	b.wht = append(b.wht, withholding{row: row, key: key, amount: a, what: what})
}

// foldWithholding folds each withholding row into its dividend's tax. One without a
// dividend in the file is skipped: withholding is income-tax information, no CGT figure.
func (b *batch) foldWithholding() {
	for _, w := range b.wht {
		i, ok := b.divs[w.key]
		if ok {
			d := &b.imp.Transactions[i]
			cur := d.Tax()
			if cur.Currency == "" || cur.IsZero() {
				cur.Currency = w.amount.Currency
			}
			if cur.Currency == w.amount.Currency {
				tax := cur.Value.Exact().Sub(w.amount.Value.Exact())
				if tax.Sign() >= 0 {
					d.SetEvent(func(e *model.Event) { e.Tax = amount(tax, cur.Currency) })
					b.fold(w.row)
					continue
				}
			}
		}
		b.skip(w.row, "withholding", w.what+": no dividend of the same security and date in this file to fold it into (tax withheld is income-tax information, not a CGT figure)")
	}
	b.wht = nil
}

// done closes the batch. A row left without an outcome is a fault of the importer, reported
// rather than hidden.
func (b *batch) done() *Import {
	b.foldWithholding()
	r := &b.imp.Report
	order.Stable(r.Skipped, func(x, y Skip) int { return x.Row - y.Row })
	r.Rows = b.rows
	if got := r.Imported + len(r.Skipped); got != r.Rows {
		b.warnf("%s: %d rows read but %d accounted for (imported %d, skipped %d); please report this file layout",
			r.File, r.Rows, got, r.Imported, len(r.Skipped))
	}
	return &b.imp
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
