package imports

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/internal/xmlscan"
	"github.com/cgt-tools/cgt/cgt/model"
)

// IBKRFlex reads an Interactive Brokers Activity Flex Query, as XML (<FlexQueryResponse>) or
// as CSV (a header of Flex field names such as "Buy/Sell","TradeDate"). Trades, cash
// transactions and corporate actions are rows; security information, positions and rates
// are not. Amounts stay in the trade currency; HMRC's monthly rates convert them.
var IBKRFlex = &Importer{
	Name:      "ibkr-flex",
	Title:     "Interactive Brokers Activity Flex Query (XML or CSV)",
	Broker:    "Interactive Brokers",
	Page:      "ibkr",
	Signature: `XML root <FlexQueryResponse>, or a CSV header of Flex fields with "Buy/Sell" and "TradeDate" (or "Type" and "Amount" for cash transactions)`,
	Detect: func(c *Content) bool {
		if c.XMLRoot != "" {
			return c.XMLRoot == "FlexQueryResponse"
		}
		for _, l := range c.Lines {
			if flexEnvelope(l) {
				continue // the header and trailer records a query can be set to write
			}
			return isFlexHeader(l[flexDescriptor(l):])
		}
		return false
	},
	Read: readIBKRFlex,
}

// isFlexHeader reports a CSV header of Flex fields: trades, cash transactions (a query of cash
// transactions alone has no trade fields, and may leave ClientAccountID out) or corporate
// actions.
func isFlexHeader(h string) bool {
	return headerHas(h, "Buy/Sell", "TradeDate") || headerHas(h, "ClientAccountID", "ActionID") ||
		(headerHas(h, "Type", "Amount") && (headerHas(h, "ClientAccountID") || headerHas(h, "CurrencyPrimary") ||
			headerHas(h, "FXRateToBase") || headerHas(h, "TransactionID")))
}

// A Flex CSV query set to "include header and trailer records" wraps its sections in BOF, BOA,
// BOS ... EOS, EOA, EOF records; with "section code and line descriptor" every header and data
// line starts with HEADER or DATA and the section's code (TRNT, CTRN, CORP...).
// flexEnvelope reports a header or trailer record: BOF, BOA, BOS, EOS, EOA or EOF, perhaps
// quoted, as the first field of l (the regular expression ^"?(BOF|BOA|BOS|EOS|EOA|EOF)"?(,|$)).
func flexEnvelope[T string | []byte](l T) bool {
	i := 0
	if len(l) > 0 && l[0] == '"' {
		i = 1
	}
	if len(l)-i < 3 {
		return false
	}
	switch string(l[i : i+3]) {
	case "BOF", "BOA", "BOS", "EOS", "EOA", "EOF":
	default:
		return false
	}
	if i += 3; i < len(l) && l[i] == '"' {
		i++
	}
	return i == len(l) || l[i] == ','
}

// flexDescriptor returns the length of the line descriptor l starts with, HEADER or DATA and a
// section code of two to six capitals and digits, each perhaps quoted, with the comma after
// them; 0 when there is none (the regular expression ^"?(HEADER|DATA)"?,"?[A-Z0-9]{2,6}"?,).
func flexDescriptor[T string | []byte](l T) int {
	i := 0
	if len(l) > 0 && l[0] == '"' {
		i = 1
	}
	switch {
	case len(l)-i >= 6 && string(l[i:i+6]) == "HEADER":
		i += 6
	case len(l)-i >= 4 && string(l[i:i+4]) == "DATA":
		i += 4
	default:
		return 0
	}
	if i < len(l) && l[i] == '"' {
		i++
	}
	if i == len(l) || l[i] != ',' {
		return 0
	}
	if i++; i < len(l) && l[i] == '"' {
		i++
	}
	code := i
	for i < len(l) && i-code < 7 && ((l[i] >= 'A' && l[i] <= 'Z') || isDigit(l[i])) {
		i++
	}
	if n := i - code; n < 2 || n > 6 {
		return 0
	}
	if i < len(l) && l[i] == '"' {
		i++
	}
	if i == len(l) || l[i] != ',' {
		return 0
	}
	return i + 1
}

