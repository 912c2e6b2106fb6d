package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// SchwabAwards reads the Schwab Equity Award Center JSON export (both generations: v1
// {"transactions":[{"eventDate","action",...,"transactionDetails":[...]}]} and v2
// {"FromDate","ToDate","Transactions":[{"Date","Action",...,"TransactionDetails":[{"Details":{...}}]}]}).
// An RSU vest is a BUY on the vest date at the vest-date fair market value, in US dollars.
var SchwabAwards = &Importer{
	Name:      "schwab-awards",
	Title:     "Charles Schwab Equity Award Center JSON",
	Broker:    "Charles Schwab",
	Page:      "schwab",
	Signature: `JSON object with a "Transactions" (or "transactions") list of award events`,
	Detect: func(c *Content) bool {
		return !c.HasJSONKey("BrokerageTransactions") && (c.HasJSONKey("Transactions") || c.HasJSONKey("transactions"))
	},
	Read: readSchwabAwards,
}

// field reads a key in either generation's spelling (eventDate / Date, action / Action).
func field(m map[string]any, keys ...string) string {
	for _, k := range keys {
		for mk, v := range m {
			if strings.EqualFold(mk, k) {
				if s := jsonCell(v); s != "" {
					return strings.TrimSpace(s)
				}
			}
		}
	}
	return ""
}

func awardDetails(m map[string]any) []map[string]any {
	var out []map[string]any
	for k, v := range m {
		if !strings.EqualFold(k, "transactionDetails") {
			continue
		}
		list, _ := v.([]any)
		for _, it := range list {
			d, _ := it.(map[string]any)
			if inner, ok := d["Details"].(map[string]any); ok {
				d = inner
			}
			if d != nil {
				out = append(out, d)
			}
		}
	}
	return out
}

func readSchwabAwards(file string, src []byte) (*Import, error) {
	b := newBatch(file, "schwab-awards")
	var doc map[string]any
	if err := decodeJSON(file, src, &doc); err != nil {
		return nil, err
	}
	var items []any
	for k, v := range doc {
		if strings.EqualFold(k, "transactions") {
			items, _ = v.([]any)
		}
	}
	for i, it := range items {
		row := i + 1
		b.seen()
		m, _ := it.(map[string]any)
		if m == nil {
			b.skip(row, "unknown", "not an object")
			continue
		}
		if err := awardRow(b, file, row, m); err != nil {
			return nil, err
		}
	}
	return b.done(), nil
}

func awardNumber(file string, row int, key, s string) (decimal.Decimal, error) {
	if isEmptyCell(s) {
		return decimal.Decimal{}, nil
	}
	d, ok := parseNumber(s, moneyNumber)
	if !ok {
		return d, &model.Error{Code: model.CodeParse, File: file, Line: row, Value: s,
			Message: fmt.Sprintf("%s transaction %d, %s: %q is not a number", file, row, key, s),
			Hint:    "Export the file again from the Equity Award Center without editing it.", Context: map[string]any{"field": key}}
	}
	return d, nil
}

func awardDate(file string, row int, key, s string) (model.Date, error) {
	d, ok := parseDate(s, schwabDates...)
	if !ok {
		return 0, &model.Error{Code: model.CodeParse, File: file, Line: row, Value: s,
			Message: fmt.Sprintf("%s transaction %d, %s: %q is not a date MM/DD/YYYY", file, row, key, s),
			Hint:    "Export the file again from the Equity Award Center without editing it.", Context: map[string]any{"field": key}}
	}
	return d, nil
}

func awardRow(b *batch, file string, row int, m map[string]any) error {
	action := field(m, "action")
	act := strings.ToLower(action)
	tk := ticker(field(m, "symbol"), "")
	date, err := awardDate(file, row, "date", field(m, "eventDate", "date"))
	if err != nil {
		return err
	}
	qty, err := awardNumber(file, row, "quantity", field(m, "quantity"))
	if err != nil {
		return err
	}
	amt, err := awardNumber(file, row, "amount", field(m, "amount"))
	if err != nil {
		return err
	}
	fees, err := awardNumber(file, row, "fees", field(m, "totalCommissionsAndFees", "feesAndCommissions"))
	if err != nil {
		return err
	}
	details := awardDetails(m)
	key := tk + "|" + date.String()
	switch act {
	case "deposit":
		if len(details) == 0 {
			b.warn(row, "rsu_vest", fmt.Sprintf("deposit of %s %s without vest details", qty, tk), "add a BUY at the vest-date market value")
			return nil
		}
		d := details[0]
		fmv, err := awardNumber(file, row, "vestFairMarketValue", field(d, "vestFairMarketValue", "purchaseFairMarketValue"))
		if err != nil {
			return err
		}
		vest := date
		if s := field(d, "vestDate", "purchaseDate"); s != "" {
			if vest, err = awardDate(file, row, "vestDate", s); err != nil {
				return err
			}
		}
		if fmv.Sign() <= 0 || qty.Sign() <= 0 {
			b.warn(row, "rsu_vest", fmt.Sprintf("deposit of %s %s without a market value", qty, tk), "add a BUY at the vest-date market value")
			return nil
		}
		// An RSU vest costs its market value on the vest date (the shares' acquisition date).
		b.add(row, model.Transaction{Date: vest, Action: model.Buy, Ticker: tk, Quantity: num(qty), Price: amount(fmv, "USD"),
			Name:      strings.TrimSpace(field(m, "description") + " award " + field(d, "awardId", "grantId")),
			BrokerRef: "award:" + field(d, "awardId", "grantId") + ":" + vest.String() + ":" + qty.String()})
	case "sale", "sell":
		if qty.Sign() <= 0 {
			b.warn(row, "trade", "sale of "+tk+" without a quantity", "add the SELL line by hand")
			return nil
		}
		tx := model.Transaction{Date: date, Action: model.Sell, Ticker: tk, Quantity: num(qty.Abs()), Fees: amount(fees.Abs(), "USD")}
		price := decimal.Decimal{}
		if len(details) > 0 {
			if price, err = awardNumber(file, row, "salePrice", field(details[0], "salePrice")); err != nil {
				return err
			}
		}
		total := amt.Abs().Add(fees.Abs())
		switch {
		case amt.Sign() > 0 && !qty.Mul(price).Equal(total):
			tx.Total = amount(total, "USD") // the cash received is the consideration
		case price.Sign() > 0:
			tx.Price = amount(price, "USD")
		default:
			b.warn(row, "trade", "sale of "+tk+" without a price or amount", "add the SELL line by hand")
			return nil
		}
		b.add(row, tx)
	case "dividend":
		if amt.Sign() <= 0 {
			b.warn(row, "dividend", "dividend on "+tk+" without an amount", "add a DIVIDEND line by hand")
			return nil
		}
		b.dividend(row, key, model.Transaction{Date: date, Action: model.Dividend, Ticker: tk, Total: amount(amt, "USD")})
	case "tax withholding", "tax reversal":
		b.withhold(row, key, amount(amt, "USD"), action)
	case "wire transfer":
		b.skip(row, "withdrawal", "cash paid out of the stock plan account")
	case "journal":
		b.skip(row, "transfer", "shares or cash moved to your brokerage account: not a disposal")
	case "lapse":
		b.warn(row, "rsu_vest", fmt.Sprintf("lapse of %s %s: the export gives no market value", qty, tk),
			"add a BUY at the vest-date market value for the shares you received")
	default:
		b.warn(row, "unknown", fmt.Sprintf("action %q is not one cgt knows", action), "if it moved shares, add the ledger line by hand")
	}
	return nil
}
