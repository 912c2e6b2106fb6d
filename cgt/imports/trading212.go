package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Trading212 reads the Trading 212 "History" CSV export in its three generations (2020-21
// with "(GBP)" in the money column names, 2023-24, and the 33-column layout of 2025 on).
// Columns are found by name, so a column that moved between generations is still read.
var Trading212 = &Importer{
	Name:      "trading212",
	Title:     "Trading 212 History CSV",
	Broker:    "Trading 212",
	Page:      "trading212",
	Signature: "header starting Action,Time,ISIN,Ticker,Name",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Action", "Time", "ISIN", "Ticker", "Name")
	},
	Read: readTrading212,
}

// t212Dates are the layouts of the Time column (UTC; fractional seconds are accepted).
var t212Dates = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02"}

// t212Fees are the fee columns (lower case, without a currency suffix), all costs of the
// trade on their row. Finra's fee is in US dollars when no currency column says otherwise.
var t212Fees = []string{"currency conversion fee", "transaction fee", "stamp duty", "stamp duty reserve tax",
	"french transaction tax", "finra fee", "charge amount", "ptm levy"}

type t212Cols struct {
	action, time, isin, ticker, name, id, notes, qty, price, priceCcy, total, totalCcy, wht, whtCcy int
	totalFixed, whtFixed                                                                            string // currency named in the column header: "Total (GBP)"
	fees                                                                                            []t212Fee
}

type t212Fee struct {
	_ model.NotComparable

	col, ccyCol int
	fixed       string // currency from the header name, or the default
	name        string
}

// moneyColumn finds a money column written either as "Name" with "Currency (Name)" beside it
// or as "Name (CCY)".
func moneyColumn(t *table, name string) (col, ccyCol int, fixed string) {
	if c := t.col(name); c >= 0 {
		return c, t.col("Currency (" + name + ")"), ""
	}
	for i, h := range t.header {
		base, ccy, ok := currencySuffix(h)
		if ok && strings.EqualFold(base, name) {
			return i, -1, ccy
		}
	}
	return -1, -1, ""
}

// currencySuffix splits "Total (GBP)" into "Total" and "GBP".
func currencySuffix(h string) (base, ccy string, ok bool) {
	open := strings.LastIndex(h, " (")
	if open < 0 || !strings.HasSuffix(h, ")") {
		return "", "", false
	}
	code, _, ok := currencyCode(h[open+2 : len(h)-1])
	if !ok {
		return "", "", false
	}
	return strings.TrimSpace(h[:open]), code, true
}

func (t *table) t212Columns() (t212Cols, error) {
	var c t212Cols
	var err error
	for _, f := range []struct {
		dst   *int
		names []string
	}{{&c.action, []string{"Action"}}, {&c.time, []string{"Time"}}} {
		if *f.dst, err = t.need(f.names...); err != nil {
			return c, err
		}
	}
	c.isin, c.ticker, c.name, c.id, c.notes = t.col("ISIN"), t.col("Ticker"), t.col("Name"), t.col("ID"), t.col("Notes")
	c.qty, c.price, c.priceCcy = t.col("No. of shares"), t.col("Price / share"), t.col("Currency (Price / share)")
	c.total, c.totalCcy, c.totalFixed = moneyColumn(t, "Total")
	c.wht, c.whtCcy, c.whtFixed = moneyColumn(t, "Withholding tax")
	if c.total < 0 {
		_, err = t.need("Total")
		return c, err
	}
	t.needed = max(t.needed, c.total+1, c.qty+1)
	for i, h := range t.header {
		base, ccy, ok := currencySuffix(h)
		if !ok {
			base = h
		}
		for _, name := range t212Fees {
			if strings.EqualFold(base, name) {
				f := t212Fee{col: i, ccyCol: -1, fixed: ccy, name: name}
				if !ok {
					f.ccyCol = t.col("Currency (" + h + ")")
					if name == "finra fee" {
						f.fixed = "USD"
					}
				}
				c.fees = append(c.fees, f)
			}
		}
	}
	return c, nil
}

func readTrading212(file string, src []byte) (*Import, error) {
	b := newBatch(file, "trading212")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	c, err := t.t212Columns()
	if err != nil {
		return nil, err
	}
	splits := map[string]t212SplitLeg{} // a split row by ticker, waiting for the other row of its pair
	for t.next() {
		if strings.EqualFold(t.str(c.action), "Action") && strings.EqualFold(t.str(c.time), "Time") {
			// A second header: files joined together with another column order. Re-map.
			b.unseen()
			t.setHeader(t.rec)
			if c, err = t.t212Columns(); err != nil {
				return nil, err
			}
			continue
		}
		t.t212Row(b, c, splits)
	}
	if t.err != nil {
		return nil, t.err
	}
	tickers := make([]string, 0, len(splits))
	for tk := range splits {
		tickers = append(tickers, tk)
	}
	order.Ascending(tickers)
	for _, tk := range tickers {
		leg := splits[tk]
		kind := "close"
		if leg.open {
			kind = "open"
		}
		b.warn(leg.row, "split", fmt.Sprintf("stock split %s of %s without its %s row", kind, tk, map[bool]string{true: "close", false: "open"}[leg.open]),
			"add a SPLIT line with the ratio of new shares to old")
	}
	return b.done(), nil
}

