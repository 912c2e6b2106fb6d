package imports

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// MorganStanley reads the stock-plan reports of Morgan Stanley at Work (formerly E*TRADE
// stock plans): the Releases Report, the Releases Net Shares Report, the Withdrawals Report
// and the Withdrawal Wire Report. Each has its own header; a row's Type says what it is. The
// account is in US dollars, kept as such.
var MorganStanley = &Importer{
	Name:      "morganstanley",
	Title:     "Morgan Stanley at Work / E*TRADE stock plan reports (Releases, Withdrawals)",
	Broker:    "Morgan Stanley",
	Page:      "morganstanley",
	Signature: "header with Order Number, Net Share Proceeds and Tax Payment Method (Vest Date, Execution Date or Date first)",
	Detect: func(c *Content) bool {
		return headerHas(c.Header, "Order Number", "Type", "Price", "Quantity", "Net Share Proceeds", "Tax Payment Method") &&
			(headerStarts(c.Header, "Vest Date") || headerStarts(c.Header, "Execution Date") || headerStarts(c.Header, "Date"))
	},
	Read: readMorganStanley,
}

var msDates = []string{"02-Jan-2006", "2-Jan-2006", "01/02/2006", "2006-01-02"}

// msPlans are the plans whose stock the reports do not name: Alphabet's Google Stock Units.
var msPlans = map[string]string{"gsu class c": "GOOG", "gsu class a": "GOOGL"}

// msSplitNote finds the split date in the notice Morgan Stanley appends to some reports,
// "... June 15, 2022 stock split": the month's name, the day and year as written (the regular
// expression (?i)(January|...|December)\s+(\d{1,2}),\s*(\d{4})\s+stock split).
func msSplitNote(text string) (month, day, year string, ok bool) {
	for i := 0; i < len(text); i++ {
		for _, name := range msMonths {
			if end, ok := foldPrefixAt(text, i, name); ok {
				if day, year, ok := msSplitDayYear(text, end); ok {
					return text[i:end], day, year, true
				}
				break // no month's name starts another's
			}
		}
	}
	return "", "", "", false
}

var msMonths = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// msSplitDayYear reads " 15, 2022 stock split" at i.
func msSplitDayYear(s string, i int) (day, year string, ok bool) {
	d := spacesFrom(s, i)
	dEnd := digitsFrom(s, d)
	if d == i || dEnd-d < 1 || dEnd-d > 2 || dEnd == len(s) || s[dEnd] != ',' {
		return "", "", false
	}
	y := spacesFrom(s, dEnd+1)
	yEnd := digitsFrom(s, y)
	words := spacesFrom(s, yEnd)
	if yEnd-y != 4 || words == yEnd {
		return "", "", false
	}
	if _, ok := foldPrefixAt(s, words, "stock split"); !ok {
		return "", "", false
	}
	return s[d:dEnd], s[y:yEnd], true
}

type msCols struct {
	date, order, plan, symbol, typ, status, price, qty, netCash, netShares, netAmount int
}

func readMorganStanley(file string, src []byte) (*Import, error) {
	b := newBatch(file, "morganstanley")
	src, notes := msNotes(src)
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c msCols
	if c.date, err = t.need("Vest Date", "Execution Date", "Date"); err != nil {
		return nil, err
	}
	if err = t.bind(column(&c.typ, "Type"), column(&c.price, "Price"), column(&c.qty, "Quantity")); err != nil {
		return nil, err
	}
	c.order, c.plan, c.symbol, c.status = t.col("Order Number"), t.col("Plan"), t.col("Symbol"), t.col("Status", "Order Status")
	c.netCash, c.netAmount = t.col("Net Cash Proceeds"), t.col("Net Amount")
	c.netShares = -1
	for i, h := range t.header {
		if strings.EqualFold(h, "Net Share Proceeds") {
			c.netShares = i // the last of them: the Net Shares report writes the name twice, cash first
		}
	}
	var splitDate model.Date
	for _, n := range notes {
		if month, day, year, ok := msSplitNote(n.text); ok {
			if tm, err := time.Parse("January 2 2006", month+" "+day+" "+year); err == nil {
				splitDate = model.NewDate(tm.Year(), tm.Month(), tm.Day())
			}
		}
		b.warnf("%s row %d: the report notes: %q", file, n.line, clip(strings.TrimRight(n.text, ", "), 400))
	}
	var sales []struct {
		row  int
		date model.Date
	}
	for t.next() {
		n := len(b.imp.Transactions)
		t.msRow(b, c)
		if len(b.imp.Transactions) > n && b.imp.Transactions[n].Action == model.Sell {
			sales = append(sales, struct {
				row  int
				date model.Date
			}{t.line, b.imp.Transactions[n].Date})
		}
	}
	if t.err != nil {
		return nil, t.err
	}
	if splitDate != 0 {
		for _, s := range sales {
			if s.date <= splitDate {
				b.warnf("%s row %d: this sale is written in pre-split shares (the split of %s), while vests are written in post-split shares; "+
					"multiply its quantity by the split ratio and divide its price by it, so that it matches the vests", t.file, s.row, splitDate)
			}
		}
	}
	return b.done(), nil
}

