package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Freetrade reads Freetrade's activity CSV (29 columns from 2022, 44 in newer files with the
// stock-split columns appended; columns are found by name).
var Freetrade = &Importer{
	Name:      "freetrade",
	Title:     "Freetrade activity CSV",
	Broker:    "Freetrade",
	Page:      "freetrade",
	Signature: "header starting Title,Type,Timestamp,Account Currency,Total Amount",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Title", "Type", "Timestamp", "Account Currency", "Total Amount")
	},
	Read: readFreetrade,
}

// freetradeDates: ISO 8601 in UTC with milliseconds and Z.
var freetradeDates = []string{"2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02"}

type freetradeCols struct {
	title, typ, time, accCcy, total, side, ticker, isin, stamp, qty, id, instCcy, price, fxFee, gross, net, withheld int
}

func readFreetrade(file string, src []byte) (*Import, error) {
	b := newBatch(file, "freetrade")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c freetradeCols
	if err = t.bind(column(&c.typ, "Type"), column(&c.time, "Timestamp"), column(&c.total, "Total Amount")); err != nil {
		return nil, err
	}
	c.title, c.accCcy, c.side, c.ticker, c.isin = t.col("Title"), t.col("Account Currency"), t.col("Buy / Sell"), t.col("Ticker"), t.col("ISIN")
	c.stamp, c.qty, c.id, c.instCcy, c.price = t.col("Stamp Duty"), t.col("Quantity"), t.col("Order ID"), t.col("Instrument Currency"), t.col("Price per Share")
	c.fxFee, c.gross, c.net, c.withheld = t.col("FX Fee Amount"), t.col("Dividend Gross Distribution Amount"), t.col("Dividend Net Distribution Amount"), t.col("Dividend Withheld Tax Amount")
	for t.next() {
		t.freetradeRow(b, c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) freetradeRow(b *batch, c freetradeCols) {
	row := t.line
	typ := strings.ToUpper(t.str(c.typ))
	date := t.isoDate(c.time, freetradeDates, "Freetrade")
	accCcy := model.GBP
	if t.str(c.accCcy) != "" {
		accCcy, _ = t.currency(c.accCcy)
	}
	tk := ticker(t.str(c.ticker), t.str(c.isin))
	if t.err != nil {
		return
	}
	base := model.Transaction{Date: date, Ticker: tk, ISIN: t.str(c.isin), Name: t.str(c.title), BrokerRef: t.str(c.id)}
	switch typ {
	case "ORDER", "FREESHARE_ORDER":
		side := strings.ToUpper(t.str(c.side))
		qty := t.dec(c.qty)
		total := t.dec(c.total).Abs()
		fees := t.dec(c.stamp).Abs().Add(t.dec(c.fxFee).Abs())
		if t.err != nil {
			return
		}
		if typ == "FREESHARE_ORDER" {
			// A free share costs its market value on receipt, which Total Amount states.
			fees = decimal.Decimal{}
		}
		tx := base
		tx.Quantity = num(qty)
		switch side {
		case "BUY":
			tx.Action = model.Buy
			total = total.Sub(fees)
		case "SELL":
			tx.Action = model.Sell
			total = total.Add(fees)
		default:
			b.warn(row, "trade", fmt.Sprintf("order with Buy / Sell %q", t.str(c.side)), "add the BUY or SELL line by hand")
			return
		}
		if qty.Sign() <= 0 || total.Sign() <= 0 {
			b.warn(row, "trade", "order for "+tk+" without a quantity or amount", "add the "+string(tx.Action)+" line by hand")
			return
		}
		tx.Total, tx.Fees = amount(total, accCcy), amount(fees, accCcy)
		b.add(row, tx)
	case "DIVIDEND", "PROPERTY":
		tx := base
		tx.Action = model.Dividend
		gross, hasGross := t.decOK(c.gross, plainNumber)
		withheld := t.dec(c.withheld).Abs()
		instCcy, pence := accCcy, false
		if t.str(c.instCcy) != "" {
			instCcy, pence = t.currency(c.instCcy)
		}
		net := t.dec(c.total).Abs()
		if t.err != nil {
			return
		}
		if pence {
			gross, withheld = pounds(gross), pounds(withheld)
		}
		switch {
		case hasGross && gross.Sign() > 0:
			tx.Total, tx.Event = amount(gross, instCcy), &model.Event{Tax: amount(withheld, instCcy)}
		case net.Sign() > 0:
			tx.Total = amount(net, accCcy)
		default:
			b.warn(row, "dividend", "dividend on "+tk+" without an amount", "add a DIVIDEND line with the amount received")
			return
		}
		b.add(row, tx)
	case "INTEREST_FROM_CASH":
		b.skip(row, "interest", "interest on cash is income, not a capital transaction")
	case "TOP_UP":
		b.skip(row, "deposit", "cash paid in")
	case "WITHDRAWAL":
		b.skip(row, "withdrawal", "cash paid out")
	case "MONTHLY_STATEMENT", "TAX_CERTIFICATE":
		b.skip(row, "statement", strings.ToLower(typ)+" notice, no money or shares moved")
	default:
		if strings.Contains(typ, "SPLIT") {
			b.warn(row, "split", "stock split of "+tk, "add a SPLIT line with the ratio of new shares to old")
			return
		}
		b.warn(row, "unknown", fmt.Sprintf("type %q is not one cgt knows", t.str(c.typ)), "if it moved shares, add the ledger line by hand")
	}
}