// plainFlexCSV turns the envelope records into blank lines and takes the line descriptors
// off, so the file reads as sections of header and data lines; line numbers stay.
func plainFlexCSV(src []byte) []byte {
	if !flexEnvelope(src) && flexDescriptor(src) == 0 {
		return src
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, l := range lines {
		switch {
		case flexEnvelope(l):
			lines[i] = []byte("\n")
		case flexDescriptor(l) > 0:
			lines[i] = l[flexDescriptor(l):]
		}
	}
	return bytes.Join(lines, nil)
}

// ibkrDates: IBKR's default yyyyMMdd[;HHmmss] and the ISO forms a query can be set to.
var ibkrDates = []string{"20060102", "20060102;150405", "2006-01-02", "2006-01-02;150405", "2006-01-02, 15:04:05",
	"2006-01-02 15:04:05", "20060102 150405", "01/02/2006", "01/02/2006;150405"}

func readIBKRFlex(file string, src []byte) (*Import, error) {
	b := newBatch(file, "ibkr-flex")
	b.settleSlashOrder(src, flexSlashes)
	if c := Sniff(src); c.XMLRoot != "" {
		return readIBKRFlexXML(file, src, b)
	}
	t, err := openCSV(file, plainFlexCSV(src), b, nil)
	if err != nil {
		return nil, err
	}
	first := t.header[0]
	for t.next() {
		if strings.EqualFold(t.str(0), first) || strings.EqualFold(t.str(0), "ClientAccountID") || isFlexHeader(strings.Join(t.rec, ",")) {
			b.unseen() // the header of the next section
			t.setHeader(t.rec)
			first = t.header[0]
			continue
		}
		t.ibkrFlexRow(b, t.flexKind())
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

// flexKind says which section a CSV header belongs to.
func (t *table) flexKind() string {
	switch {
	case t.col("Buy/Sell", "buySell") >= 0:
		return "Trade"
	case t.col("ActionID", "actionID") >= 0:
		return "CorporateAction"
	case t.col("Type") >= 0 && t.col("Amount") >= 0:
		return "CashTransaction"
	}
	return ""
}

func readIBKRFlexXML(file string, src []byte, b *batch) (*Import, error) {
	d := newXMLDecoder(src)
	t := &table{file: file, b: b}
	lines := lineCounter{src: src}
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &model.Error{Code: model.CodeParse, File: file, Line: lineAt(src, d.InputOffset()),
				Message: fmt.Sprintf("%s is not well-formed XML: %v", file, err),
				Hint:    "Download the Flex Query again; an edited file may have lost a quote or an escape (& is written &amp;)."}
		}
		if tok.Kind != xmlscan.StartElement {
			continue
		}
		switch tok.Name {
		case "FlexStatement":
			for _, a := range tok.Attr {
				if a.Name == "accountId" && b.imp.Report.Account == "" {
					b.imp.Report.Account = a.Value
				}
			}
		case "Trade", "CashTransaction", "CorporateAction":
			header := make([]string, len(tok.Attr))
			rec := make([]string, len(tok.Attr))
			for i, a := range tok.Attr {
				header[i], rec[i] = a.Name, a.Value
			}
			t.setHeader(header)
			t.rec = rec
			t.line = lines.at(off + int64(bytes.IndexByte(src[off:], '<')))
			if lod := t.str(t.col("levelOfDetail")); lod != "" && !strings.EqualFold(lod, "EXECUTION") &&
				!strings.EqualFold(lod, "DETAIL") {
				continue // an order or summary line repeats its executions: not a row
			}
			b.seen()
			t.ibkrFlexRow(b, tok.Name)
			if t.settle(); t.err != nil {
				return nil, t.err
			}
		}
	}
	return b.done(), nil
}

// lineCounter gives the line of offsets that only grow, counting each byte once: a file of
// 260,000 elements would otherwise be counted from its start for each of them.
type lineCounter struct {
	src  []byte
	off  int64 // counted up to here
	line int   // newlines before off
}

func (c *lineCounter) at(off int64) int {
	if off < c.off {
		return lineAt(c.src, off)
	}
	if off > int64(len(c.src)) {
		off = int64(len(c.src))
	}
	c.line += bytes.Count(c.src[c.off:off], []byte("\n"))
	c.off = off
	return c.line + 1
}

func lineAt(src []byte, off int64) int {
	if off < 0 || off > int64(len(src)) {
		off = int64(len(src))
	}
	return bytes.Count(src[:off], []byte("\n")) + 1
}

func (t *table) ibkrFlexRow(b *batch, kind string) {
	row := t.line
	switch kind {
	case "Trade":
		t.ibkrTrade(b, row)
	case "CashTransaction":
		t.ibkrCash(b, row)
	case "CorporateAction":
		t.ibkrCorporate(b, row)
	default:
		b.skip(row, "metadata", "a Flex Query section cgt does not read (no trades, cash or corporate actions)")
	}
}

// ibkrDayLayouts are the date formats a Flex Query can be set to, without the time of day
// (whose format and separator are set apart: ";" "," " " or none, HHmmss or HH:mm:ss), and
// last the slash dates a spreadsheet writes when a statement is opened and saved in one: a
// day or month of one digit ("3/4/2025 9:15" from a US spreadsheet).
var ibkrDayLayouts = []string{"20060102", "2006-01-02", "01/02/2006", "01/02/06", "02-Jan-06", "02-Jan-2006", "2006/01/02", "1/2/2006", "1/2/06"}

func (t *table) ibkrDate(names ...string) model.Date {
	c := t.col(names...)
	if t.str(c) == "" {
		c = t.col("dateTime", "Date/Time", "reportDate")
	}
	return t.ibkrDateIn(c)
}

// ibkrDateIn reads the date in column c of an IBKR file, with or without a time of day: in
// a layout of ibkrDates, or as a date of ibkrDayLayouts followed by a separator and any time
// (a Flex Query's time has a format of its own; a spreadsheet that saved a statement writes
// "03/04/2025 10:15"). The time is not used: the trade date is the date written.
func (t *table) ibkrDateIn(c int) model.Date {
	s := t.str(c)
	if d, ok := parseDate(s, t.b.ibkrDates()...); ok {
		return d
	}
	day := s
	if i := strings.IndexAny(s, ";, T"); i >= 6 {
		day = s[:i]
	}
	if d, ok := parseDate(day, t.b.ibkrDayLayouts()...); ok {
		return d
	}
	if len(s) > 8 && !strings.ContainsAny(s, ";, T:") { // yyyyMMddHHmmss
		if d, ok := parseDate(s[:8], "20060102"); ok {
			return d
		}
	}
	return t.date(c, t.b.ibkrDates()...)
}

func (t *table) ibkrTicker() string {
	return ticker(t.str(t.col("symbol")), t.str(t.col("isin")))
}

func (t *table) ibkrTrade(b *batch, row int) {
	asset := strings.ToUpper(t.str(t.col("assetCategory", "AssetClass")))
	tk := t.ibkrTicker()
	date := t.ibkrDate("tradeDate")
	if t.err != nil {
		return
	}
	if asset == "" && t.str(t.col("isin")) == "" && (currencyPair(t.str(t.col("symbol"))) ||
		t.str(t.col("symbol")) == "" && currencyPair(t.str(t.col("description")))) {
		asset = "CASH"
	}
	switch asset {
	case "CASH":
		b.skip(row, "fx_conversion", "currency conversion "+t.str(t.col("symbol"))+": not a share transaction")
		return
	case "", "STK", "ETF", "FUND", "MF":
	default:
		b.warn(row, "unsupported", fmt.Sprintf("%s trade in %s (%s) is not calculated", asset, t.str(t.col("symbol")), t.str(t.col("description"))),
			"work out gains on options, futures and other derivatives separately; add bonds as BUY/SELL lines if they are chargeable")
		return
	}
	if tk == "" {
		b.warn(row, "trade", fmt.Sprintf("trade without a symbol or ISIN (%s)", t.str(t.col("description"))), "add the BUY or SELL line by hand")
		return
	}
	side := strings.ToUpper(t.str(t.col("buySell", "Buy/Sell")))
	qty := t.dec(t.col("quantity")).Abs()
	price := t.dec(t.col("tradePrice", "price")).Abs()
	ccy, pence := t.currency(t.col("currency", "CurrencyPrimary"))
	comm := t.dec(t.col("ibCommission")).Abs()
	commCcy, commPence := ccy, false
	if c := t.col("ibCommissionCurrency"); t.str(c) != "" {
		commCcy, commPence = t.currency(c)
	}
	taxes := t.dec(t.col("taxes")).Abs()
	if t.err != nil {
		return
	}
	if pence {
		price, taxes = pounds(price), pounds(taxes)
	}
	if commPence {
		comm = pounds(comm)
	}
	action := model.Buy
	switch {
	case strings.HasPrefix(side, "BUY"):
	case strings.HasPrefix(side, "SELL"):
		action = model.Sell
	default:
		b.warn(row, "trade", fmt.Sprintf("trade in %s with buySell %q", tk, side), "add the BUY or SELL line by hand")
		return
	}
	if qty.Sign() <= 0 {
		b.warn(row, "trade", "trade in "+tk+" without a quantity", "add the "+string(action)+" line by hand")
		return
	}
	fees := taxes
	if commCcy == ccy {
		fees = fees.Add(comm)
	} else if !comm.IsZero() {
		b.warnf("%s row %d: commission %s %s on %s is in another currency than the trade (%s) and is left out; add it to the FEES by hand", t.file, row, comm, commCcy, tk, ccy)
	}
	ref := t.str(t.col("tradeID", "TradeID", "ibExecID", "transactionID"))
	b.add(row, model.Transaction{Date: date, Action: action, Ticker: tk, Quantity: num(qty), Price: amount(price, ccy),
		Fees: amount(fees, ccy), ISIN: t.str(t.col("isin")), Name: t.str(t.col("description")), BrokerRef: ref,
		Account: t.str(t.col("accountId", "ClientAccountID"))})
}

// currencyPair reports a symbol that names two currencies (GBP.USD, EUR.GBP, USD/JPY): a
// currency conversion, not a security.
func currencyPair(s string) bool {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) != 7 || (s[3] != '.' && s[3] != '/') {
		return false
	}
	return dsl.IsCurrency(s[:3]) && dsl.IsCurrency(s[4:])
}

