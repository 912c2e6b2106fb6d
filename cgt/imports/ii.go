package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// II reads interactive investor's transactions CSV. A security is known by its SEDOL: the
// Symbol column may change over the years (or be n/a), so every row of one SEDOL gets the
// ticker first seen for it. Money is written "£1,234.56" (a "$" or "€" in the file of a
// currency account); Debit is cash paid out, Credit cash paid in.
var II = &Importer{
	Name:      "ii",
	Title:     "interactive investor transactions CSV",
	Broker:    "interactive investor",
	Page:      "ii",
	Signature: "header starting Date,Settlement Date,Symbol,Sedol with Debit,Credit columns",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Date", "Settlement Date", "Symbol", "Sedol") && headerHas(c.Header, "Debit", "Credit")
	},
	Read: readII,
}

// iiDates: dd/mm/yyyy (a two-digit year is accepted too).
var iiDates = []string{"02/01/2006", "02/01/06"}

type iiCols struct{ date, symbol, sedol, qty, price, desc, ref, debit, credit int }

// iiCash reports a currency purchase: "1,000 U.S. DOLLARS ... S Date 01/02/24", an amount
// and a currency's name or code, any case (the regular expression
// (?i)^[\d,.]+\s+(u\.?s\.?\s+dollars?|dollars?|euros?|pounds?|sterling|[a-z]{3})\b).
func iiCash(desc string) bool {
	n := 0
	for n < len(desc) && (isDigit(desc[n]) || desc[n] == ',' || desc[n] == '.') {
		n++
	}
	i := spacesFrom(desc, n)
	if n == 0 || i == n {
		return false
	}
	if j, ok := foldPrefixAt(desc, i, "u"); ok {
		if j < len(desc) && desc[j] == '.' {
			j++
		}
		if j, ok = foldPrefixAt(desc, j, "s"); ok {
			if j < len(desc) && desc[j] == '.' {
				j++
			}
			if k := spacesFrom(desc, j); k > j && iiWordAt(desc, k, "dollar", true) {
				return true
			}
		}
	}
	for _, w := range []string{"dollar", "euro", "pound"} {
		if iiWordAt(desc, i, w, true) {
			return true
		}
	}
	if iiWordAt(desc, i, "sterling", false) {
		return true
	}
	j := i
	for range 3 {
		if w := foldLetterAt(desc, j); w > 0 {
			j += w
		} else {
			return false
		}
	}
	return atBoundary(desc, j)
}

// iiWordAt reports word (any case, with an s after it when plural may be) at i, ending a word.
func iiWordAt(s string, i int, word string, plural bool) bool {
	j, ok := foldPrefixAt(s, i, word)
	if !ok {
		return false
	}
	if k, ok := foldPrefixAt(s, j, "s"); plural && ok && atBoundary(s, k) {
		return true
	}
	return atBoundary(s, j)
}

