package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// IBKRHistory reads the Interactive Brokers "Transaction History" statement CSV: the
// multi-section layout (Statement, Summary, Transaction History) in which every line starts
// with its section name and Header or Data. Its amounts are in the account's base currency,
// named by the Summary section.
var IBKRHistory = &Importer{
	Name:      "ibkr-history",
	Title:     "Interactive Brokers Transaction History CSV",
	Broker:    "IBKR Transaction History",
	Page:      "ibkr-history",
	Signature: `a line starting "Transaction History,Header,Date,Account,Description,Transaction Type"`,
	Detect: func(c *Content) bool {
		return ibkrSectionLine(c, "Transaction History", "Header")
	},
	Read: readIBKRHistory,
}

// ibkrLine is one line of an IBKR statement CSV: its section, its kind (Header, Data,
// SubTotal, Total, Notes) and the fields after those two.
type ibkrLine struct {
	line    int
	section string
	kind    string
	fields  []string
}

// ibkrSectionLine reports whether a sniffed line starts with the section and kind given.
func ibkrSectionLine(c *Content, section, kind string) bool {
	for _, l := range c.Lines {
		f := splitHeader(l)
		if len(f) > 2 && strings.EqualFold(f[0], section) && strings.EqualFold(f[1], kind) {
			return true
		}
	}
	return false
}