type msNote struct {
	line int
	text string
}

// msNotes takes the free-text notices (a line starting "Please note") out of a report,
// leaving a blank line in their place so that rows keep their line numbers. A notice is not
// a row; it may hold a comma or not, so the CSV reader never sees it.
func msNotes(src []byte) ([]byte, []msNote) {
	text := decodeText(src)
	lines := bytes.Split(text, []byte("\n"))
	var notes []msNote
	for i, l := range lines {
		s := strings.TrimSpace(strings.Trim(strings.TrimSpace(string(l)), `"`))
		if hasPrefixFold(s, "please note") || hasPrefixFold(s, "note:") {
			notes = append(notes, msNote{i + 1, s})
			lines[i] = nil
		}
	}
	if notes == nil {
		return src, nil
	}
	return bytes.Join(lines, []byte("\n")), notes
}

func (t *table) msRow(b *batch, c msCols) {
	row := t.line
	date := t.date(c.date, msDates...)
	typ := t.str(c.typ)
	low := strings.ToLower(typ)
	plan := t.str(c.plan)
	if plan == "" {
		plan = t.str(c.symbol)
	}
	price, _ := t.decOK(c.price, moneyNumber)
	qty, _ := t.decOK(c.qty, moneyNumber)
	netCash, _ := t.decOK(c.netCash, moneyNumber)
	netShares, _ := t.decOK(c.netShares, moneyNumber)
	netAmount, _ := t.decOK(c.netAmount, moneyNumber)
	if t.err != nil {
		return
	}
	status := strings.ToLower(t.str(c.status))
	if status != "" && !strings.HasPrefix(status, "complete") && status != "staged" && status != "n/a" {
		b.skip(row, "not_completed", fmt.Sprintf("%s with status %q: nothing was delivered", typ, t.str(c.status)))
		return
	}
	tk, ok := msPlans[strings.ToLower(plan)]
	if !ok {
		tk = ticker(plan, "")
	}
	ref := t.str(c.order)
	if isEmptyCell(ref) || strings.Contains(strings.ToUpper(ref), "HIDDEN") {
		ref = ""
	}
	tx := model.Transaction{Date: date, Ticker: tk, Name: plan, BrokerRef: ref}
	switch {
	case strings.HasPrefix(low, "release"):
		t.msRelease(b, row, tx, qty.Abs(), price, netShares, netCash)
	case low == "sale" && strings.EqualFold(plan, "cash"):
		b.skip(row, "withdrawal", "dollars of the cash plan paid out (a cash withdrawal, not a share sale)")
	case low == "sale":
		qty = qty.Abs()
		if qty.Sign() <= 0 || price.Sign() <= 0 {
			b.warn(row, "trade", "sale of "+tk+" without a quantity or price", "add the SELL line by hand")
			return
		}
		tx.Action, tx.Quantity, tx.Price = model.Sell, num(qty), amount(price, "USD")
		gross := qty.Mul(price)
		if fees := gross.Sub(netAmount.Abs()); netAmount.Sign() != 0 && fees.Sign() > 0 {
			tx.Fees = amount(trimZeros(fees, 2), "USD")
		} else if netAmount.Sign() != 0 && fees.Sign() < 0 {
			// More cash than quantity × price: keep the cash as the consideration.
			tx.Price, tx.Total = model.Amount{}, amount(netAmount.Abs(), "USD")
		}
		b.add(row, tx)
	case strings.Contains(low, "wire") || strings.Contains(low, "check") || strings.Contains(low, "ach"):
		b.skip(row, "withdrawal", typ+": cash paid out of the stock-plan account")
	case strings.Contains(low, "transfer"):
		b.skip(row, "transfer", typ+": shares moved to another account of yours, not a disposal (the pool is per person)")
	default:
		b.warn(row, "unknown", fmt.Sprintf("type %q is not one cgt knows", typ), "if it moved shares, add the ledger line by hand")
	}
}

// msRelease is an RSU release: the shares deposited (net of those withheld for the tax) are
// acquired at the release price, the market value on the vest date.
func (t *table) msRelease(b *batch, row int, tx model.Transaction, qty, price, netShares, netCash decimal.Decimal) {
	deposited := netShares
	if deposited.Sign() <= 0 {
		deposited = qty
	}
	if deposited.Sign() <= 0 || price.Sign() <= 0 {
		b.warn(row, "rsu_vest", "release of "+tx.Ticker+" without a quantity or price", "add a BUY at the vest-date market value")
		return
	}
	tx.Action, tx.Quantity, tx.Price = model.Buy, num(deposited), amount(price, "USD")
	// The same release is in the Releases Report and the Net Shares Report: one reference
	// for both, so that importing both counts it once.
	tx.BrokerRef = "release " + tx.Date.String()
	b.add(row, tx)
	if netCash.Sign() > 0 {
		b.warnf("%s row %d: the release of %s also paid %s USD in cash (shares sold at release): add a SELL of those shares at the release price if they were yours before the sale",
			t.file, row, tx.Ticker, netCash)
	}
}