// t212SplitLeg is one row of a split's pair: "Stock split close" (the old shares) or "Stock
// split open" (the new); exports list the two in either order.
type t212SplitLeg struct {
	row  int
	date model.Date
	qty  decimal.Decimal
	open bool
}

func (t *table) t212Row(b *batch, c t212Cols, splits map[string]t212SplitLeg) {
	row := t.line
	action := t.str(c.action)
	act := strings.ToLower(action)
	date := t.isoDate(c.time, t212Dates, "Trading 212")
	tk := ticker(t.str(c.ticker), t.str(c.isin))
	if t.err != nil {
		return
	}
	switch {
	case strings.HasSuffix(act, "buy"):
		t.t212Trade(b, c, row, date, model.Buy, tk)
	case strings.HasSuffix(act, "sell"):
		t.t212Trade(b, c, row, date, model.Sell, tk)
	case strings.HasPrefix(act, "dividend"):
		t.t212Dividend(b, c, row, date, tk, action)
	case act == "stock split close", act == "stock split open":
		qty := t.dec(c.qty)
		if t.err != nil {
			return
		}
		this := t212SplitLeg{row, date, qty.Abs(), act == "stock split open"}
		other, ok := splits[tk]
		if !ok || other.open == this.open {
			if ok { // two rows of one kind: the first has lost its pair
				b.warn(other.row, "split", "stock split row of "+tk+" without its pair", "add a SPLIT line with the ratio of new shares to old")
			}
			splits[tk] = this
			return
		}
		delete(splits, tk)
		closeLeg, openLeg := other, this
		if other.open {
			closeLeg, openLeg = this, other
		}
		b.fold(other.row)
		addSplit(b, row, min(closeLeg.date, openLeg.date), tk, closeLeg.qty, openLeg.qty)
	case act == "deposit":
		reason := "cash paid in"
		if strings.Contains(strings.ToLower(t.str(c.notes)), "free share") {
			reason = "free-share promotion credit: the shares' buy row that follows is their cost (market value)"
		}
		b.skip(row, "deposit", reason)
	case act == "withdrawal":
		b.skip(row, "withdrawal", "cash paid out")
	case strings.Contains(act, "interest"):
		b.skip(row, "interest", action+": interest is income, not a capital transaction")
	case act == "result adjustment":
		b.skip(row, "adjustment", "cash adjustment by the broker: "+t.str(c.notes))
	case strings.Contains(act, "currency conversion"), strings.Contains(act, "conversion"):
		b.skip(row, "fx_conversion", "currency conversion between cash balances is not a share transaction")
	case strings.HasPrefix(act, "card"), strings.Contains(act, "cashback"), strings.Contains(act, "spending"):
		b.skip(row, "card", action+": card spending, not a share transaction")
	case strings.Contains(act, "fee"):
		b.skip(row, "fee", action+": an account fee, not a cost of a trade")
	case strings.HasPrefix(act, "transfer out"):
		b.skip(row, "transfer", "shares moved to another account of yours: not a disposal (the pool is per person)")
	case strings.HasPrefix(act, "transfer in"), strings.Contains(act, "transfer"):
		b.warn(row, "transfer", action+" of "+tk+" has no cost in the export",
			"if these shares came from another of your accounts they are already in your ledger; otherwise add a BUY (or POOL) line with their cost")
	case act == "stock distribution":
		b.warn(row, "corporate_action", "stock distribution of "+t.str(c.qty)+" "+tk+" is not described fully",
			"add the line that fits: a bonus issue is a SPLIT, a scrip dividend a BUY at its cash value")
	default:
		b.warn(row, "unknown", fmt.Sprintf("action %q is not one cgt knows", action),
			"if it moved shares, add the ledger line by hand")
	}
}

// addSplit adds the SPLIT (or UNSPLIT) that turned old shares into new ones, or a warning
// when the ratio is not an exact decimal.
func addSplit(b *batch, row int, date model.Date, tk string, old, new decimal.Decimal) {
	if old.Sign() <= 0 || new.Sign() <= 0 {
		b.warn(row, "split", "split of "+tk+" without share counts", "add a SPLIT line with the ratio of new shares to old")
		return
	}
	action, top, den := model.Split, new, old
	if new.LessThan(old) {
		action, top, den = model.Unsplit, old, new
	}
	ratio := top.DivRound(den, 12)
	if !ratio.Mul(den).Equal(top) {
		b.warn(row, "split", fmt.Sprintf("split of %s from %s to %s shares has no exact ratio", tk, old, new),
			"add a SPLIT line with the announced ratio (and a SELL for any fraction paid in cash)")
		return
	}
	ratio, _ = decimal.NewFromString(ratio.String()) // 10.000000000000 is written 10
	b.add(row, model.Transaction{Date: date, Action: action, Ticker: tk, Event: &model.Event{Ratio: num(ratio)}})
}

