package plan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
)

// Prices are checked as the ledger's are (docs/tax-rules.md, "Checks on the ledger"): a
// number with no currency for a security traded in another currency is refused (read as
// pounds, it gives a figure that looks right and is not), a currency other than the trades'
// is warned, and a price about a hundred times the last trade's (pence written as pounds) is
// warned.

// Trade is a security's last trade on or before the plan's date, outside tax wrappers: what a
// price given for it is checked against.
type Trade struct {
	_ model.NotComparable

	Price    decimal.Decimal // per share in Currency, in the shares of the plan's date
	Text     string          // Price as the line wrote it, when no split came after
	Currency string          // GBP for pence and for no currency
	Date     model.Date
	Source   model.Source
}

func (t Trade) String() string {
	text := t.Text
	if text == "" {
		text = t.Price.String() + " a share after the splits since"
	}
	return fmt.Sprintf("%s: %s %s on %s", engine.Where(t.Source), text, t.Currency, t.Date)
}

// CurrencyError is a price given as a bare number for a security whose trades are in another
// currency than pounds.
type CurrencyError struct {
	Security string
	Price    Price
	Trade    Trade
}

func (e *CurrencyError) Error() string {
	return fmt.Sprintf("the price %s for %s has no currency, so it would be read as pounds, but %s is traded in %s (%s)",
		e.Price.Amount, e.Security, e.Security, e.Trade.Currency, e.Trade)
}

// InCurrency is the price as it was probably meant: the same amount in the trades' currency.
func (e *CurrencyError) InCurrency() Price {
	return Price{Amount: e.Price.Amount, Currency: e.Trade.Currency}
}

// pounds is a price in pence as pounds; other prices as they are.
func (pr Price) pounds() Price {
	if pr.Currency == "GBX" || pr.Currency == "GBp" {
		return Price{Amount: pr.Amount.Shift(-2), Currency: model.GBP}
	}
	return pr
}

// securities is the engine's reading of the ledger's identities, read once.
func (p *Planner) securities() engine.Securities {
	if p.ids == nil {
		s := engine.IdentifySecurities(p.Txns)
		p.ids = &s
	}
	return *p.ids
}

// LastTrade is the last BUY or SELL of a security (by its name in the report) on or before
// the plan's date outside tax wrappers, with its price in the shares of the plan's date.
func (p *Planner) LastTrade(security string) (Trade, bool) {
	ix := p.idx()
	var last *model.Transaction
	for _, i := range ix.trades(security) {
		t := &p.Txns[i]
		if (t.Action != model.Buy && t.Action != model.Sell) || t.Date > p.Date || ix.ids.Wrapped(t) {
			continue
		}
		if last == nil || t.Date >= last.Date {
			last = t
		}
	}
	if last == nil {
		return Trade{}, false
	}
	pr, text, ccy := engine.TradePrice(last)
	if pr.Sign() <= 0 {
		return Trade{}, false
	}
	for _, i := range ix.trades(security) { // splits after the trade: the price per share of the plan's date
		t := &p.Txns[i]
		if t.Date <= last.Date || t.Date > p.Date || t.Ratio().Sign() <= 0 {
			continue
		}
		switch t.Action {
		case model.Split, model.Unsplit:
			text = ""
		}
		switch t.Action {
		case model.Split:
			pr = pr.DivRound(t.Ratio().Exact(), 8)
		case model.Unsplit:
			pr = pr.Mul(t.Ratio().Exact())
		}
	}
	return Trade{Price: pr, Text: text, Currency: ccy, Date: last.Date, Source: last.Source}, true
}

