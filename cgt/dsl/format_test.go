package dsl

import (
	"github.com/shopspring/decimal"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestFormatWritesCanonicalLines(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2024-04-01 buy aapl 100 @ 150.00 usd fees 5.00 usd", "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n"},
		{"2024-04-01 SELL VOD.L 10 @ 0.7215 FEES 0", "2024-04-01 SELL VOD.L 10 @ 0.7215 GBP\n"},
		{"2024-04-01\tBUY  A 1 @ 2 USD FEES 1", "2024-04-01 BUY A 1 @ 2 USD FEES 1 GBP\n"},
		{"2024-07-15 DIVIDEND VOD TOTAL 12.50 TAX 1.00", "2024-07-15 DIVIDEND VOD TOTAL 12.50 GBP TAX 1.00 GBP\n"},
		{"2024-07-15 DIVIDEND VOD TOTAL 12.50 TAX 0", "2024-07-15 DIVIDEND VOD TOTAL 12.50 GBP\n"},
		{"2023-07-15 ACCUMULATION F 0 TOTAL 0 TAX 0", "2023-07-15 ACCUMULATION F 0 TOTAL 0 GBP\n"},
		{"2023-07-15 CAPRETURN F 40 TOTAL 149.75 EUR FEES 0.5 EUR", "2023-07-15 CAPRETURN F 40 TOTAL 149.75 EUR FEES 0.5 EUR\n"},
		{"2024-06-10 SPLIT NVDA RATIO 10", "2024-06-10 SPLIT NVDA RATIO 10\n"},
		{"2024-06-10 unsplit x ratio 5 # consolidation", "2024-06-10 UNSPLIT X RATIO 5\n"},
	}
	for _, tt := range tests {
		txns, err := Parse("", []byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := Format(txns[0]); got != tt.want {
			t.Errorf("Format(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatWritesGBPForAnAmountWithoutCurrency(t *testing.T) {
	txn := model.Transaction{Date: model.NewDate(2024, 4, 1), Action: model.Buy, Ticker: "A",
		Quantity: dec("1"), Price: model.Amount{Value: dec("2.50")}}
	if got := Format(txn); got != "2024-04-01 BUY A 1 @ 2.50 GBP\n" {
		t.Errorf("got %q", got)
	}
}

func TestFormatRoundTripsEveryFixture(t *testing.T) {
	for name, src := range fixtureLedgers(t) {
		want, err := Parse(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := FormatAll(want)
		got, err := Parse(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: canonical text does not parse: %v\n%s", name, err, text)
		}
		sameTransactions(t, got, want)
		if again := FormatAll(got); again != text {
			t.Errorf("%s: formatting is not stable", name)
		}
	}
}

func TestFormatRoundTripsRandomLedgers(t *testing.T) {
	rng := newRand()
	for range 200 {
		want := randomLedger(rng, 50)
		got, err := Parse("", []byte(FormatAll(want)))
		if err != nil {
			t.Fatalf("%v\n%s", err, FormatAll(want))
		}
		sameTransactions(t, got, withoutNames(want))
		if again := FormatAll(got); again != FormatAll(withoutNames(want)) {
			t.Fatalf("canonical text changed on a second pass:\n%s\n%s", again, FormatAll(want))
		}
	}
}

// randomLedger builds valid transactions of every kind with varied scales and currencies.
func randomLedger(rng *rand.Rand, n int) []model.Transaction {
	currencies := []string{"GBP", "USD", "EUR", "JPY", "CHF"}
	num := func(allowZero bool) string {
		whole := rng.IntN(100000)
		if !allowZero && whole == 0 {
			whole = 1
		}
		s := itoa(whole)
		if places := rng.IntN(5); places > 0 {
			s += "." + strings.Repeat("0", places-1) + itoa(1+rng.IntN(9))
		}
		if rng.IntN(10) == 0 {
			s = itoa(rng.IntN(1e9)) + "." + itoa(rng.IntN(1e9)) + "123456789"
		}
		return s
	}
	amount := func(allowZero bool) model.Amount {
		if allowZero && rng.IntN(3) == 0 {
			return model.Amount{Currency: currencies[rng.IntN(len(currencies))]}
		}
		return model.Amount{Value: dec(num(allowZero)), Currency: currencies[rng.IntN(len(currencies))]}
	}
	tickers := []string{"AAPL", "VOD.L", "LON:VOD", "GB00B41YBW71", "BRK-B", "X1"}
	fraction := func() model.Decimal { return dec("0." + itoa(1+rng.IntN(998))) }
	out := make([]model.Transaction, n)
	for i := range out {
		t := model.Transaction{
			Date:   model.NewDate(2008+rng.IntN(20), time.Month(1+rng.IntN(12)), 1+rng.IntN(28)),
			Action: model.Actions[rng.IntN(len(model.Actions))],
			Ticker: tickers[rng.IntN(len(tickers))],
		}
		other := tickers[(slices.Index(tickers, t.Ticker)+1+rng.IntN(len(tickers)-1))%len(tickers)]
		switch t.Action {
		case model.Buy, model.Sell:
			t.Quantity, t.Fees = dec(num(false)), amount(true)
			if rng.IntN(3) == 0 {
				t.Total = amount(false)
			} else {
				t.Price = amount(false)
			}
		case model.Dividend:
			t.Total, ev(&t).Tax = amount(false), amount(true)
		case model.Accumulation:
			t.Quantity, t.Total, ev(&t).Tax = dec(num(true)), amount(true), amount(true)
		case model.CapReturn:
			t.Quantity, t.Total, t.Fees = dec(num(false)), amount(false), amount(true)
			if rng.IntN(2) == 0 {
				ev(&t).Value = amount(false)
			}
		case model.Split:
			ev(&t).Ratio = dec(num(false))
		case model.Unsplit:
			ev(&t).Ratio = dec(itoa(1 + rng.IntN(20)))
		case model.SpouseOut:
			t.Quantity = dec(num(false))
		case model.SpouseIn, model.Pool:
			t.Quantity, ev(&t).Cost = dec(num(false)), amount(true)
		case model.Rights:
			t.Quantity, t.Price, t.Fees = dec(num(false)), amount(true), amount(true)
		case model.Takeover:
			ev(&t).NewTicker, t.Quantity, ev(&t).Cash = other, dec(num(false)), amount(true)
			if rng.IntN(2) == 0 {
				ev(&t).Value = amount(false)
			}
		case model.Demerger:
			ev(&t).NewTicker, t.Quantity, ev(&t).Ratio = other, dec(num(false)), fraction()
		case model.ERI:
			t.Quantity, t.Total = dec(num(false)), amount(false)
		case model.AccountDecl:
			t.Ticker = []string{"T212-ISA", "HL-SIPP", "GIA"}[rng.IntN(3)]
			ev(&t).AccountType = accountTypes[rng.IntN(len(accountTypes))]
		case model.Alias:
			ev(&t).NewTicker = other
		}
		if rng.IntN(3) == 0 && t.Action != model.AccountDecl {
			t.Account = []string{"T212-ISA", "GIA", "IBKR:U123", "U***00000", "STOCKS & SHARES ISA", `A"B\\`}[rng.IntN(6)]
		}
		if rng.IntN(3) == 0 || t.Action == model.ISINDecl {
			t.ISIN = []string{"US0378331005", "GB00BH4HKS39", "IE00B4L5Y983"}[rng.IntN(3)]
		}
		if rng.IntN(3) == 0 {
			t.BrokerRef = []string{"T212-0001", "abc/def_12", "0000e0d5.6571b5c8.01.01", "№7", "release 2021-03-25", "#1", `"q"`, `a\b " c`, "ISIN"}[rng.IntN(9)]
		}
		if rng.IntN(4) == 0 {
			t.Name = []string{"Apple Inc.", "Vodafone # Group", "line\nbreak", "Légal & Général"}[rng.IntN(4)]
		}
		out[i] = t
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

func TestExactStringKeepsTheScale(t *testing.T) {
	tests := []struct {
		d    decimal.Decimal
		want string
	}{
		{decimal.RequireFromString("150.00"), "150.00"},
		{decimal.RequireFromString("0.0001"), "0.0001"},
		{decimal.RequireFromString("0.10"), "0.10"},
		{decimal.Decimal{}, "0"},
		{decimal.RequireFromString("0.00"), "0.00"},
		{decimal.RequireFromString("-3.5"), "-3.5"},
		{decimal.New(5, 2), "500"},
		{decimal.New(0, 3), "0"},
		{decimal.RequireFromString("1234567890.123456789012"), "1234567890.123456789012"},
		{decimal.RequireFromString("12345678901234567890"), "12345678901234567890"},
		{decimal.RequireFromString("0.000000000000000000001"), "0.000000000000000000001"},
		{decimal.RequireFromString("999999999999999999"), "999999999999999999"},
		{decimal.RequireFromString("-99999999999999999.9"), "-99999999999999999.9"},
	}
	for _, tt := range tests {
		if got := exactString(tt.d); got != tt.want {
			t.Errorf("exactString(%v) = %q, want %q", tt.d, got, tt.want)
		}
		if fixed := tt.d.StringFixed(max(0, -tt.d.Exponent())); fixed != tt.want && !tt.d.IsZero() {
			t.Errorf("StringFixed disagrees: %q", fixed)
		}
	}
}

// A long list is written in parts at once; the text is the lines one after another.
func TestFormatAllOfALongListIsEachLineInOrder(t *testing.T) {
	txns := randomLedger(newRand(), 3*formatPartLines+17)
	var want strings.Builder
	for _, tx := range txns {
		want.WriteString(Format(tx))
	}
	if got := FormatAll(txns); got != want.String() {
		t.Errorf("FormatAll of %d transactions differs from their lines in order", len(txns))
	}
}
