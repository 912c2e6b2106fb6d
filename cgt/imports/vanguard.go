package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Vanguard reads a Vanguard Investor (UK) account report saved as CSV: a "Cash Transactions"
// table (Date, Details, Amount, Balance) and, when the report includes it, an "Investment
// Transactions" table (Date, InvestmentName, TransactionDetails, Quantity, Price, Cost). Trades
// come from the investment table (the deal dates) at the sterling the cash table shows moving;
// a report with the cash table alone gives them from their cash legs.
var Vanguard = &Importer{
	Name:      "vanguard",
	Title:     "Vanguard Investor (UK) transactions report CSV",
	Broker:    "Vanguard Investor",
	Page:      "vanguard",
	Signature: `a "Date,InvestmentName,TransactionDetails,Quantity,Price,Cost" header, or a "Date,Details,Amount,Balance" header with Vanguard's row texts (Bought, Sold, DIV:, Cash Account Interest)`,
	Detect: func(c *Content) bool {
		cash := false
		for _, l := range c.Lines {
			f := splitHeader(l)
			switch {
			case vanguardInvestmentHeader(f):
				return true
			case vanguardCashHeader(f):
				cash = true
			case cash && len(f) > 1 && vanguardCashText(f[1]):
				return true
			case strings.EqualFold(f[0], "Cash Transactions") || strings.EqualFold(f[0], "Investment Transactions"):
				cash = cash || strings.EqualFold(f[0], "Investment Transactions")
			}
		}
		return false
	},
	Read: readVanguard,
}

// vanguardCashText reports how Vanguard's cash rows begin, any case (the regular expression
// (?i)^(Bought |Sold |DIV: |Reversal of |Cash Account Interest|Deposit for investment|Regular Deposit|Account Fee for the period)).
func vanguardCashText(s string) bool {
	for _, w := range []string{"bought ", "sold ", "div: ", "reversal of ", "cash account interest", "deposit for investment", "regular deposit", "account fee for the period"} {
		if _, ok := foldPrefixAt(s, 0, w); ok {
			return true
		}
	}
	return false
}

// vanguardDealText is a deal's description: "Bought 1,550 Foo ETF Distributing (FOO)" and
// "Sold .9232 Bar Fund".
type vanguardDealText struct{ verb, qty, name string }

// vanguardDeal reads a deal's description: Bought or Sold (any case), the quantity (digits
// and commas, then decimals after a dot; or a dot and decimals) and the name, spaced, on one
// line (the regular expression (?i)^(Bought|Sold)\s+([0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+)\s+(.+)$).
func vanguardDeal(s string) (vanguardDealText, bool) {
	verb, ok := foldPrefixAt(s, 0, "bought")
	if !ok {
		if verb, ok = foldPrefixAt(s, 0, "sold"); !ok {
			return vanguardDealText{}, false
		}
	}
	q := spacesFrom(s, verb)
	qEnd := q
	switch {
	case q < len(s) && isDigit(s[q]):
		for qEnd < len(s) && (isDigit(s[qEnd]) || s[qEnd] == ',') {
			qEnd++
		}
		if qEnd+1 < len(s) && s[qEnd] == '.' && isDigit(s[qEnd+1]) {
			qEnd = digitsFrom(s, qEnd+1)
		}
	case q+1 < len(s) && s[q] == '.' && isDigit(s[q+1]):
		qEnd = digitsFrom(s, q+1)
	}
	name := spacesFrom(s, qEnd)
	if q == verb || qEnd == q || name == qEnd {
		return vanguardDealText{}, false
	}
	if name == len(s) {
		// Only spaces after the quantity: the name is the last of them, when it can be.
		if name-qEnd < 2 || s[name-1] == '\n' {
			return vanguardDealText{}, false
		}
		name--
	}
	if strings.IndexByte(s[name:], '\n') >= 0 {
		return vanguardDealText{}, false
	}
	return vanguardDealText{verb: s[:verb], qty: s[q:qEnd], name: s[name:]}, true
}

func isVanguardDeal(s string) bool {
	_, ok := vanguardDeal(s)
	return ok
}

// vanguardDiv reads "DIV: FOO.XLON.GB @ GBP 0.4106" as FOO (the regular expression
// (?i)^DIV:\s*([A-Z0-9]+)[^ ]*).
func vanguardDiv(s string) (string, bool) {
	i, ok := foldPrefixAt(s, 0, "div:")
	if !ok {
		return "", false
	}
	return vanguardCode(s, spacesFrom(s, i))
}