func (t *table) ibkrCash(b *batch, row int) {
	typ := t.str(t.col("type"))
	ty := strings.ToLower(typ)
	desc := t.str(t.col("description"))
	tk := t.ibkrTicker()
	date := t.ibkrDate("dateTime", "Date/Time", "reportDate", "settleDate")
	amt := t.dec(t.col("amount"))
	ccy, pence := t.currency(t.col("currency", "CurrencyPrimary"))
	if t.err != nil {
		return
	}
	if pence {
		amt = pounds(amt)
	}
	key := tk + "|" + date.String()
	switch {
	case ty == "dividends" && strings.Contains(strings.ToLower(desc), "return of capital"):
		b.warn(row, "capital_return", "return of capital on "+tk+" ("+desc+") reduces the cost of the holding", "add a CAPRETURN line with the amount returned")
	case ty == "dividends" || strings.HasPrefix(ty, "payment in lieu"):
		if amt.Sign() <= 0 {
			b.skip(row, "dividend_reversal", "a reversed or negative dividend: "+desc+" (income, not a CGT figure)")
			return
		}
		b.dividend(row, key, model.Transaction{Date: date, Action: model.Dividend, Ticker: tk, Total: amount(amt, ccy),
			ISIN: t.str(t.col("isin")), Name: desc, BrokerRef: t.str(t.col("transactionID"))})
	case strings.HasPrefix(ty, "withholding"):
		b.withhold(row, key, amount(amt, ccy), typ)
	case strings.HasPrefix(ty, "deposits"):
		kind := "deposit"
		if amt.Sign() < 0 {
			kind = "withdrawal"
		}
		b.skip(row, kind, desc)
	case strings.Contains(ty, "interest"):
		b.skip(row, "interest", typ+": interest is income, not a capital transaction")
	case strings.Contains(ty, "fee") || strings.Contains(ty, "commission"):
		b.skip(row, "fee", typ+": "+desc+" (an account fee, not a cost of a trade)")
	default:
		b.skip(row, "cash", typ+": "+desc+" (a cash movement, not a share transaction)")
	}
}

