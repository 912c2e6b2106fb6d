package imports

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// InvestEngine reads InvestEngine's trading statement CSV. The account is in sterling and
// charges no dealing fees: Total Trade Value is the sterling paid or received. The first
// cell joins the fund's name and ISIN ("Vanguard FTSE All-World / ISIN IE00BK5BQT80"); the
// ISIN is the ticker.
var InvestEngine = &Importer{
	Name:      "investengine",
	Title:     "InvestEngine trading statement CSV",
	Broker:    "InvestEngine",
	Page:      "investengine",
	Signature: "header starting Security / ISIN,Transaction Type,Quantity,Share Price,Total Trade Value",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Security / ISIN", "Transaction Type", "Quantity", "Share Price")
	},
	Read: readInvestEngine,
}

// investEngineDates: dd/mm/yy HH:mm:ss (a two-digit year), or a four-digit year.
var investEngineDates = []string{"02/01/06 15:04:05", "02/01/2006 15:04:05", "02/01/06 15:04", "02/01/2006 15:04", "02/01/06", "02/01/2006"}

type investEngineCols struct{ security, typ, qty, price, value, date int }

func readInvestEngine(file string, src []byte) (*Import, error) {
	b := newBatch(file, "investengine")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c investEngineCols
	if err = t.bind(column(&c.security, "Security / ISIN"), column(&c.typ, "Transaction Type"), column(&c.qty, "Quantity"), column(&c.price, "Share Price"), column(&c.value, "Total Trade Value"), column(&c.date, "Trade Date/Time")); err != nil {
		return nil, err
	}
	for t.next() {
		t.investEngineRow(b, c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) investEngineRow(b *batch, c investEngineCols) {
	row := t.line
	date := t.date(c.date, investEngineDates...)
	typ := t.str(c.typ)
	qty, _ := t.decOK(c.qty, moneyNumber)
	price, _ := t.decOK(c.price, moneyNumber)
	value, _ := t.decOK(c.value, moneyNumber)
	if t.err != nil {
		return
	}
	ccy := model.GBP
	if s := moneySign(t.str(c.value)); s != "" {
		ccy = s
	}
	name, isin := t.str(c.security), ""
	if i := strings.LastIndex(strings.ToUpper(name), "/ ISIN "); i >= 0 {
		name, isin = strings.TrimSpace(name[:i]), strings.TrimSpace(name[i+len("/ ISIN "):])
	}
	tk := ticker(isin, name)
	tx := model.Transaction{Date: date, Ticker: tk, ISIN: isin, Name: name}
	switch low := strings.ToLower(typ); {
	case low == "buy" || low == "sell":
		tx.Action = model.Buy
		if low == "sell" {
			tx.Action = model.Sell
		}
		qty, value = qty.Abs(), value.Abs()
		if qty.Sign() <= 0 || (value.IsZero() && price.Sign() <= 0) {
			b.warn(row, "trade", fmt.Sprintf("%s of %s without a quantity or value", low, tk), "add the "+string(tx.Action)+" line by hand")
			return
		}
		tx.Quantity = num(qty)
		if value.IsZero() {
			tx.Price = amount(price.Abs(), ccy)
		} else {
			// The sterling paid or received is the consideration; quantity × share price
			// is rounded by the broker and need not come to it.
			tx.Total = amount(value, ccy)
		}
		b.add(row, tx)
	case strings.Contains(low, "dividend") || strings.Contains(low, "distribution"):
		if value.Sign() <= 0 {
			b.warn(row, "dividend", "dividend of "+tk+" without a positive amount", "add a DIVIDEND line by hand")
			return
		}
		tx.Action, tx.Total = model.Dividend, amount(value, ccy)
		b.dividend(row, tk+"|"+date.String(), tx)
	case strings.Contains(low, "fee"):
		b.skip(row, "fee", typ+": an account fee, not a cost of a trade")
	case strings.Contains(low, "deposit") || strings.Contains(low, "top up") || strings.Contains(low, "contribution"):
		b.skip(row, "deposit", "cash paid in")
	case strings.Contains(low, "withdraw"):
		b.skip(row, "withdrawal", "cash paid out")
	default:
		b.warn(row, "unknown", fmt.Sprintf("transaction type %q of %s is not one cgt knows", typ, tk), "if it changed the holding or its cost, add the ledger line by hand")
	}
}