// vanguardAcc reads an accumulation distribution written like a dividend: "ACC: FOO.XLON.GB
// @ GBP 0.4106" or "Accumulation: FOO..." (the regular expression
// (?i)^ACC(?:UMULATION)?:\s*([A-Z0-9]+)[^ ]*).
func vanguardAcc(s string) (string, bool) {
	i, ok := foldPrefixAt(s, 0, "accumulation:")
	if !ok {
		if i, ok = foldPrefixAt(s, 0, "acc:"); !ok {
			return "", false
		}
	}
	return vanguardCode(s, spacesFrom(s, i))
}

// vanguardCode reads letters (any case) and digits at i.
func vanguardCode(s string, i int) (string, bool) {
	j := i
	for j < len(s) {
		if isDigit(s[j]) {
			j++
		} else if w := foldLetterAt(s, j); w > 0 {
			j += w
		} else {
			break
		}
	}
	return s[i:j], j > i
}

var vanguardDates = []string{"02/01/2006", "2/1/2006", "2006-01-02"}

func vanguardCashHeader(f []string) bool {
	return headerFields(f, "Date", "Details", "Amount")
}

func vanguardInvestmentHeader(f []string) bool {
	return headerFields(f, "Date", "InvestmentName", "TransactionDetails", "Quantity")
}

