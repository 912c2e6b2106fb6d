package plan

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// The planning arguments as the front ends give them: a price as "230.00 USD", a number or
// {"amount", "currency"}; prices as "AAPL=190.50 USD,VWRL=98.2", a list or an object. Errors
// are invalid_argument with the argument, the value, a hint and an example that runs.

// argError is an invalid argument: message, hint, example, the argument and the value given.
func argError(msg, hint, example, arg, value string) error {
	e := &model.Error{Code: model.CodeInvalidArgument, Message: msg, Hint: hint, Examples: []string{example}, Value: value,
		Context: map[string]any{"argument": arg}}
	return e
}

// ParsePrice reads "230.00 USD", "98.2", 98.2 or {"amount": "230.00", "currency": "USD"}.
func ParsePrice(arg string, v any) (Price, error) {
	bad := func(what string) error {
		return argError(fmt.Sprintf("%s: %s is not a price", arg, what),
			"Give an amount and a currency, e.g. \"230.00 USD\" or {\"amount\": \"230.00\", \"currency\": \"USD\"}; GBP when no currency is given, GBX for pence.",
			arg+`="230.00 USD"`, arg, what)
	}
	var amount, currency string
	switch t := v.(type) {
	case string:
		f := strings.Fields(t)
		switch len(f) {
		case 1:
			amount = f[0]
		case 2:
			amount, currency = f[0], f[1]
		default:
			return Price{}, bad(fmt.Sprintf("%q", t))
		}
	case float64:
		amount = decimal.NewFromFloat(t).String()
	case map[string]any:
		amount, currency = fmt.Sprint(t["amount"]), ""
		if c, ok := t["currency"].(string); ok {
			currency = c
		}
		if t["amount"] == nil {
			return Price{}, bad("an object without amount")
		}
	default:
		if s := fmt.Sprint(v); s != "" && v != nil {
			amount = s
		} else {
			return Price{}, bad("nothing")
		}
	}
	amount = strings.TrimPrefix(strings.ReplaceAll(amount, ",", ""), "£")
	d, err := PlainDecimal(amount)
	if err != nil || d.Sign() <= 0 {
		return Price{}, bad(fmt.Sprintf("%q", amount))
	}
	bare := currency == ""
	if bare {
		currency = model.GBP
	}
	if currency != "GBp" {
		currency = strings.ToUpper(currency)
	}
	if !dsl.IsCurrency(currency) && currency != "GBX" && currency != "GBp" {
		return Price{}, bad(fmt.Sprintf("%q (currency %q)", amount+" "+currency, currency))
	}
	return Price{Amount: d, Currency: currency, NoCurrency: bare}, nil
}

// ParsePrices reads "AAPL=190.50 USD,VWRL=98.2", a list of such items, or an object from
// ticker to price. Tickers are upper-cased.
func ParsePrices(v any) (map[string]Price, []string, error) {
	out := map[string]Price{}
	var tickers []string
	add := func(ticker string, pv any) error {
		ticker = strings.ToUpper(strings.TrimSpace(ticker))
		if ticker == "" {
			return argError("prices: an item has no ticker", "Write each price as TICKER=PRICE [CURRENCY].",
				`prices="AAPL=190.50 USD,VWRL=98.2"`, "prices", "")
		}
		pr, err := ParsePrice("prices."+ticker, pv)
		if err != nil {
			return err
		}
		if _, dup := out[ticker]; !dup {
			tickers = append(tickers, ticker)
		}
		out[ticker] = pr
		return nil
	}
	item := func(s string) error {
		for _, part := range strings.Split(s, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			t, pv, ok := strings.Cut(part, "=")
			if !ok {
				t, pv, ok = strings.Cut(part, ":")
			}
			if !ok {
				return argError(fmt.Sprintf("prices: %q has no =", strings.TrimSpace(part)),
					"Write each price as TICKER=PRICE [CURRENCY].", `prices="AAPL=190.50 USD,VWRL=98.2"`, "prices", part)
			}
			if err := add(t, strings.TrimSpace(pv)); err != nil {
				return err
			}
		}
		return nil
	}
	switch t := v.(type) {
	case nil:
	case string:
		if err := item(t); err != nil {
			return nil, nil, err
		}
	case []any:
		for _, it := range t {
			s, ok := it.(string)
			if !ok {
				return nil, nil, argError(fmt.Sprintf("prices: %v is not TICKER=PRICE", it),
					"Give a list of strings TICKER=PRICE [CURRENCY].", `{"prices":["AAPL=190.50 USD","VWRL=98.2"]}`, "prices", "")
			}
			if err := item(s); err != nil {
				return nil, nil, err
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		order.Ascending(keys)
		for _, k := range keys {
			if err := add(k, t[k]); err != nil {
				return nil, nil, err
			}
		}
	default:
		return nil, nil, argError("prices: expected TICKER=PRICE items", "Give prices as \"AAPL=190.50 USD,VWRL=98.2\", a list or an object.",
			`prices="AAPL=190.50 USD,VWRL=98.2"`, "prices", "")
	}
	return out, tickers, nil
}

// PlainDecimal reads digits with an optional fraction (no exponent, no sign), as a ledger
// writes amounts and quantities; at most 30 characters.
func PlainDecimal(s string) (decimal.Decimal, error) {
	if !model.PlainNumber(s) || len(s) > 30 {
		return decimal.Zero, fmt.Errorf("%q is not a plain number", s)
	}
	return decimal.NewFromString(s)
}

// Pounds reads an amount of pounds ("1,000", "£1000.50"; negative only when neg).
func Pounds(arg string, v any, neg bool, example string) (decimal.Decimal, error) {
	s := strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(fmt.Sprint(v)), ",", ""), "£")
	minus := neg && strings.HasPrefix(s, "-")
	d, err := PlainDecimal(strings.TrimPrefix(s, "-"))
	if err != nil || strings.HasPrefix(s, "-") && !neg {
		return decimal.Zero, argError(fmt.Sprintf("%s %v is not an amount of pounds", arg, v),
			"Give an amount in GBP, digits with an optional fraction.", example, arg, fmt.Sprint(v))
	}
	if minus {
		d = d.Neg()
	}
	return d, nil
}

// Tickers reads "VWRL,LGEN" or a list of tickers, upper-cased.
func Tickers(arg string, v any) ([]string, error) {
	var items []string
	switch t := v.(type) {
	case nil:
	case string:
		items = strings.Split(t, ",")
	case []any:
		for _, it := range t {
			items = append(items, fmt.Sprint(it))
		}
	default:
		return nil, argError(fmt.Sprintf("%s: %v is not a list of tickers", arg, v),
			"Give tickers separated by commas.", arg+"=VWRL,LGEN", arg, "")
	}
	var out []string
	for _, it := range items {
		if it = strings.ToUpper(strings.TrimSpace(it)); it != "" {
			out = append(out, it)
		}
	}
	return out, nil
}
