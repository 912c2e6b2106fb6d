package engine

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

// field sets one field of a transaction built by tx.
type field func(*model.Transaction)

// tx builds a transaction directly (no ledger text): tx("2024-01-01", model.Buy, "ABC", q("10"), at("1.50")).
func tx(date string, action model.Action, ticker string, fs ...field) model.Transaction {
	d, err := model.ParseDate(date)
	if err != nil {
		panic(err)
	}
	t := model.Transaction{Date: d, Action: action, Ticker: ticker, Source: model.Source{Index: -1}}
	for _, f := range fs {
		f(&t)
	}
	return t
}

// amount is a figure with an optional currency ("12.50", "12.50 USD").
func amount(s string) model.Amount {
	v, ccy, _ := strings.Cut(s, " ")
	if ccy == "" {
		ccy = model.GBP
	}
	return model.Amount{Value: model.DecimalFromString(v), Currency: ccy}
}

func q(s string) field     { return func(t *model.Transaction) { t.Quantity = model.DecimalFromString(s) } }
func at(s string) field    { return func(t *model.Transaction) { t.Price = amount(s) } }
func total(s string) field { return func(t *model.Transaction) { t.Total = amount(s) } }
func fees(s string) field  { return func(t *model.Transaction) { t.Fees = amount(s) } }
func cost(s string) field  { return func(t *model.Transaction) { ev(t).Cost = amount(s) } }
func cash(s string) field  { return func(t *model.Transaction) { ev(t).Cash = amount(s) } }
func value(s string) field { return func(t *model.Transaction) { ev(t).Value = amount(s) } }
func ratio(s string) field {
	return func(t *model.Transaction) { ev(t).Ratio = model.DecimalFromString(s) }
}
func newTicker(s string) field { return func(t *model.Transaction) { ev(t).NewTicker = s } }
func account(s string) field   { return func(t *model.Transaction) { t.Account = s } }
func isin(s string) field      { return func(t *model.Transaction) { t.ISIN = s } }
func kind(s string) field      { return func(t *model.Transaction) { ev(t).AccountType = s } }
func file(s string) field      { return func(t *model.Transaction) { t.Source.File = s } }

// lines numbers the transactions as lines 1, 2, … of test.cgt (or of the file a transaction
// names), in the order given.
func lines(ts ...model.Transaction) []model.Transaction {
	for i := range ts {
		if ts[i].Source.File == "" {
			ts[i].Source.File = "test.cgt"
		}
		ts[i].Source.Line = i + 1
	}
	return ts
}

// mustCalc calculates transactions that must succeed.
func mustCalc(t *testing.T, opts Options, ts ...model.Transaction) *Report {
	t.Helper()
	rep, err := Calculate(lines(ts...), opts)
	if err != nil {
		t.Fatalf("calculate: %v", err)
	}
	return rep
}

// calcErr calculates transactions that must fail.
func calcErr(t *testing.T, ts ...model.Transaction) error {
	t.Helper()
	_, err := Calculate(lines(ts...), Options{})
	if err == nil {
		t.Fatal("calculate succeeded, want an error")
	}
	return err
}

// wantWarning checks that a warning contains every part.
func wantWarning(t *testing.T, rep *Report, parts ...string) {
	t.Helper()
	for _, w := range rep.Warnings {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("no warning with %q among %q", parts, rep.Warnings)
}

// ev gives t's event fields to set, allocating them when t has none.
func ev(t *model.Transaction) *model.Event {
	if t.Event == nil {
		t.Event = new(model.Event)
	}
	return t.Event
}
