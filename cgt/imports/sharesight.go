package imports

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Sharesight reads two Sharesight reports saved as CSV: the All Trades Report (buys and
// sells, prices and brokerage in the market's currency) and the Taxable Income Report
// (dividends, local and foreign, in sections). Both start with a title line; the report is
// known by its column header.
var Sharesight = &Importer{
	Name:      "sharesight",
	Title:     "Sharesight All Trades Report or Taxable Income Report CSV",
	Broker:    "Sharesight",
	Page:      "sharesight",
	Signature: "a line Market,Code,Name,Type,Date,Quantity,Price *,... (All Trades) or Code,Name,Date Paid,... (Taxable Income)",
	Detect: func(c *Content) bool {
		return c.HasLine("Market,Code,Name,Type,Date,Quantity") || c.HasLine("Code,Name,Date Paid,")
	},
	Read: readSharesight,
}

var sharesightDates = []string{"02/01/2006", "2006-01-02"}

func readSharesight(file string, src []byte) (*Import, error) {
	if Sniff(src).HasLine("Market,Code,Name,Type,Date,Quantity") {
		return readSharesightTrades(file, src)
	}
	return readSharesightIncome(file, src)
}

type sharesightTradeCols struct{ market, code, name, typ, date, qty, price, fees, ccy int }

func readSharesightTrades(file string, src []byte) (*Import, error) {
	b := newBatch(file, "sharesight")
	t, err := openCSV(file, src, b, func(f []string) bool { return len(f) > 1 && f[0] == "Market" && f[1] == "Code" })
	if err != nil {
		return nil, err
	}
	var c sharesightTradeCols
	for _, f := range []struct {
		dst   *int
		names []string
	}{{&c.market, []string{"Market"}}, {&c.code, []string{"Code"}}, {&c.typ, []string{"Type"}}, {&c.date, []string{"Date"}},
		{&c.qty, []string{"Quantity"}}, {&c.price, []string{"Price *", "Price"}}, {&c.fees, []string{"Brokerage *", "Brokerage"}}, {&c.ccy, []string{"Currency"}}} {
		if *f.dst, err = t.need(f.names...); err != nil {
			return nil, err
		}
	}
	c.name = t.col("Name")
	for t.next() {
		if strings.HasPrefix(t.str(0), "*") {
			b.unseen() // the footnote about currencies is not a row
			continue
		}
		t.sharesightTrade(b, c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) sharesightTrade(b *batch, c sharesightTradeCols) {
	row := t.line
	market, typ := t.str(c.market), t.str(c.typ)
	if strings.EqualFold(market, "FX") {
		b.skip(row, "fx_conversion", "a currency account movement ("+t.str(c.name)+"), not shares")
		return
	}
	date := t.date(c.date, sharesightDates...)
	qty, _ := t.decOK(c.qty, moneyNumber)
	price, _ := t.decOK(c.price, moneyNumber)
	fees, _ := t.decOK(c.fees, moneyNumber)
	ccy, pence := t.currency(c.ccy)
	if t.err != nil {
		return
	}
	if pence {
		price, fees = pounds(price), pounds(fees)
	}
	tk := ticker(t.str(c.code), "")
	tx := model.Transaction{Date: date, Ticker: tk, Name: t.str(c.name)}
	switch strings.ToLower(typ) {
	case "buy", "sell":
		tx.Action = model.Buy
		if strings.EqualFold(typ, "sell") {
			tx.Action = model.Sell
		}
		if qty.IsZero() || price.Sign() <= 0 {
			b.warn(row, "trade", fmt.Sprintf("%s of %s without a quantity or price", typ, tk), "add the "+string(tx.Action)+" line by hand")
			return
		}
		// Prices and brokerage are in the market's currency, as the report's footnote says.
		tx.Quantity, tx.Price = num(qty.Abs()), amount(price, ccy)
		if fees.Sign() != 0 {
			tx.Fees = amount(fees.Abs(), ccy)
		}
		b.add(row, tx)
	case "opening balance":
		b.warn(row, "opening_balance", fmt.Sprintf("opening balance of %s %s: Sharesight's date is not when the shares were bought", qty, tk),
			"add the purchases behind it (BUY lines), or a POOL line with the pooled cost")
	default:
		b.warn(row, "corporate_action", fmt.Sprintf("%s of %s (%s shares) is not a trade cgt can convert", typ, tk, qty),
			"add the line that fits: SPLIT or UNSPLIT with the ratio, CAPRETURN, TAKEOVER, or a BUY for a bonus issue")
	}
}

type sharesightIncomeCols struct{ code, name, date, gross, tax, net, ccy int }

func readSharesightIncome(file string, src []byte) (*Import, error) {
	b := newBatch(file, "sharesight")
	isHeader := func(f []string) bool { return len(f) > 2 && f[0] == "Code" && f[2] == "Date Paid" }
	t, err := openCSV(file, src, b, isHeader)
	if err != nil {
		return nil, err
	}
	c, err := t.sharesightIncomeColumns()
	if err != nil {
		return nil, err
	}
	section := ""
	for t.next() {
		first := t.str(0)
		switch {
		case isHeader(trimAll(t.rec)):
			b.unseen()
			t.setHeader(t.rec)
			if c, err = t.sharesightIncomeColumns(); err != nil {
				return nil, err
			}
			continue
		case strings.HasPrefix(strings.ToLower(first), "total"):
			b.unseen()
			continue
		case blank(t.rec[1:]):
			b.unseen() // a section title
			section = first
			continue
		}
		t.sharesightIncome(b, c, section)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) sharesightIncomeColumns() (sharesightIncomeCols, error) {
	var c sharesightIncomeCols
	var err error
	t.needed = 0
	if c.code, err = t.need("Code"); err != nil {
		return c, err
	}
	if c.date, err = t.need("Date Paid"); err != nil {
		return c, err
	}
	if c.gross, err = t.need("Gross Dividend", "Gross Amount", "Gross Income", "Gross"); err != nil {
		return c, err
	}
	c.name, c.ccy = t.col("Name"), t.col("Currency")
	c.tax, c.net = t.col("Tax Deducted", "Foreign Tax Deducted"), t.col("Net Dividend", "Net Amount", "Net Income")
	return c, nil
}

func (t *table) sharesightIncome(b *batch, c sharesightIncomeCols, section string) {
	row := t.line
	date := t.date(c.date, sharesightDates...)
	gross, _ := t.decOK(c.gross, moneyNumber)
	tax, _ := t.decOK(c.tax, moneyNumber)
	ccy := model.GBP // local income is in the portfolio's currency
	if c.ccy >= 0 && t.str(c.ccy) != "" {
		ccy, _ = t.currency(c.ccy)
	}
	if t.err != nil {
		return
	}
	code := t.str(c.code)
	if i := strings.LastIndex(code, "."); i > 0 {
		code = code[:i] // "FOO.NASDAQ": the market after the dot
	}
	tk := ticker(code, "")
	if strings.Contains(strings.ToLower(section), "interest") {
		b.skip(row, "interest", "interest is income, not a capital transaction")
		return
	}
	if gross.Sign() <= 0 || tk == "" {
		b.warn(row, "dividend", "income of "+tk+" without a positive gross amount", "add a DIVIDEND line by hand if it was income")
		return
	}
	tx := model.Transaction{Date: date, Action: model.Dividend, Ticker: tk, Name: t.str(c.name), Total: amount(gross, ccy)}
	if tax.Sign() > 0 {
		tx.Event = &model.Event{Tax: amount(tax, ccy)}
	}
	b.dividend(row, tk+"|"+date.String(), tx)
}