func readII(file string, src []byte) (*Import, error) {
	b := newBatch(file, "ii")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c iiCols
	if err = t.bind(column(&c.date, "Date"), column(&c.desc, "Description"), column(&c.debit, "Debit"), column(&c.credit, "Credit")); err != nil {
		return nil, err
	}
	c.symbol, c.sedol, c.qty, c.price, c.ref = t.col("Symbol"), t.col("Sedol", "SEDOL"), t.col("Quantity"), t.col("Price"), t.col("Reference")
	bySedol := map[string]string{} // SEDOL -> the ticker first seen for it
	for t.next() {
		t.iiRow(b, c, bySedol)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) iiRow(b *batch, c iiCols, bySedol map[string]string) {
	row := t.line
	date := t.date(c.date, iiDates...)
	desc := t.str(c.desc)
	low := strings.ToLower(desc)
	symbol, sedol := t.str(c.symbol), t.str(c.sedol)
	if isEmptyCell(symbol) {
		symbol = ""
	}
	if isEmptyCell(sedol) {
		sedol = ""
	}
	qty, hasQty := t.decOK(c.qty, moneyNumber)
	price, _ := t.decOK(c.price, moneyNumber)
	debit, _ := t.decOK(c.debit, moneyNumber)
	credit, _ := t.decOK(c.credit, moneyNumber)
	if t.err != nil {
		return
	}
	ccy := model.GBP
	for _, s := range []string{t.str(c.debit), t.str(c.credit), t.str(c.price)} {
		if sign := moneySign(s); sign != "" {
			ccy = sign
			break
		}
	}
	debit, credit = debit.Abs(), credit.Abs()
	tk := ticker(symbol, sedol)
	if sedol != "" {
		if first, ok := bySedol[sedol]; ok && first != tk {
			if tk != "" {
				b.warnf("%s row %d: SEDOL %s is written %s here and %s on an earlier row: both are read as %s (one security)", t.file, row, sedol, tk, first, first)
			}
			tk = first
		} else if !ok && tk != "" {
			bySedol[sedol] = tk
		}
	}
	security := tk != ""
	base := model.Transaction{Date: date, Ticker: tk, Name: iiName(desc), BrokerRef: iiRef(t.str(c.ref))}
	switch {
	case security && (strings.HasPrefix(low, "div ") || low == "div" || strings.HasPrefix(low, "dividend")):
		if credit.Sign() <= 0 {
			b.warn(row, "dividend", "dividend row for "+tk+" without a credit (a reversal?)", "if a dividend was reversed, remove or correct its DIVIDEND line by hand")
			return
		}
		tx := base
		tx.Action, tx.Total = model.Dividend, amount(credit, ccy)
		b.dividend(row, tk+"|"+date.String(), tx)
	case security && hasQty && qty.Sign() != 0:
		t.iiTrade(b, row, base, qty.Abs(), price, debit, credit, ccy)
	case security:
		b.warn(row, "unknown", fmt.Sprintf("%q for %s is not a row cgt knows", clip(desc, 60), tk),
			"if it changed your holding or its cost (a corporate action, a return of capital), add the ledger line by hand")
	case strings.Contains(low, "interest"):
		b.skip(row, "interest", desc+": interest is income, not a capital transaction")
	case strings.Contains(low, "fee") || strings.Contains(low, "charge") || strings.Contains(low, "subscription"):
		b.skip(row, "fee", desc+": an account fee, not a cost of a trade")
	case iiCash(desc):
		b.skip(row, "fx_conversion", "currency bought or sold between cash balances: "+desc)
	case credit.Sign() > 0:
		b.skip(row, "deposit", "cash paid in: "+desc)
	case debit.Sign() > 0:
		b.skip(row, "withdrawal", "cash paid out: "+desc)
	default:
		b.skip(row, "statement", "no cash or shares moved: "+desc)
	}
}

// iiTrade converts a deal: a debit is a purchase, a credit a sale. The cash includes the
// commission and stamp duty, which ii does not itemise: when quantity × price is a whole
// number of pence the difference is the costs, otherwise the cash is the total.
func (t *table) iiTrade(b *batch, row int, tx model.Transaction, qty, price, debit, credit decimal.Decimal, ccy string) {
	switch {
	case debit.Sign() > 0 && credit.IsZero():
		tx.Action = model.Buy
	case credit.Sign() > 0 && debit.IsZero():
		tx.Action = model.Sell
	default:
		b.warn(row, "transfer", fmt.Sprintf("%s shares of %s moved without cash (a transfer or corporate action)", qty, tx.Ticker),
			"if these shares came from another of your accounts they are already in your ledger; otherwise add the BUY, SPLIT or other line that fits, with its cost")
		return
	}
	cash := debit.Add(credit)
	total, costs, _ := splitCosts(tx.Action == model.Buy, qty, price, cash)
	tx.Quantity, tx.Total = num(qty), amount(total, ccy)
	if costs.Sign() > 0 {
		tx.Fees = amount(costs, ccy)
	}
	b.add(row, tx)
}

// iiName is the security's name from a description: "2000 BARCLAYS PLC  Del 2.09 S Date
// 13/06/24" and "Div BARCLAYS PLC" both give "BARCLAYS PLC".
func iiName(desc string) string {
	s := strings.TrimSpace(desc)
	if len(s) > 4 && strings.EqualFold(s[:4], "div ") {
		return strings.TrimSpace(s[4:])
	}
	if i := strings.IndexByte(s, ' '); i > 0 {
		if _, ok := parseNumber(s[:i], moneyNumber); ok {
			s = s[i+1:]
		}
	}
	if i := iiDealDetails(s); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

// iiDealDetails finds where the deal details start in a description, "  Del 2.09 S Date
// ...": spaces, then the word Del or S Date; -1 when there are none (the regular expression
// \s+(Del|S Date)(\s|$)).
func iiDealDetails(s string) int {
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			continue
		}
		j := spacesFrom(s, i)
		for _, w := range []string{"Del", "S Date"} {
			if end := j + len(w); hasAt(s, j, w) && (end == len(s) || isSpace(s[end])) {
				return i
			}
		}
		i = j - 1 // every space of the run is followed by the same word
	}
	return -1
}

func iiRef(s string) string {
	if isEmptyCell(s) {
		return ""
	}
	return s
}