// splitRatio reads "2:1", "SPLIT 4 FOR 1" or "1:10 Reverse": new shares for old, the first
// two numbers (with decimals after a dot) joined by "for" (any case) or a colon, spaced
// (the regular expression (?i)(\d+(?:\.\d+)?)\s*(?:FOR|:)\s*(\d+(?:\.\d+)?)).
func splitRatio(desc string) (newN, oldN string, ok bool) {
	for i := 0; i < len(desc); i++ {
		// A number read from inside a run of digits ends where the run's own does.
		if isDigit(desc[i]) && (i == 0 || !isDigit(desc[i-1])) {
			if newN, oldN, ok = splitRatioAt(desc, i); ok {
				return newN, oldN, true
			}
		}
	}
	return "", "", false
}

func splitRatioAt(s string, i int) (newN, oldN string, ok bool) {
	j := ratioNumberEnd(s, i)
	k := spacesFrom(s, j)
	if k < len(s) && s[k] == ':' {
		k++
	} else if k, ok = foldPrefixAt(s, k, "for"); !ok {
		return "", "", false
	}
	if k = spacesFrom(s, k); k == len(s) || !isDigit(s[k]) {
		return "", "", false
	}
	return s[i:j], s[k:ratioNumberEnd(s, k)], true
}

// ratioNumberEnd reads digits, and decimals after a dot.
func ratioNumberEnd(s string, i int) int {
	i = digitsFrom(s, i)
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i = digitsFrom(s, i+1)
	}
	return i
}

