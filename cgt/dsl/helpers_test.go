package dsl

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

// fixtureDir is the shared acceptance ledgers, beside the repository.
var fixtureDir = filepath.Join("..", "..", "..", "shared", "cgt-fixtures")

// fixtureLedgers returns every *.cgt fixture, skipping the test when they are absent (except
// in CI, where their absence is a failure).
func fixtureLedgers(t testing.TB) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.cgt"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no fixtures in %s", fixtureDir)
		}
		t.Skipf("fixtures not found in %s", fixtureDir)
	}
	out := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

func asModelError(t testing.TB, err error) *model.Error {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	return e
}

func dec(s string) model.Decimal { return model.DecimalFromString(s) }

// sameTransactions compares everything but Source: numbers by value and scale, and zero
// amounts regardless of currency (the text form does not write a zero FEES or TAX).
func sameTransactions(t testing.TB, got, want []model.Transaction) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d transactions, want %d", len(got), len(want))
	}
	for i := range want {
		if d := txnDiff(got[i], want[i]); d != "" {
			t.Fatalf("transaction %d: %s\n got %+v\nwant %+v", i, d, got[i], want[i])
		}
	}
}

func txnDiff(a, b model.Transaction) string {
	switch {
	case a.Date != b.Date:
		return "date"
	case a.Action != b.Action:
		return "action"
	case a.Ticker != b.Ticker:
		return "ticker"
	case !sameNumber(a.Quantity, b.Quantity):
		return "quantity"
	case !sameAmount(a.Price, b.Price):
		return "price"
	case !sameAmount(a.Fees, b.Fees):
		return "fees"
	case !sameAmount(a.Total, b.Total):
		return "total"
	case !sameAmount(a.Tax(), b.Tax()):
		return "tax"
	case !sameNumber(a.Ratio(), b.Ratio()):
		return "ratio"
	case (a.Action == model.Buy || a.Action == model.Sell) && TotalForm(a) != TotalForm(b):
		return "price or total form"
	case a.NewTicker() != b.NewTicker():
		return "new ticker"
	case !sameAmount(a.Cost(), b.Cost()):
		return "cost"
	case !sameAmount(a.Cash(), b.Cash()):
		return "cash"
	case !sameAmount(a.Value(), b.Value()):
		return "value"
	case a.AccountType() != b.AccountType():
		return "account type"
	case a.Account != b.Account || a.ISIN != b.ISIN || a.Name != b.Name || a.BrokerRef != b.BrokerRef:
		return "labels"
	}
	return ""
}

// withoutNames clears the security names, which the ledger language keeps only as a comment.
func withoutNames(txns []model.Transaction) []model.Transaction {
	out := append([]model.Transaction(nil), txns...)
	for i := range out {
		out[i].Name = ""
	}
	return out
}

func sameNumber(x, y model.Decimal) bool {
	a, b := x.Exact(), y.Exact()
	return a.Equal(b) && exactString(a) == exactString(b) || a.IsZero() && b.IsZero()
}

func sameAmount(a, b model.Amount) bool {
	if a.Value.IsZero() && b.Value.IsZero() {
		return true
	}
	return sameNumber(a.Value, b.Value) && a.Currency == b.Currency
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