// readIBKRStatement splits an IBKR statement CSV into its lines. A file separated by another
// character than commas, or a line that is not CSV, is an error.
func readIBKRStatement(file string, src []byte) ([]ibkrLine, error) {
	var out []ibkrLine
	err := eachRecord(file, src, func(line int, rec []string) error {
		if len(rec) < 2 {
			if d := otherDelimiter(rec[0]); d != "" && len(out) == 0 {
				return &model.Error{Code: model.CodeParse, File: file, Line: line, Column: 1, Value: clip(rec[0], 120),
					Message: fmt.Sprintf("%s is separated by %s, not commas", file, d),
					Hint:    "Download the statement again as CSV from Interactive Brokers (it is comma-separated), or save it from the spreadsheet as CSV with commas."}
			}
			out = append(out, ibkrLine{line: line, section: rec[0]})
			return nil
		}
		out = append(out, ibkrLine{line: line, section: rec[0], kind: rec[1], fields: rec[2:]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ibkrIsTotal reports a Data line that is a total ("Total", "Total in GBP", "Total
// Dividends in GBP"...), not a row.
func ibkrIsTotal(l ibkrLine) bool {
	return len(l.fields) > 0 && hasPrefixFold(l.fields[0], "total")
}

// use makes l the current row of t and counts it. A row shorter than the section's required
// columns is an error naming the row.
func (t *table) use(l ibkrLine) bool {
	t.rec, t.line = l.fields, l.line
	t.b.seen()
	if len(t.rec) < t.needed {
		t.err = &model.Error{Code: model.CodeParse, File: t.file, Line: t.line, Column: len(t.rec) + 3,
			Value:   clip(strings.Join(t.rec, ","), 200),
			Message: fmt.Sprintf("%s row %d (%s) has %d fields but its header has %d: the row is cut short", t.file, t.line, l.section, len(t.rec), len(t.header)),
			Hint:    "Download the statement again; a file cut off part-way or edited by hand loses fields.",
			Context: map[string]any{"field": t.header[len(t.rec)]}}
		return false
	}
	return true
}

// section starts a new section header in t.
func (t *table) section(l ibkrLine) {
	t.setHeader(l.fields)
	t.needed = 0
	t.line = l.line
}

// ibkrDec reads an IBKR number: thousands separators ("5,000") and, for tiny amounts, an
// exponent ("-2.637591265E-4"), both exactly. An empty cell or "-" is zero.
func (t *table) ibkrDec(c int) decimal.Decimal {
	d, _ := t.ibkrDecOK(c)
	return d
}

func (t *table) ibkrDecOK(c int) (decimal.Decimal, bool) {
	s := t.str(c)
	if strings.ContainsAny(s, "eE") && !isEmptyCell(s) {
		d, err := decimal.NewFromString(s)
		if err == nil && (tooManyDigits(s) || d.Exponent() < -maxNumberDigits || d.Exponent() > maxNumberDigits) {
			t.fail(c, clip(s, 80), fmt.Sprintf("%q has more than %d digits", clip(s, 40), maxNumberDigits), "No quantity, price or amount has that many digits; download the statement again without editing it.")
			return decimal.Decimal{}, false
		}
		if err != nil {
			t.fail(c, s, fmt.Sprintf("%q is not a number", clip(s, 40)), "Numbers are written with a '.' decimal point, such as 1234.56; download the statement again without editing it.")
			return decimal.Decimal{}, false
		}
		return d, true
	}
	return t.decOK(c, moneyNumber)
}

// ibkrDescISIN reads "VT(US9220427424) Cash Dividend..." as the symbol and ISIN the
// description starts with: letters, digits, dots, hyphens and spaces, then the ISIN in
// brackets (the regular expression ^([A-Za-z0-9.\- ]+?)\s*\(([A-Z]{2}[A-Z0-9]{9}[0-9])\)).
func ibkrDescISIN(desc string) (symbol, isin string) {
	open := strings.IndexByte(desc, '(')
	end := open
	for end > 0 && isSpace(desc[end-1]) {
		end--
	}
	if open > 0 && end == 0 && desc[0] == ' ' {
		end = 1 // the symbol has one character at least: a space will do
	}
	if end <= 0 || len(desc)-open < 14 || desc[open+13] != ')' || !isISIN(desc[open+1:open+13]) {
		return "", ""
	}
	for i := 0; i < end; i++ {
		if c := desc[i]; !isASCIILetter(c) && !isDigit(c) && c != '.' && c != '-' && c != ' ' {
			return "", ""
		}
	}
	return desc[:end], desc[open+1 : open+13]
}

// isISIN reports the shape of an ISIN: two capitals, nine capitals or digits, a digit.
func isISIN(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		upper := s[i] >= 'A' && s[i] <= 'Z'
		if (i < 2 && !upper) || (i == 11 && !isDigit(s[i])) || (!upper && !isDigit(s[i])) {
			return false
		}
	}
	return true
}

// ibkrBaseCurrency finds the statement's base currency: a "Base Currency" field of the
// Summary or Account Information section.
func ibkrBaseCurrency(lines []ibkrLine) (string, int) {
	for _, l := range lines {
		if strings.EqualFold(l.kind, "Data") && len(l.fields) >= 2 && strings.EqualFold(l.fields[0], "Base Currency") {
			if code, _, ok := currencyCode(l.fields[1]); ok {
				return code, l.line
			}
			return "", l.line
		}
	}
	return "", 0
}

func readIBKRHistory(file string, src []byte) (*Import, error) {
	lines, err := readIBKRStatement(file, src)
	if err != nil {
		return nil, err
	}
	base, baseLine := ibkrBaseCurrency(lines)
	if base == "" {
		e := &model.Error{Code: model.CodeParse, File: file, Line: baseLine, Value: "Base Currency",
			Message: fmt.Sprintf("%s has no readable Base Currency in its Summary section; the Transaction History's amounts are in that currency", file),
			Hint:    "Download the Transaction History again with its Summary section, or add the line Summary,Data,Base Currency,GBP (your account's base currency)."}
		if baseLine == 0 {
			e.Line = 1
		}
		return nil, e
	}
	b := newBatch(file, "ibkr-history")
	b.settleSlashOrder(statementDates(lines), statementSlashes)
	t := &table{file: file, b: b}
	var c ibkrHistCols
	in := "" // the section whose header is current
	unknown := map[string]bool{}
	for _, l := range lines {
		switch {
		case strings.EqualFold(l.kind, "Header"):
			in = l.section
			t.section(l)
			if strings.EqualFold(in, "Transaction History") {
				if c, err = t.ibkrHistColumns(); err != nil {
					return nil, err
				}
			}
			continue
		case !strings.EqualFold(l.kind, "Data") || ibkrIsTotal(l):
			continue // subtotals, totals and notes are not rows
		}
		switch {
		case ibkrInfoSection(l.section):
			continue // statement information: not a row
		case !strings.EqualFold(l.section, in):
			return nil, &model.Error{Code: model.CodeParse, File: file, Line: l.line, Value: l.section,
				Message: fmt.Sprintf("%s row %d of section %q comes before that section's Header line", file, l.line, l.section),
				Hint:    "Download the statement again without editing it: each section starts with its Header line."}
		case strings.EqualFold(l.section, "Transaction History"):
			if !t.use(l) {
				return nil, t.err
			}
			t.ibkrHistRow(b, c, base)
			if t.settle(); t.err != nil {
				return nil, t.err
			}
		default:
			t.use(l)
			b.skip(l.line, "unsupported", fmt.Sprintf("a row of the %q section, which cgt does not read", l.section))
			if !unknown[l.section] {
				unknown[l.section] = true
				b.warnf("%s row %d: section %q is not one cgt reads; if its rows moved shares, add their ledger lines by hand", file, l.line, l.section)
			}
		}
	}
	return b.done(), nil
}

// ibkrInfoSection reports the statement sections that describe the account or summarise
// it, whose lines are not transactions.
func ibkrInfoSection(s string) bool {
	switch strings.ToLower(s) {
	case "statement", "summary", "account information", "net asset value", "change in nav",
		"mark-to-market performance summary", "realized & unrealized performance summary",
		"month & year to date performance summary", "cash report", "open positions",
		"financial instrument information", "codes", "notes/legal notes", "base currency exchange rate",
		"interest accruals", "change in dividend accruals", "open dividend accruals",
		"net stock position summary", "complex position summary", "location of customer assets, positions and money",
		"forex balances", "forex p/l details", "disclosure", "notes", "legal notes", "time-weighted return",
		"key statistics", "historical performance benchmark comparison", "concentration":
		return true
	}
	return false
}

type ibkrHistCols struct{ date, account, desc, typ, symbol, qty, price, gross, comm, net int }

func (t *table) ibkrHistColumns() (ibkrHistCols, error) {
	var c ibkrHistCols
	var err error
	if err = t.bind(column(&c.date, "Date"), column(&c.typ, "Transaction Type"), column(&c.net, "Net Amount")); err != nil {
		return c, err
	}
	c.account, c.desc, c.symbol, c.qty = t.col("Account"), t.col("Description"), t.col("Symbol"), t.col("Quantity")
	c.price, c.gross, c.comm = t.col("Price"), t.col("Gross Amount"), t.col("Commission")
	return c, nil
}

func (t *table) ibkrHistRow(b *batch, c ibkrHistCols, base string) {
	row := t.line
	date := t.ibkrDateIn(c.date)
	typ := t.str(c.typ)
	ty := strings.ToLower(typ)
	desc := t.str(c.desc)
	sym := t.str(c.symbol)
	if isEmptyCell(sym) {
		sym = ""
	}
	descSym, isin := ibkrDescISIN(desc)
	if sym == "" {
		sym = descSym
	}
	tk := ticker(sym, isin)
	net := t.ibkrDec(c.net)
	gross, hasGross := t.ibkrDecOK(c.gross)
	comm := t.ibkrDec(c.comm).Abs()
	qty := t.ibkrDec(c.qty).Abs()
	if t.err != nil {
		return
	}
	amt := net
	if hasGross {
		amt = gross
	}
	account := t.str(c.account)
	if isEmptyCell(account) {
		account = ""
	}
	if account != "" && b.imp.Report.Account == "" {
		b.imp.Report.Account = account
	}
	key := tk + "|" + date.String()
	switch {
	case (ty == "buy" || ty == "sell") && isin == "" && currencyPair(tk):
		b.skip(row, "fx_conversion", "currency conversion "+tk+" ("+desc+"): not a share transaction")
	case ty == "buy" || ty == "sell":
		action := model.Buy
		if ty == "sell" {
			action = model.Sell
		}
		if tk == "" || qty.Sign() <= 0 {
			b.warn(row, "trade", fmt.Sprintf("%s without a symbol or quantity (%s)", ty, desc), "add the "+string(action)+" line by hand")
			return
		}
		// Gross Amount is the consideration in the base currency; Commission its cost.
		total := amt.Abs()
		if !hasGross {
			total = net.Abs().Sub(comm)
			if action == model.Sell {
				total = net.Abs().Add(comm)
			}
		}
		if total.Sign() <= 0 {
			b.warn(row, "trade", fmt.Sprintf("%s of %s without an amount", ty, tk), "add the "+string(action)+" line by hand")
			return
		}
		b.add(row, model.Transaction{Date: date, Action: action, Ticker: tk, Quantity: num(qty),
			Total: amount(total, base), Fees: amount(comm, base), ISIN: isin, Name: desc, Account: account})
	case ty == "dividend" || strings.HasPrefix(ty, "payment in lieu") || ty == "cash dividend":
		if strings.Contains(strings.ToLower(desc), "return of capital") {
			b.warn(row, "capital_return", "return of capital on "+tk+" ("+desc+") reduces the cost of the holding", "add a CAPRETURN line with the amount returned")
			return
		}
		if amt.Sign() <= 0 {
			b.skip(row, "dividend_reversal", "a reversed or negative dividend: "+desc+" (income, not a CGT figure)")
			return
		}
		b.dividend(row, key, model.Transaction{Date: date, Action: model.Dividend, Ticker: tk, Total: amount(amt, base),
			ISIN: isin, Name: desc, Account: account})
	case strings.Contains(ty, "withholding") || ty == "withholding tax":
		b.withhold(row, key, amount(amt, base), typ+" ("+desc+")")
	case ty == "deposit" || ty == "withdrawal" || ty == "deposits & withdrawals" || ty == "electronic fund transfer":
		kind := "deposit"
		if amt.Sign() < 0 || ty == "withdrawal" {
			kind = "withdrawal"
		}
		b.skip(row, kind, desc)
	case strings.Contains(ty, "interest"):
		b.skip(row, "interest", typ+": interest is income, not a capital transaction")
	case strings.HasPrefix(ty, "forex"):
		b.skip(row, "fx_conversion", desc+": currency conversion, not a share transaction")
	case ty == "adjustment":
		b.skip(row, "adjustment", desc+": a cash adjustment, not a share transaction")
	case strings.Contains(ty, "fee") || strings.Contains(ty, "commission"):
		b.skip(row, "fee", typ+": "+desc+" (an account fee, not a cost of a trade)")
	case strings.Contains(ty, "transfer"):
		if qty.Sign() > 0 && tk != "" {
			b.warn(row, "transfer", fmt.Sprintf("%s of %s %s has no cost in the statement", typ, qty, tk),
				"if the shares came from another of your accounts they are already in your ledger; otherwise add a BUY (or POOL) line with their cost")
			return
		}
		b.skip(row, "transfer", typ+": "+desc+" (cash moved between accounts)")
	case strings.Contains(ty, "split") || strings.Contains(ty, "corporate") || strings.Contains(ty, "merger") || strings.Contains(ty, "spin"):
		b.warn(row, "corporate_action", typ+" of "+tk+" ("+desc+") is not described fully by the statement",
			"add the ledger line that fits (SPLIT with its ratio, TAKEOVER, DEMERGER)")
	default:
		b.warn(row, "unknown", fmt.Sprintf("transaction type %q (%s) is not one cgt knows", typ, desc), "if it moved shares, add the ledger line by hand")
	}
}