// CheckPrice checks a price given for a security (by its name in the report) against its
// last trade: a bare number (Price.NoCurrency) for a security traded in another currency than pounds
// is a *CurrencyError; another currency than the trades', or a price about a hundredfold off,
// is a warning.
func (p *Planner) CheckPrice(security string, pr Price) ([]string, error) {
	t, ok := p.LastTrade(security)
	if !ok {
		return nil, nil
	}
	given := pr.pounds()
	if given.Currency != t.Currency {
		if pr.NoCurrency {
			return nil, &CurrencyError{Security: security, Price: pr, Trade: t}
		}
		return []string{fmt.Sprintf("the price %s for %s is in %s, but %s is traded in %s (%s): it is converted as given. If you meant %s, write %s %s.",
			pr, security, pr.Currency, security, t.Currency, t, t.Currency, pr.Amount, t.Currency)}, nil
	}
	switch engine.Hundredfold(given.Amount, t.Price) {
	case 1:
		return []string{fmt.Sprintf("the price %s for %s is about 100 times its last trade (%s): %s? %s",
			pr, security, t, slip(t.Currency), advice(pr, t.Currency))}, nil
	case -1:
		return []string{fmt.Sprintf("the price %s for %s is about a hundredth of its last trade (%s): check it; a price in %s is written %s %s.",
			pr, security, t, t.Currency, pr.Amount.Shift(2), t.Currency)}, nil
	}
	return nil, nil
}

// slip names the likely mistake: pence written as pounds, cents as dollars.
func slip(ccy string) string {
	if ccy == model.GBP {
		return "pence written as pounds"
	}
	return "hundredths (cents) written as whole " + ccy
}

// advice is what to write if the price is in hundredths of its currency.
func advice(pr Price, ccy string) string {
	if ccy == model.GBP {
		return fmt.Sprintf("If %s is in pence, write %s GBX (or %s, the pound figure).", pr.Amount, pr.Amount, pr.Amount.Shift(-2))
	}
	return fmt.Sprintf("If %s is in hundredths of %s, write %s %s.", pr.Amount, ccy, pr.Amount.Shift(-2), strings.ToUpper(ccy))
}

// CheckPrices checks the prices given for holdings (by upper-case ticker, named in order)
// against the holdings' trades (CheckPrice): the warnings, or one invalid_argument error for
// every bare number given for a holding traded in another currency, whose example is the
// prices argument with those fixed.
func (p *Planner) CheckPrices(order []string, prices map[string]Price) ([]string, error) {
	var notes, msgs []string
	fixed := map[string]Price{}
	for _, h := range p.Holdings() {
		pr, ok := prices[strings.ToUpper(h.Ticker)]
		if !ok {
			continue
		}
		w, err := p.CheckPrice(h.Ticker, pr)
		var ce *CurrencyError
		if errors.As(err, &ce) {
			fixed[strings.ToUpper(h.Ticker)] = ce.InCurrency()
			msgs = append(msgs, ce.Error())
			continue
		}
		notes = append(notes, w...)
	}
	if len(msgs) == 0 {
		return notes, nil
	}
	items := make([]string, 0, len(order))
	for _, t := range order {
		pr, ok := fixed[t]
		if !ok {
			pr = prices[t]
		}
		items = append(items, t+"="+pr.Arg())
	}
	return notes, &model.Error{Code: model.CodeInvalidArgument, Message: "prices: " + strings.Join(msgs, "; "),
		Hint:     "Give each price in the currency its security is traded in (write GBP for pounds): a number with no currency is read as pounds.",
		Examples: []string{`prices="` + strings.Join(items, ",") + `"`}, Context: map[string]any{"argument": "prices"}}
}

// CheckSalePrice is CheckPrices for plan.sale's one price.
func (p *Planner) CheckSalePrice(ticker string, pr Price) ([]string, error) {
	w, err := p.CheckPrice(ticker, pr)
	var ce *CurrencyError
	if errors.As(err, &ce) {
		return nil, &model.Error{Code: model.CodeInvalidArgument, Message: "price: " + ce.Error(),
			Hint:     "Give the price in the currency the security is traded in (write GBP for pounds): a number with no currency is read as pounds.",
			Examples: []string{`price="` + ce.InCurrency().Arg() + `"`},
			Context:  map[string]any{"argument": "price", "value": pr.Amount.String()}}
	}
	return w, err
}

// Arg writes a price as it is given in an argument: the amount, and its currency when one was
// written.
func (pr Price) Arg() string {
	if pr.NoCurrency {
		return pr.Amount.String()
	}
	return pr.Amount.String() + " " + pr.Currency
}