func (t *table) t212Currency(col int, fixed, fallback string) (string, bool) {
	if fixed != "" {
		return fixed, false
	}
	if col >= 0 && t.str(col) != "" {
		return t.currency(col)
	}
	return fallback, false
}

func (t *table) t212Trade(b *batch, c t212Cols, row int, date model.Date, action model.Action, tk string) {
	qty := t.dec(c.qty)
	total, hasTotal := t.decOK(c.total, plainNumber)
	totalCcy, _ := t.t212Currency(c.totalCcy, c.totalFixed, model.GBP)
	price := t.dec(c.price)
	priceCcy, pence := t.t212Currency(c.priceCcy, "", totalCcy)
	if pence {
		price = pounds(price)
	}
	var fees decimal.Decimal // fees in the account currency, itemised
	priceFees := decimal.Decimal{}
	for _, f := range c.fees {
		v, ok := t.decOK(f.col, plainNumber)
		if !ok || v.IsZero() {
			continue
		}
		ccy, fp := t.t212Currency(f.ccyCol, f.fixed, totalCcy)
		if fp {
			v = pounds(v)
		}
		v = v.Abs()
		switch ccy {
		case totalCcy:
			fees = fees.Add(v)
		case priceCcy:
			priceFees = priceFees.Add(v)
		}
		// A fee in a third currency stays inside the account-currency total.
	}
	if t.err != nil {
		return
	}
	if qty.Sign() <= 0 {
		b.warn(row, "trade", fmt.Sprintf("%s of %s without a number of shares", strings.ToLower(string(action)), tk), "add the "+string(action)+" line by hand")
		return
	}
	tx := model.Transaction{Date: date, Action: action, Ticker: tk, Quantity: num(qty),
		ISIN: t.str(c.isin), Name: t.str(c.name), BrokerRef: t.str(c.id)}
	total = total.Abs()
	consideration := total.Sub(fees)
	if action == model.Sell {
		consideration = total.Add(fees)
	}
	if hasTotal && consideration.Sign() > 0 {
		// The sterling (account-currency) cash that moved is the consideration; fees are its
		// incidental costs. Fees in another currency stay inside the total.
		tx.Total = amount(consideration, totalCcy)
		tx.Fees = amount(fees, totalCcy)
		b.add(row, tx)
		return
	}
	if price.Sign() <= 0 {
		b.warn(row, "trade", fmt.Sprintf("%s of %s has neither a total nor a price", strings.ToLower(string(action)), tk), "add the "+string(action)+" line by hand")
		return
	}
	tx.Price = amount(price, priceCcy)
	if priceCcy == totalCcy {
		priceFees = priceFees.Add(fees)
	}
	tx.Fees = amount(priceFees, priceCcy)
	b.add(row, tx)
}

func (t *table) t212Dividend(b *batch, c t212Cols, row int, date model.Date, tk, action string) {
	if strings.Contains(strings.ToLower(action), "return of capital") {
		b.warn(row, "capital_return", "return of capital on "+tk+" reduces the cost of the holding",
			"add a CAPRETURN line with the amount returned")
		return
	}
	net := t.dec(c.total).Abs()
	totalCcy, _ := t.t212Currency(c.totalCcy, c.totalFixed, model.GBP)
	wht := t.dec(c.wht).Abs()
	whtCcy, whtPence := t.t212Currency(c.whtCcy, c.whtFixed, totalCcy)
	if whtPence {
		wht = pounds(wht)
	}
	qty, price := t.dec(c.qty), t.dec(c.price)
	priceCcy, pence := t.t212Currency(c.priceCcy, "", totalCcy)
	if pence {
		price = pounds(price)
	}
	if t.err != nil {
		return
	}
	tx := model.Transaction{Date: date, Action: model.Dividend, Ticker: tk, ISIN: t.str(c.isin), Name: t.str(c.name), BrokerRef: t.str(c.id)}
	gross := trimZeros(qty.Mul(price), 2)
	switch {
	case wht.IsZero() && net.Sign() > 0:
		tx.Total = amount(net, totalCcy)
	case whtCcy == totalCcy && net.Add(wht).Sign() > 0:
		tx.Total, tx.Event = amount(net.Add(wht), totalCcy), &model.Event{Tax: amount(wht, totalCcy)}
	case gross.Sign() > 0:
		// Withholding in the instrument's currency: keep the gross there too.
		tx.Total, tx.Event = amount(gross, priceCcy), &model.Event{Tax: amount(wht, whtCcy)}
	default:
		b.warn(row, "dividend", "dividend on "+tk+" without an amount", "add a DIVIDEND line with the amount received")
		return
	}
	b.add(row, tx)
}
