package engine

import (
	"errors"
	"fmt"

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
		if t.Ratio.Sign() <= 0 {
			return lineError(t, fmt.Sprintf("%s %s ratio %s must be more than zero", t.Action, t.Ticker, t.Ratio),
				"a 2-for-1 split is RATIO 2", "2024-04-01 SPLIT AAPL RATIO 2")
		}
	case model.Dividend, model.Accumulation, model.CapReturn:
		if t.Total.Value.Sign() < 0 || t.Tax.Value.Sign() < 0 || t.Fees.Value.Sign() < 0 {
			return lineError(t, fmt.Sprintf("%s %s has a negative amount", t.Action, t.Ticker),
				"amounts are positive", "2024-04-01 DIVIDEND AAPL TOTAL 12.50 USD TAX 1.88 USD")
		}
	default:
		return lineError(t, fmt.Sprintf("unknown action %q", t.Action),
			"use BUY, SELL, DIVIDEND, ACCUMULATION, CAPRETURN, SPLIT or UNSPLIT", "2024-04-01 BUY AAPL 100 @ 150.00 USD")
	}
	return nil
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
