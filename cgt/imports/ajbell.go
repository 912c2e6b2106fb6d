package imports

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// AJBell reads AJ Bell's transactionhistory.csv. Its layout is known from a single
// third-party fixture, so every column is required by name and a file without them is an
// error, never read by guessing.
var AJBell = &Importer{
	Name:      "ajbell",
	Title:     "AJ Bell transaction history CSV",
	Broker:    "AJ Bell",
	Page:      "ajbell",
	Signature: "header Date,Transaction,Description,Quantity,Price,Amount (GBP),Reference",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Date", "Transaction", "Description", "Quantity", "Price") && headerHas(c.Header, "Amount (GBP)")
	},
	Read: readAJBell,
}

var ajbellDates = []string{"02/01/2006", "2/1/2006"}

// ajbellListing finds "(LSE:VMID)" at the end of a description: where it starts and the
// ticker. Spaces may surround each part; the exchange is letters, the ticker letters, digits,
// dots and hyphens. (It is the regular expression \(\s*([A-Za-z]+)\s*:\s*([A-Za-z0-9.\-]+)\s*\)\s*$.)
func ajbellListing(desc string) (at int, tk string, ok bool) {
	for i := 0; i < len(desc); i++ {
		if desc[i] != '(' {
			continue
		}
		if tk, ok := ajbellListingAt(desc, i); ok {
			return i, tk, true
		}
	}
	return 0, "", false
}

func ajbellListingAt(s string, i int) (string, bool) {
	i = spacesFrom(s, i+1)
	j := i
	for j < len(s) && isASCIILetter(s[j]) {
		j++
	}
	if j == i {
		return "", false
	}
	if i = spacesFrom(s, j); i == len(s) || s[i] != ':' {
		return "", false
	}
	i = spacesFrom(s, i+1)
	j = i
	for j < len(s) && (isASCIILetter(s[j]) || isDigit(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	if j == i {
		return "", false
	}
	end := spacesFrom(s, j)
	if end == len(s) || s[end] != ')' || spacesFrom(s, end+1) != len(s) {
		return "", false
	}
	return s[i:j], true
}

type ajbellCols struct{ date, typ, desc, qty, price, amount, ref int }

func readAJBell(file string, src []byte) (*Import, error) {
	b := newBatch(file, "ajbell")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c ajbellCols
	if err = t.bind(column(&c.date, "Date"), column(&c.typ, "Transaction"), column(&c.desc, "Description"), column(&c.qty, "Quantity"), column(&c.price, "Price"), column(&c.amount, "Amount (GBP)"), column(&c.ref, "Reference")); err != nil {
		return nil, err
	}
	for t.next() {
		t.ajbellRow(b, c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) ajbellRow(b *batch, c ajbellCols) {
	row := t.line
	date := t.date(c.date, ajbellDates...)
	typ := t.str(c.typ)
	low := strings.ToLower(typ)
	desc := t.str(c.desc)
	qty, _ := t.decOK(c.qty, moneyNumber)
	price, _ := t.decOK(c.price, moneyNumber)
	amt, _ := t.decOK(c.amount, moneyNumber)
	if t.err != nil {
		return
	}
	qty = qty.Abs()
	name, tk := desc, ""
	if at, listed, ok := ajbellListing(desc); ok {
		name, tk = strings.TrimSpace(desc[:at]), ticker(listed, "")
	}
	security := tk != "" || qty.Sign() > 0
	if tk == "" && security {
		tk = ticker(name, "")
	}
	tx := model.Transaction{Date: date, Ticker: tk, Name: name, BrokerRef: t.str(c.ref)}
	switch {
	case low == "purchase" || low == "sale":
		tx.Action = model.Buy
		if low == "sale" {
			tx.Action = model.Sell
		}
		if qty.Sign() <= 0 || amt.IsZero() {
			b.warn(row, "trade", fmt.Sprintf("%s of %s without a quantity or amount", low, tk), "add the "+string(tx.Action)+" line by hand")
			return
		}
		total, costs, _ := splitCosts(tx.Action == model.Buy, qty, price, amt.Abs())
		tx.Quantity, tx.Total = num(qty), amount(total, model.GBP)
		if costs.Sign() > 0 {
			tx.Fees = amount(costs, model.GBP)
		}
		b.add(row, tx)
	case strings.Contains(low, "accumulation"):
		// Income kept in an accumulation fund: taxed as income and added to the cost of
		// the holding (CG57707).
		// The row gives the amount, or the units held and the rate per unit; the units are
		// information only (0 when the row leaves them out).
		total := amt.Abs()
		if total.IsZero() && qty.Sign() > 0 {
			total = qty.Mul(price.Abs())
		}
		if tk == "" || total.IsZero() {
			b.warn(row, "accumulation", "accumulation distribution of "+clip(desc, 60)+" without a security or an amount",
				"add an ACCUMULATION line with the units held and the amount from the fund's tax voucher")
			return
		}
		tx.Action, tx.Quantity, tx.Total = model.Accumulation, num(qty), amount(total, model.GBP)
		b.add(row, tx)
	case strings.Contains(low, "dividend") || strings.Contains(low, "distribution") || strings.Contains(low, "income"):
		if amt.Sign() <= 0 || tk == "" {
			b.warn(row, "dividend", fmt.Sprintf("%s of %q without a security or a positive amount", typ, clip(desc, 60)), "add a DIVIDEND line by hand if it was income")
			return
		}
		tx.Action, tx.Total = model.Dividend, amount(amt, model.GBP)
		b.dividend(row, tk+"|"+date.String(), tx)
	case strings.Contains(low, "interest"):
		b.skip(row, "interest", typ+": interest is income, not a capital transaction")
	case strings.Contains(low, "fee") || strings.Contains(low, "charge"):
		b.skip(row, "fee", typ+": an account charge, not a cost of a trade")
	case strings.Contains(low, "received") || strings.Contains(low, "deposit") || strings.Contains(low, "subscription") || strings.Contains(low, "contribution"):
		b.skip(row, "deposit", "cash paid in: "+typ)
	case strings.Contains(low, "withdrawal") || strings.Contains(low, "payment out") || strings.Contains(low, "paid out"):
		b.skip(row, "withdrawal", "cash paid out: "+typ)
	case security:
		b.warn(row, "unknown", fmt.Sprintf("transaction %q for %s is not one cgt knows", typ, tk),
			"if it changed the holding or its cost, add the ledger line by hand")
	default:
		b.skip(row, "cash", fmt.Sprintf("cash movement %q without a security: not a share transaction", typ))
	}
}