func (t *table) ibkrCorporate(b *batch, row int) {
	typ := strings.ToUpper(t.str(t.col("type")))
	desc := t.str(t.col("description", "actionDescription"))
	tk := t.ibkrTicker()
	date := t.ibkrDate("dateTime", "reportDate")
	if t.err != nil {
		return
	}
	switch typ {
	case "FS", "RS":
		newS, oldS, ok := splitRatio(desc)
		if ok && (tooManyDigits(newS) || tooManyDigits(oldS)) {
			ok = false // no real split has a ratio of that many digits
		}
		if !ok {
			b.warn(row, "split", "split of "+tk+" ("+clip(desc, 200)+") without a ratio in its description", "add a SPLIT (or UNSPLIT) line with the ratio")
			return
		}
		newN, _ := decimal.NewFromString(newS)
		oldN, _ := decimal.NewFromString(oldS)
		// A reverse split can be written as two rows (old line removed, new added): one SPLIT.
		key := "split|" + tk + "|" + date.String()
		if b.divs[key] != 0 {
			b.fold(row)
			return
		}
		if b.divs == nil {
			b.divs = map[string]int{}
		}
		b.divs[key] = 1
		addSplit(b, row, date, tk, oldN, newN)
	default:
		b.warn(row, "corporate_action", fmt.Sprintf("corporate action %s on %s (%s) is not converted", typ, tk, desc),
			"add the ledger line that fits (TAKEOVER, DEMERGER, RIGHTS, a BUY for a stock dividend at its value)")
	}
}