// headerFields reports whether the fields name every column given, in any order.
func headerFields(f []string, names ...string) bool {
	for _, n := range names {
		found := false
		for _, x := range f {
			if strings.EqualFold(strings.TrimSpace(x), n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

type vanguardCash struct {
	_ model.NotComparable

	line    int
	date    model.Date
	details string
	amount  decimal.Decimal
	done    bool // accounted for (matched to an investment row, or a reversal pair)
	tx      int  // index of the trade it became or was matched with, -1 when none
}

type vanguardInv struct {
	_ model.NotComparable

	line             int
	date             model.Date
	name, details    string
	qty, price, cost decimal.Decimal
	hasCost          bool
}

func readVanguard(file string, src []byte) (*Import, error) {
	b := newBatch(file, "vanguard")
	t := &table{file: file, b: b}
	var cash []*vanguardCash
	var inv []vanguardInv
	kind := "" // "cash" or "investment": the table whose header is current
	headers := 0
	err := eachRecord(file, src, func(line int, rec []string) error {
		switch {
		case vanguardInvestmentHeader(rec):
			kind, headers = "investment", headers+1
			t.section(ibkrLine{line: line, fields: rec})
			return t.require("Date", "InvestmentName", "TransactionDetails", "Quantity", "Cost")
		case vanguardCashHeader(rec):
			kind, headers = "cash", headers+1
			t.section(ibkrLine{line: line, fields: rec})
			return t.require("Date", "Details", "Amount")
		}
		if vanguardDecoration(rec) {
			return nil // account label, table title, page label, or a Balance/Cost summary
		}
		if kind == "" {
			if _, ok := parseDate(rec[0], vanguardDates...); ok {
				return &model.Error{Code: model.CodeParse, File: file, Line: line, Value: clip(strings.Join(rec, ","), 120),
					Message: fmt.Sprintf("%s row %d comes before any table header (Date,Details,Amount,Balance or Date,InvestmentName,TransactionDetails,Quantity,Price,Cost)", file, line),
					Hint:    "Save the Vanguard report again as CSV without removing its header lines."}
			}
			return nil
		}
		if !t.use(ibkrLine{line: line, section: kind + " table", fields: rec}) {
			return t.err
		}
		date := t.date(t.col("Date"), vanguardDates...)
		var c *vanguardCash
		var v vanguardInv
		if kind == "cash" {
			c = &vanguardCash{line: line, date: date, details: t.str(t.col("Details")), amount: t.money(t.col("Amount")), tx: -1}
		} else {
			v = vanguardInv{line: line, date: date, name: t.str(t.col("InvestmentName")), details: t.str(t.col("TransactionDetails")),
				qty: t.money(t.col("Quantity")), price: t.money(t.col("Price"))}
			v.cost, v.hasCost = t.decOK(t.col("Cost"), moneyNumber)
		}
		if t.err != nil {
			t.settle() // a value with a control character: the row is skipped, the rest read
			return t.err
		}
		if c != nil {
			cash = append(cash, c)
		} else {
			inv = append(inv, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if headers == 0 {
		isHeader := func(f []string) bool { return vanguardCashHeader(f) || vanguardInvestmentHeader(f) }
		if e := delimitedHeader(file, src, isHeader); e != nil {
			return nil, e
		}
		return nil, &model.Error{Code: model.CodeParse, File: file, Line: 1,
			Message: fmt.Sprintf("%s has no Vanguard table header (Date,Details,Amount,Balance or Date,InvestmentName,TransactionDetails,Quantity,Price,Cost)", file),
			Hint:    "Save the Vanguard report again as CSV without removing its header lines."}
	}
	v := &vanguardReader{b: b, file: file}
	v.investments(inv, cash)
	v.cashRows(cash)
	v.accumulationNotes()
	return b.done(), nil
}

// vanguardDecoration reports a line that is not a row: a single text cell (the account
// label, a table title, "Page 1 of 2") or a summary ("Balance,23.59", "Cost,12545").
func vanguardDecoration(rec []string) bool {
	switch strings.ToLower(rec[0]) {
	case "balance", "cost", "amount", "quantity", "price", "details", "investmentname", "transactiondetails",
		"cash transactions", "investment transactions":
		return true
	}
	n := 0
	for _, f := range rec {
		if f != "" {
			n++
		}
	}
	if n == 1 && rec[0] != "" {
		_, isDate := parseDate(rec[0], vanguardDates...)
		return !isDate
	}
	return false
}

type vanguardReader struct {
	b     *batch
	file  string
	accum map[string]string // accumulation funds traded: ticker -> name
	order []string
	given map[string]bool // accumulation funds whose distributions the export gives
}

// vanguardKey normalises a deal text for matching a cash leg with its investment row.
func vanguardKey(s string) string {
	s = strings.NewReplacer("\u2013", "-", "\u2014", "-").Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}

func (v *vanguardReader) note(tk, name string) {
	low := strings.ToLower(name)
	if !strings.Contains(low, "accumulat") && !strings.HasSuffix(low, " acc") {
		return
	}
	if v.accum == nil {
		v.accum = map[string]string{}
	}
	if _, ok := v.accum[tk]; !ok {
		v.accum[tk] = name
		v.order = append(v.order, tk)
	}
}

// investments adds a trade for each investment row, at the sterling of its cash leg when the
// cash table has it (the cash that moved), else at its Cost.
func (v *vanguardReader) investments(inv []vanguardInv, cash []*vanguardCash) {
	b := v.b
	legs := indexVanguardLegs(cash)
	for _, r := range inv {
		details := r.details
		if strings.HasPrefix(strings.ToLower(details), "namechange") {
			b.warn(r.line, "rename", "name change: "+details, "add an ALIAS line joining the old ticker and the new one")
			continue
		}
		if strings.HasPrefix(strings.ToLower(details), "reversal of") {
			b.warn(r.line, "trade_reversal", "a reversed deal: "+details, "remove or correct the deal it reverses by hand")
			continue
		}
		if low := strings.ToLower(details); !hasPrefixFold(details, "Bought") && !hasPrefixFold(details, "Sold") &&
			(strings.Contains(low, "accumulation") || strings.HasPrefix(low, "acc:")) {
			v.accumulation(r)
			continue
		}
		action := model.Buy
		switch {
		case hasPrefixFold(details, "Sold"):
			action = model.Sell
		case hasPrefixFold(details, "Bought"):
		case details == "" && r.qty.Sign() < 0:
			action = model.Sell
		case details == "" && r.qty.Sign() > 0:
		default:
			b.warn(r.line, "unknown", fmt.Sprintf("investment row %q is not one cgt knows", details), "if it moved units, add the ledger line by hand")
			continue
		}
		qty := r.qty.Abs()
		if qty.IsZero() {
			b.warn(r.line, "trade", "deal in "+r.name+" without a quantity", "add the "+string(action)+" line by hand")
			continue
		}
		total := r.cost.Abs()
		leg := legs.find(r, details, action, qty)
		if leg != nil && !leg.amount.IsZero() {
			total = leg.amount.Abs()
		}
		if total.IsZero() {
			b.warn(r.line, "trade", "deal in "+r.name+" without a cost", "add the "+string(action)+" line by hand")
			continue
		}
		tk := tickerFromFundName(r.name)
		v.note(tk, r.name)
		b.add(r.line, model.Transaction{Date: r.date, Action: action, Ticker: tk, Quantity: num(qty),
			Total: amount(total, model.GBP), Name: r.name})
		if leg != nil {
			leg.done, leg.tx = true, len(b.imp.Transactions)-1
		}
	}
}

// vanguardLegs are the cash rows indexed two ways, so that each investment row looks only at
// the rows that could be its cash leg (a scan of every cash row for each made a large export
// quadratic): by deal text, and by direction and quantity ("Sold 12.5 ...") for the rows worded
// unlike their investment row.
type vanguardLegs struct {
	byText, byDeal map[string]*vanguardBucket
}

// vanguardBucket is the cash rows of one key, in order; next skips the rows at the front
// already matched.
type vanguardBucket struct {
	rows []*vanguardCash
	next int
}

func indexVanguardLegs(cash []*vanguardCash) vanguardLegs {
	ix := vanguardLegs{byText: map[string]*vanguardBucket{}, byDeal: map[string]*vanguardBucket{}}
	add := func(m map[string]*vanguardBucket, k string, c *vanguardCash) {
		if m[k] == nil {
			m[k] = &vanguardBucket{}
		}
		m[k].rows = append(m[k].rows, c)
	}
	for _, c := range cash {
		add(ix.byText, vanguardKey(c.details), c)
		if m, ok := vanguardDeal(c.details); ok {
			if q, ok := parseNumber(m.qty, moneyNumber); ok {
				add(ix.byDeal, dealKey(strings.EqualFold(m.verb, "Sold"), q), c)
			}
		}
	}
	return ix
}

func dealKey(sold bool, qty decimal.Decimal) string {
	if sold {
		return "S " + qty.String()
	}
	return "B " + qty.String()
}

// find is the cash leg of an investment row: the first unmatched row with the same deal text
// within 10 days, else the nearest unmatched row of the same direction and quantity within 10
// days (the two tables may word a fund differently), so that a deal is never read twice, once
// from each table.
func (ix vanguardLegs) find(r vanguardInv, details string, action model.Action, qty decimal.Decimal) *vanguardCash {
	if details != "" {
		if l := ix.byText[vanguardKey(details)]; l != nil {
			for _, c := range l.unmatched() {
				if !c.done && daysApart(c.date, r.date) <= 10 {
					return c
				}
			}
		}
	}
	l := ix.byDeal[dealKey(action == model.Sell, qty)]
	if l == nil {
		return nil
	}
	var found *vanguardCash
	for _, c := range l.unmatched() {
		if c.done || daysApart(c.date, r.date) > 10 {
			continue
		}
		if found == nil || daysApart(c.date, r.date) < daysApart(found.date, r.date) {
			found = c
		}
	}
	return found
}

// unmatched is the bucket's rows from the first one not yet matched.
func (l *vanguardBucket) unmatched() []*vanguardCash {
	for l.next < len(l.rows) && l.rows[l.next].done {
		l.next++
	}
	return l.rows[l.next:]
}

// accumulation adds an investment row that records an accumulation fund's distribution (the
// income kept in the fund): an ACCUMULATION of its amount, added to the cost of the holding.
func (v *vanguardReader) accumulation(r vanguardInv) {
	total := r.cost.Abs()
	if total.IsZero() && !r.qty.IsZero() && !r.price.IsZero() {
		total = r.qty.Abs().Mul(r.price.Abs())
	}
	if total.IsZero() {
		v.b.warn(r.line, "accumulation", "accumulation distribution of "+r.name+" without an amount",
			"add an ACCUMULATION line with the amount from the fund's tax voucher")
		return
	}
	tk := tickerFromFundName(r.name)
	v.noted(tk)
	v.b.add(r.line, model.Transaction{Date: r.date, Action: model.Accumulation, Ticker: tk, Quantity: num(decimal.Zero),
		Total: amount(total, model.GBP), Name: r.name})
}

// noted records that the export itself gives a fund's accumulation distributions, so that the
// note asking for them by hand is not written.
func (v *vanguardReader) noted(tk string) {
	if v.given == nil {
		v.given = map[string]bool{}
	}
	v.given[tk] = true
}

func daysApart(a, b model.Date) int {
	d := int(a) - int(b)
	if d < 0 {
		return -d
	}
	return d
}

func (v *vanguardReader) cashRows(cash []*vanguardCash) {
	b := v.b
	byDate := map[model.Date][]*vanguardCash{} // for the dealing fees: the rows of their day
	for _, c := range cash {
		byDate[c.date] = append(byDate[c.date], c)
	}
	// A reversal cancels the earlier row with the same text and the opposite amount.
	for i, c := range cash {
		if c.done || !hasPrefixFold(c.details, "Reversal of ") {
			continue
		}
		orig := strings.TrimSpace(c.details[len("Reversal of "):])
		for j := i - 1; j >= 0; j-- {
			o := cash[j]
			if !o.done && strings.EqualFold(o.details, orig) && o.amount.Add(c.amount).IsZero() {
				o.done, c.done = true, true
				b.skip(o.line, "reversed", fmt.Sprintf("%s: reversed by row %d", o.details, c.line))
				b.skip(c.line, "reversal", fmt.Sprintf("reverses row %d (%s)", o.line, o.details))
				break
			}
		}
	}
	unmatched := 0
	for _, c := range cash {
		if c.done {
			if c.tx >= 0 {
				b.fold(c.line) // the cash leg of a deal read from the investment table
			}
			continue
		}
		d := c.details
		low := strings.ToLower(d)
		deal, isDeal := vanguardDeal(d)
		div, isDiv := vanguardDiv(d)
		acc, isAcc := vanguardAcc(d)
		switch {
		case isDeal:
			qty, ok := parseNumber(deal.qty, moneyNumber)
			action := model.Buy
			if strings.EqualFold(deal.verb, "Sold") {
				action = model.Sell
			}
			if !ok || qty.IsZero() || c.amount.IsZero() {
				b.warn(c.line, "trade", "deal without a quantity or amount: "+d, "add the "+string(action)+" line by hand")
				continue
			}
			name := strings.TrimSpace(deal.name)
			tk := tickerFromFundName(name)
			v.note(tk, name)
			b.add(c.line, model.Transaction{Date: c.date, Action: action, Ticker: tk, Quantity: num(qty),
				Total: amount(c.amount.Abs(), model.GBP), Name: name})
			c.tx = len(b.imp.Transactions) - 1
			unmatched++
		case isDiv:
			if c.amount.Sign() <= 0 {
				b.skip(c.line, "dividend_reversal", d+": a negative dividend (income, not a CGT figure)")
				continue
			}
			b.add(c.line, model.Transaction{Date: c.date, Action: model.Dividend, Ticker: ticker(div, ""),
				Total: amount(c.amount, model.GBP), Name: d})
		case isAcc && c.amount.Sign() > 0:
			tk := ticker(acc, "")
			v.noted(tk)
			b.add(c.line, model.Transaction{Date: c.date, Action: model.Accumulation, Ticker: tk, Quantity: num(decimal.Zero),
				Total: amount(c.amount, model.GBP), Name: d})
		case strings.Contains(low, "interest"):
			b.skip(c.line, "interest", d+": interest is income, not a capital transaction")
		case strings.Contains(low, "dealing fee"):
			v.dealingFee(c, byDate[c.date])
		case strings.Contains(low, "fee"):
			b.skip(c.line, "fee", d+": an account fee, not a cost of a trade")
		case strings.Contains(low, "deposit"):
			b.skip(c.line, "deposit", d)
		case strings.Contains(low, "withdrawal") || strings.HasPrefix(low, "payment by"):
			b.skip(c.line, "withdrawal", d)
		case strings.Contains(low, "transfer"):
			b.skip(c.line, "transfer", d+": cash moved between your own accounts")
		default:
			b.warn(c.line, "unknown", fmt.Sprintf("cash row %q is not one cgt knows", d),
				"if it was a deal, a capital return or cash from a corporate action, add that line by hand")
		}
	}
	if unmatched > 0 {
		b.warnf("%s: %d deal(s) read from the Cash Transactions table alone are dated when the cash moved, which can be a day or two from the deal date; export the report with its Investment Transactions table for the deal dates", v.file, unmatched)
	}
}

// dealingFee adds an ETF dealing fee to the one deal whose cash moved the same day; with no
// such deal, or several, it is a warning. sameDay are the cash rows of the fee's day.
func (v *vanguardReader) dealingFee(c *vanguardCash, sameDay []*vanguardCash) {
	b := v.b
	fee := c.amount.Abs()
	idx := -1
	for _, o := range sameDay {
		if o.tx >= 0 && o.date == c.date && isVanguardDeal(o.details) {
			if idx >= 0 && idx != o.tx {
				idx = -2
				break
			}
			idx = o.tx
		}
	}
	if idx < 0 {
		b.warn(c.line, "fee", fmt.Sprintf("%s of %s GBP on %s is not matched to one deal", c.details, fee, c.date),
			"add it to the FEES of the ETF deal it was charged for (it is an allowable cost)")
		return
	}
	tx := &b.imp.Transactions[idx]
	tx.Fees = amount(tx.Fees.Value.Exact().Add(fee), model.GBP)
	b.fold(c.line)
}

// accumulationNotes warns once per accumulation fund: its reinvested income is not in the
// export, and each notional distribution adds to the allowable cost.
func (v *vanguardReader) accumulationNotes() {
	for _, tk := range v.order {
		if v.given[tk] {
			continue
		}
		v.b.warnf("%s: %s (%s) is an accumulation fund: its reinvested income is not in Vanguard's export; add an ACCUMULATION line for each distribution (the amounts are on Vanguard's annual tax voucher), or its cost is understated",
			v.file, tk, v.accum[tk])
	}
}
