package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// lineError builds a validation error positioned at the transaction's ledger line.
func lineError(t *model.Transaction, msg, hint string, examples ...string) *model.Error {
	e := &model.Error{
		Code:     model.CodeValidation,
		Message:  msg,
		Hint:     hint,
		Examples: examples,
		File:     t.Source.File,
		Line:     t.Source.Line,
		Context: map[string]any{
			"ticker": t.Ticker,
			"date":   t.Date.String(),
			"action": string(t.Action),
		},
	}
	if t.Source.Line == 0 && t.Source.Index >= 0 {
		e.Context["index"] = t.Source.Index
	}
	return e
}

// checkShape rejects transactions the engine cannot use, before any arithmetic.
func checkShape(t *model.Transaction) error {
	if t.Ticker == "" {
		return lineError(t, "transaction has no ticker", "every line names the security it is about",
			"2024-04-01 BUY AAPL 100 @ 150.00 USD")
	}
	switch t.Action {
	case model.Buy, model.Sell:
		if t.Quantity.Sign() <= 0 {
			return lineError(t, fmt.Sprintf("%s %s quantity %s must be more than zero", t.Action, t.Ticker, t.Quantity),
				"give the number of shares traded as a positive number", "2024-04-01 SELL AAPL 10 @ 170.00 USD")
		}
		if t.Price.Value.Sign() < 0 || t.Fees.Value.Sign() < 0 || t.Total.Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("%s %s has a negative price, total or fee", t.Action, t.Ticker),
				"prices, totals and fees are positive amounts", "2024-04-01 BUY AAPL 10 @ 150.00 USD FEES 1.00 USD")
		}
		if !t.Price.Value.IsZero() && !t.Total.Value.IsZero() {
			return lineError(t, fmt.Sprintf("%s %s gives both a price (%s) and a total (%s)", t.Action, t.Ticker, t.Price.Value, t.Total.Value),
				"give either the price per share or the whole consideration (TOTAL), not both",
				"2024-04-01 BUY VWRL 0.3741 TOTAL 40.00 FEES 0.15", "2024-04-01 BUY VWRL 10 @ 106.92")
		}
	case model.Split, model.Unsplit:
		if t.Ratio().Sign() <= 0 {
			return lineError(t, fmt.Sprintf("%s %s ratio %s must be more than zero", t.Action, t.Ticker, t.Ratio()),
				"a 2-for-1 split is RATIO 2", "2024-04-01 SPLIT AAPL RATIO 2")
		}
	case model.Dividend, model.Accumulation, model.CapReturn:
		if t.Total.Value.Sign() < 0 || t.Tax().Value.Sign() < 0 || t.Fees.Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("%s %s has a negative amount", t.Action, t.Ticker),
				"amounts are positive", "2024-04-01 DIVIDEND AAPL TOTAL 12.50 USD TAX 1.88 USD")
		}
	case model.Pool, model.SpouseIn:
		if t.Quantity.Sign() <= 0 || t.Cost().Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("%s %s needs a quantity above zero and a cost of zero or more (quantity %s, cost %s)",
				t.Action, t.Ticker, t.Quantity, t.Cost().Value),
				"give the shares and their allowable cost", "1982-03-31 POOL ABC 1000 COST 2500.00")
		}
	case model.SpouseOut:
		if t.Quantity.Sign() <= 0 {
			return lineError(t, fmt.Sprintf("SPOUSEOUT %s quantity %s must be more than zero", t.Ticker, t.Quantity),
				"give the number of shares transferred", "2024-04-01 SPOUSEOUT ABC 100")
		}
	case model.Rights:
		if t.Quantity.Sign() <= 0 || t.Price.Value.Sign() < 0 || t.Fees.Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("RIGHTS %s needs a quantity above zero and a price and fees of zero or more", t.Ticker),
				"give the new shares taken up and the price paid for each", "2024-04-01 RIGHTS ABC 200 @ 3.50")
		}
	case model.ERI:
		if t.Quantity.Sign() <= 0 || t.Total.Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("ERI %s needs the units held at the period end (above zero) and a total of zero or more", t.Ticker),
				"QUANTITY is the units held at the end of the fund's reporting period", "2024-12-31 ERI VWRL 100 TOTAL 12.34")
		}
	case model.Takeover, model.Demerger:
		if t.NewTicker() == "" || t.Quantity.Sign() <= 0 {
			return lineError(t, fmt.Sprintf("%s %s needs the new ticker and the number of new shares (above zero)", t.Action, t.Ticker),
				"name the old and new securities and the new shares received",
				"2024-04-01 TAKEOVER OLDCO NEWCO 50", "2024-04-01 DEMERGER PARENT CHILD 25 RATIO 0.2")
		}
		if t.Cash().Value.Sign() < 0 || t.Value().Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("%s %s has a negative cash or value", t.Action, t.Ticker),
				"amounts are positive", "2024-04-01 TAKEOVER OLDCO NEWCO 50 CASH 1200 VALUE 30000")
		}
		if t.Action == model.Demerger && (t.Ratio().Sign() < 0 || numOfDecimal(t.Ratio()).cmp(numInt(1)) > 0) {
			return lineError(t, fmt.Sprintf("DEMERGER %s %s fraction %s must be from 0 to 1", t.Ticker, t.NewTicker(), t.Ratio()),
				"the fraction is the share of the parent's cost that moves to the new shares, as the company publishes it",
				"2024-04-01 DEMERGER PARENT CHILD 25 RATIO 0.2")
		}
	case model.AccountDecl:
		if !slices.Contains(accountTypes, strings.ToUpper(t.AccountType())) {
			return lineError(t, fmt.Sprintf("ACCOUNT %s has type %q; the types are %s", t.Ticker, t.AccountType(), strings.Join(accountTypes, ", ")),
				"declare a tax wrapper as ISA, LISA, JISA or SIPP, an ordinary account as GIA", "2024-04-01 ACCOUNT MYISA ISA")
		}
	case model.Alias:
		if t.NewTicker() == "" {
			return lineError(t, "ALIAS "+t.Ticker+" names no second ticker", "name the two tickers of one security",
				"2024-04-01 ALIAS VWRL VWRL.L")
		}
	case model.Negligible:
		if t.Value().Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("NEGLIGIBLE %s has a negative value %s", t.Ticker, t.Value().Value),
				"give the value claimed for the whole holding, 0 or more (nil when VALUE is left out)", "2024-11-20 NEGLIGIBLE BUST.L VALUE 0")
		}
	case model.ISINDecl:
		if t.ISIN == "" {
			return lineError(t, "ISIN "+t.Ticker+" gives no ISIN", "write ISIN TICKER CODE with the fund's 12-character ISIN",
				"2024-01-01 ISIN VUSA IE00B3XXRP09")
		}
	case model.Exempt, model.NonReporting:
	default:
		return lineError(t, fmt.Sprintf("unknown action %q", t.Action),
			"use one of "+actionList(), "2024-04-01 BUY AAPL 100 @ 150.00 USD")
	}
	return nil
}

// actionList names every action, for an error's hint.
func actionList() string {
	names := make([]string, len(model.Actions))
	for i, a := range model.Actions {
		names[i] = string(a)
	}
	return strings.Join(names, ", ")
}

// withLine gives an error from another package (a missing FX rate) the ledger position of the
// transaction that needed it, keeping its code when it already has one.
func withLine(t *model.Transaction, err error) error {
	var me *model.Error
	if errors.As(err, &me) {
		c := *me
		if c.Line == 0 {
			c.File, c.Line = t.Source.File, t.Source.Line
		}
		return &c
	}
	e := lineError(t, err.Error(), "check the currency and the date, or supply the HMRC rate for that month")
	e.Code = model.CodeFXUnavailable
	return e
}
