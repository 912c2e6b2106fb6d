package imports

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Schwab reads Charles Schwab brokerage transactions, as CSV (either column order) or as JSON
// ({"BrokerageTransactions":[...]} with the same keys). The account is in US dollars: the
// dollar amounts are kept and HMRC's monthly rates convert them.
var Schwab = &Importer{
	Name:      "schwab",
	Title:     "Charles Schwab brokerage transactions (CSV or JSON)",
	Broker:    "Charles Schwab",
	Page:      "schwab",
	Signature: `header "Date","Action","Symbol","Description",... with "Fees & Comm","Amount", or JSON key BrokerageTransactions`,
	Detect: func(c *Content) bool {
		return c.HasJSONKey("BrokerageTransactions") ||
			headerStarts(c.Header, "Date", "Action", "Symbol", "Description") && headerHas(c.Header, "Fees & Comm", "Amount")
	},
	Read: readSchwab,
}

// schwabDates: MM/DD/YYYY (a row may read "MM/DD/YYYY as of MM/DD/YYYY").
var schwabDates = []string{"01/02/2006", "2006-01-02"}

type schwabCols struct{ date, action, symbol, desc, qty, price, fees, amount int }

func readSchwab(file string, src []byte) (*Import, error) {
	b := newBatch(file, "schwab")
	if c := Sniff(src); c.JSONKeys != nil {
		var doc struct {
			BrokerageTransactions []map[string]any
		}
		if err := decodeJSON(file, src, &doc); err != nil {
			return nil, err
		}
		t := jsonTable(file, doc.BrokerageTransactions, b)
		c, err := t.schwabColumns()
		if err != nil {
			return nil, err
		}
		for i, it := range doc.BrokerageTransactions {
			t.setJSONRow(i+1, it)
			t.schwabRow(b, c)
			if t.err != nil {
				return nil, t.err
			}
		}
		return b.done(), nil
	}
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	c, err := t.schwabColumns()
	if err != nil {
		return nil, err
	}
	for t.next() {
		if strings.HasPrefix(strings.ToLower(t.str(c.date)), "transactions total") {
			b.unseen() // the summary line is not a row
			continue
		}
		t.schwabRow(b, c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) schwabColumns() (schwabCols, error) {
	var c schwabCols
	var err error
	for _, f := range []struct {
		dst   *int
		names []string
	}{{&c.date, []string{"Date"}}, {&c.action, []string{"Action"}}, {&c.amount, []string{"Amount"}}} {
		if *f.dst, err = t.need(f.names...); err != nil {
			return c, err
		}
	}
	c.symbol, c.desc, c.qty, c.price, c.fees = t.col("Symbol"), t.col("Description"), t.col("Quantity"), t.col("Price"), t.col("Fees & Comm", "FeesAndCommissions")
	return c, nil
}

// schwabDate reads "MM/DD/YYYY" or "MM/DD/YYYY as of MM/DD/YYYY"; the "as of" date is the
// date the transaction took effect, the first the date Schwab posted it.
func (t *table) schwabDate(c int) model.Date {
	s := t.str(c)
	if _, asOf, ok := strings.Cut(s, " as of "); ok {
		if d, ok := parseDate(strings.TrimSpace(asOf), schwabDates...); ok {
			return d
		}
	}
	return t.date(c, schwabDates...)
}

func (t *table) schwabRow(b *batch, c schwabCols) {
	row := t.line
	date := t.schwabDate(c.date)
	action := t.str(c.action)
	act := strings.ToLower(action)
	tk := ticker(t.str(c.symbol), "")
	qty := t.money(c.qty).Abs()
	price := t.money(c.price).Abs()
	fees := t.money(c.fees).Abs()
	amt := t.money(c.amount)
	if t.err != nil {
		return
	}
	usd := func(v model.Transaction) model.Transaction { v.Name = t.str(c.desc); return v }
	key := tk + "|" + date.String()
	switch act {
	case "buy", "reinvest shares", "sell":
		kind := model.Buy
		if act == "sell" {
			kind = model.Sell
		}
		if qty.Sign() <= 0 || (price.Sign() <= 0 && amt.IsZero()) {
			b.warn(row, "trade", action+" of "+tk+" without a quantity or price", "add the "+string(kind)+" line by hand")
			return
		}
		tx := usd(model.Transaction{Date: date, Action: kind, Ticker: tk, Quantity: num(qty), Fees: amount(fees, "USD")})
		// The cash that moved is the consideration: the price (often to 4 places) times the
		// quantity need not come to it exactly. Where it does, the line keeps the price.
		total := amt.Abs().Sub(fees)
		if kind == model.Sell {
			total = amt.Abs().Add(fees)
		}
		if price.Sign() > 0 && (amt.IsZero() || qty.Mul(price).Equal(total)) || total.Sign() <= 0 {
			tx.Price = amount(price, "USD")
		} else {
			tx.Total = amount(total, "USD")
		}
		b.add(row, tx)
	case "cash dividend", "qualified dividend", "non-qualified div", "special non qual div", "special qual div",
		"reinvest dividend", "qual div reinvest", "pr yr cash div", "pr yr div reinvest", "pr yr non-qual div", "pr yr special div",
		"long term cap gain reinvest", "short term cap gain reinvest", "long term cap gain", "short term cap gain", "cash in lieu of dividend",
		"qualified dividend reinvest", "non-qualified dividend":
		if amt.Sign() <= 0 {
			b.warn(row, "dividend", action+" of "+tk+" without a positive amount", "add a DIVIDEND line by hand if it was income")
			return
		}
		b.dividend(row, key, usd(model.Transaction{Date: date, Action: model.Dividend, Ticker: tk, Total: amount(amt, "USD")}))
	case "nra tax adj", "nra withholding", "foreign tax paid", "nra tax", "tax withholding":
		b.withhold(row, key, amount(amt, "USD"), action)
	case "credit interest", "bank interest", "margin interest", "bond interest":
		b.skip(row, "interest", action+": interest is income, not a capital transaction")
	case "wire sent", "wire funds", "moneylink transfer", "wire received", "wire funds received", "funds received", "moneylink deposit":
		kind := "deposit"
		if amt.Sign() < 0 {
			kind = "withdrawal"
		}
		b.skip(row, kind, action+": cash moved in or out")
	case "journal", "internal transfer", "journaled shares", "security transfer":
		if qty.Sign() > 0 && tk != "" && amt.IsZero() && act != "journal" {
			b.warn(row, "transfer", fmt.Sprintf("%s of %s %s has no cost in the export", action, qty, tk),
				"if the shares came from another of your accounts they are already in your ledger; otherwise add a BUY (or POOL) line with their cost")
			return
		}
		b.skip(row, "transfer", action+": moved between your own accounts, not a disposal")
	case "stock plan activity":
		b.warn(row, "rsu_vest", fmt.Sprintf("%s %s shares of %s from a stock plan: the export has no cost", action, qty, tk),
			"import the Schwab Equity Awards JSON (schwab-awards) for the vest at its market value, or add a BUY at the vest-date market value")
	case "advisor fee", "adr mgmt fee", "service fee", "misc cash entry", "wire fee", "foreign tax reclaim fee":
		b.skip(row, "fee", action+": an account fee, not a cost of a trade")
	case "stock split", "reverse split", "stock div dist", "spin-off", "stock merger", "name change", "conversion", "cash in lieu", "exchange or exercise", "mandatory reorg exc":
		b.warn(row, "corporate_action", action+" of "+tk+" is not described fully by the export",
			"add the ledger line that fits (SPLIT with its ratio, TAKEOVER, DEMERGER, or a SELL for cash in lieu)")
	default:
		if strings.Contains(act, "to open") || strings.Contains(act, "to close") || act == "assigned" || act == "expired" || act == "sell short" {
			b.warn(row, "unsupported", action+" of "+t.str(c.symbol)+": options and short sales are not calculated",
				"work out the gain on options and short sales separately")
			return
		}
		b.warn(row, "unknown", fmt.Sprintf("action %q is not one cgt knows", action), "if it moved shares, add the ledger line by hand")
	}
}
