package imports

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Revolut reads Revolut's trading account statement CSV. The account is in a foreign
// currency (US dollars, or euros for accounts moved to Revolut Securities Europe): amounts
// stay in the Currency column's currency. Money may carry a currency sign and thousands
// separators, and newer rows write a decimal comma.
var Revolut = &Importer{
	Name:      "revolut",
	Title:     "Revolut trading account statement CSV",
	Broker:    "Revolut",
	Page:      "revolut",
	Signature: "header starting Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Date", "Ticker", "Type", "Quantity") && headerHas(c.Header, "Price per share", "Total Amount", "Currency")
	},
	Read: readRevolut,
}

// revolutDates: ISO 8601 in UTC with micro- or milliseconds and Z.
var revolutDates = []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"}

type revolutCols struct{ date, tk, typ, qty, price, total, ccy int }

func readRevolut(file string, src []byte) (*Import, error) {
	b := newBatch(file, "revolut")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c revolutCols
	if err = t.bind(column(&c.date, "Date"), column(&c.tk, "Ticker"), column(&c.typ, "Type"), column(&c.qty, "Quantity"), column(&c.price, "Price per share"), column(&c.total, "Total Amount"), column(&c.ccy, "Currency")); err != nil {
		return nil, err
	}
	for t.next() {
		t.revolutRow(b, c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) revolutRow(b *batch, c revolutCols) {
	row := t.line
	date := t.isoDate(c.date, revolutDates, "Revolut")
	typ := t.str(c.typ)
	kind := strings.ToUpper(strings.ReplaceAll(typ, "_", " "))
	tk := ticker(t.str(c.tk), "")
	// A row whose amounts have decimal commas has one in its quantity too ("1,234" = 1.234).
	qty, _ := t.local(c.qty, rowStyle(t.str(c.price), t.str(c.total)))
	price, _ := t.local(c.price, commaThousands)
	total, _ := t.local(c.total, commaThousands)
	ccy := ""
	if t.str(c.ccy) != "" {
		ccy, _ = t.currency(c.ccy)
	}
	if t.err != nil {
		return
	}
	if ccy == "" {
		ccy = moneySign(t.str(c.total))
	}
	if ccy == "" {
		t.fail(c.ccy, "", "the row has no currency", "Export the statement again; every row of Revolut's statement names its currency.")
		return
	}
	qty = qty.Abs()
	tx := model.Transaction{Date: date, Ticker: tk}
	switch {
	case strings.HasPrefix(kind, "BUY") || strings.HasPrefix(kind, "SELL"):
		tx.Action = model.Buy
		if strings.HasPrefix(kind, "SELL") {
			tx.Action = model.Sell
		}
		cash := total.Abs()
		if tk == "" || qty.Sign() <= 0 || (cash.IsZero() && price.Sign() <= 0) {
			b.warn(row, "trade", fmt.Sprintf("%s of %q without a ticker, quantity or amount", typ, t.str(c.tk)), "add the "+string(tx.Action)+" line by hand")
			return
		}
		tx.Quantity = num(qty)
		// The cash that moved is the consideration; the price is kept when quantity × price
		// comes to it exactly.
		if cash.IsZero() || (price.Sign() > 0 && qty.Mul(price).Equal(cash)) {
			tx.Price = amount(price.Abs(), ccy)
		} else {
			tx.Total = amount(cash, ccy)
		}
		b.add(row, tx)
	case strings.HasPrefix(kind, "DIVIDEND TAX") || strings.Contains(kind, "WITHHOLDING"):
		b.withhold(row, tk+"|"+date.String(), amount(total, ccy), typ)
	case strings.HasPrefix(kind, "DIVIDEND"):
		if total.Sign() <= 0 || tk == "" {
			b.warn(row, "dividend", "dividend of "+tk+" without a positive amount", "add a DIVIDEND line by hand if it was income")
			return
		}
		tx.Action, tx.Total = model.Dividend, amount(total, ccy)
		b.dividend(row, tk+"|"+date.String(), tx)
	case strings.HasPrefix(kind, "TRANSFER FROM REVOLUT") || strings.HasPrefix(kind, "TRANSFER FROM") && strings.Contains(kind, "TO REVOLUT"):
		b.skip(row, "transfer", "moved between Revolut companies (an entity migration of your own account): not a disposal")
	case kind == "CASH TOP-UP" || kind == "CASH TOP UP" || strings.HasPrefix(kind, "CASH TOP"):
		b.skip(row, "deposit", "cash paid in")
	case strings.HasPrefix(kind, "CASH WITHDRAWAL"):
		b.skip(row, "withdrawal", "cash paid out")
	case strings.Contains(kind, "FEE"):
		b.skip(row, "fee", typ+": an account fee, not a cost of a trade")
	case strings.Contains(kind, "INTEREST"):
		b.skip(row, "interest", typ+": interest is income, not a capital transaction")
	case strings.Contains(kind, "SPLIT"):
		b.warn(row, "split", fmt.Sprintf("stock split of %s: the row gives the shares added (%s), not the ratio", tk, qty),
			"add a SPLIT line with the announced ratio of new shares to old")
	case tk != "" && (qty.Sign() != 0 || total.Sign() != 0):
		b.warn(row, "unknown", fmt.Sprintf("type %q for %s is not one cgt knows", typ, tk),
			"if it changed the holding or its cost (a spin-off, a merger), add the ledger line by hand")
	default:
		b.skip(row, "cash", fmt.Sprintf("%s: a cash movement without a security", typ))
	}
}
