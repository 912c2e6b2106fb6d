package dsl

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestParseJSONReadsEveryForm(t *testing.T) {
	src := `[
	 {"date": "2024-04-01", "action": "buy", "ticker": "aapl", "quantity": "100",
	  "price": {"amount": "150.00", "currency": "usd"}, "fees": {"amount": "5.00", "currency": "USD"}},
	 {"date": "2024-06-20", "action": "SELL", "ticker": "AAPL", "quantity": 50, "price": 170.25},
	 {"date": "2024-07-15", "action": "DIVIDEND", "ticker": "VOD.L", "total": "12.50", "tax": "0"},
	 {"date": "2023-07-15", "action": "ACCUMULATION", "ticker": "F", "quantity": "0", "total": "0"},
	 {"date": "2024-07-15", "action": "CAPRETURN", "ticker": "F", "quantity": "10", "total": {"amount": "3", "currency": "EUR"}},
	 {"date": "2024-06-10", "action": "split", "ticker": "NVDA", "ratio": 10},
	 {"date": "2024-06-10", "action": "UNSPLIT", "ticker": "XYZ", "ratio": "5", "source": {"file": "x", "line": 3}}
	]`
	got, err := ParseJSON("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("", []byte(`2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD
2024-06-20 SELL AAPL 50 @ 170.25 GBP
2024-07-15 DIVIDEND VOD.L TOTAL 12.50 GBP
2023-07-15 ACCUMULATION F 0 TOTAL 0
2024-07-15 CAPRETURN F 10 TOTAL 3 EUR
2024-06-10 SPLIT NVDA RATIO 10
2024-06-10 UNSPLIT XYZ RATIO 5
`))
	if err != nil {
		t.Fatal(err)
	}
	sameTransactions(t, got, want)
	if got[1].Fees.Currency != "GBP" || got[0].Price.Currency != "USD" {
		t.Errorf("currencies: %+v", got[:2])
	}
	if got[6].Source != (model.Source{File: "t.json", Line: 0, Index: 6}) {
		t.Errorf("source = %+v", got[6].Source)
	}
}

func TestParseJSONErrors(t *testing.T) {
	const buy = `"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "10"`
	tests := []struct {
		name  string
		item  string
		code  string
		field string
		value string
		msg   string
	}{
		{"unknown_key", `{` + buy + `, "price": "1", "qty": 3}`, model.CodeParse, "qty", "qty", `unknown key "qty"`},
		{"missing_price", `{` + buy + `}`, model.CodeParse, "price", clip(`{` + buy + `}`), `"price" is missing`},
		{"field_for_another_action", `{` + buy + `, "price": "1", "tax": "5"}`, model.CodeParse, "tax", `"5"`, "does not apply to BUY"},
		{"null_money", `{` + buy + `, "price": null}`, model.CodeParse, "price", "null", "must not be null"},
		{"null_fees", `{` + buy + `, "price": "1", "fees": null}`, model.CodeParse, "fees", "null", "must not be null"},
		{"null_quantity", `{"date": "2024-04-01", "action": "BUY", "ticker": "A", "quantity": null, "price": "1"}`, model.CodeParse, "quantity", "null", "must not be null"},
		{"object_without_currency", `{` + buy + `, "price": {"amount": "150.00"}}`, model.CodeParse, "price", `{"amount": "150.00"}`, `has no "currency"`},
		{"zero_price", `{` + buy + `, "price": "0"}`, model.CodeValidation, "price", "0", "amounts must be positive"},
		{"negative_price", `{` + buy + `, "price": -3}`, model.CodeValidation, "price", "-3", "amounts must be positive"},
		{"negative_quantity", `{"date": "2024-04-01", "action": "SELL", "ticker": "A", "quantity": "-1", "price": "1"}`, model.CodeValidation, "quantity", "-1", "amounts must be positive"},
		{"negative_fees", `{` + buy + `, "price": "1", "fees": "-1"}`, model.CodeValidation, "fees", "-1", "cannot be negative"},
		{"unknown_currency", `{` + buy + `, "price": {"amount": "1", "currency": "XYZ"}}`, model.CodeValidation, "price", "XYZ", "unknown currency"},
		{"bad_date", `{"date": "20/06/2024", "action": "BUY"}`, model.CodeParse, "date", "20/06/2024", "not in the form YYYY-MM-DD"},
		{"unreal_date", `{"date": "2024-02-30", "action": "BUY"}`, model.CodeValidation, "date", "2024-02-30", "not a real calendar date"},
		{"date_as_number", `{"date": 20240101}`, model.CodeParse, "date", "20240101", "must be a string"},
		{"unknown_action", `{"date": "2024-04-01", "action": "PURCHASE", "ticker": "A"}`, model.CodeParse, "action", "PURCHASE", `unknown action "PURCHASE"`},
		{"bad_ticker", `{"date": "2024-04-01", "action": "BUY", "ticker": "A B"}`, model.CodeParse, "ticker", "A B", "not allowed"},
		{"exponent", `{` + buy + `, "price": 1e3}`, model.CodeParse, "price", "1e3", "exponents"},
		{"not_an_object", `"2024-04-01 BUY A 1 @ 2"`, model.CodeParse, "", `"2024-04-01 BUY A 1 @ 2"`, "expected a transaction object"},
		{"fractional_consolidation", `{"date": "2024-04-01", "action": "UNSPLIT", "ticker": "A", "ratio": "1.5"}`, model.CodeValidation, "ratio", "1.5", "whole number"},
		{"money_object_extra_key", `{` + buy + `, "price": {"amount": "1", "currency": "USD", "fx": "1.2"}}`, model.CodeParse, "price", "fx", `unknown key "fx"`},
		{"boolean_quantity", `{"date": "2024-04-01", "action": "BUY", "ticker": "A", "quantity": true, "price": "1"}`, model.CodeParse, "quantity", "true", "must be a decimal string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := `{"date": "2024-01-01", "action": "SPLIT", "ticker": "A", "ratio": "2"}`
			_, err := ParseJSON("led.json", []byte("["+good+",\n"+tt.item+"]"))
			if err == nil {
				t.Fatal("no error")
			}
			e := asModelError(t, err)
			if e.Code != tt.code || e.Context["index"] != 1 || e.Context["field"] != tt.field || e.Value != tt.value {
				t.Errorf("got code=%s context=%v value=%q, want %s field %q value %q (%s)", e.Code, e.Context, e.Value, tt.code, tt.field, tt.value, e.Message)
			}
			if !strings.Contains(e.Message, tt.msg) || !strings.HasPrefix(e.Message, "transactions[1]") {
				t.Errorf("message %q lacks %q", e.Message, tt.msg)
			}
			checkJSONAdvice(t, e)
		})
	}
}

func checkJSONAdvice(t *testing.T, e *model.Error) {
	t.Helper()
	if e.File != "led.json" || e.Hint == "" || len(e.Examples) == 0 {
		t.Errorf("file=%q hint=%q examples=%v", e.File, e.Hint, e.Examples)
	}
	for _, ex := range e.Examples {
		if !strings.HasPrefix(ex, "[") {
			ex = "[" + ex + "]"
		}
		if _, err := ParseJSON("example", []byte(ex)); err != nil {
			t.Errorf("example %s does not parse: %v", ex, err)
		}
	}
}

func TestParseJSONHints(t *testing.T) {
	tests := []struct{ item, hint string }{
		{`{"date": "2024-04-01", "action": "BUY", "ticker": "A", "quantity": "1", "price": {"amount": "2"}}`, `plain string such as "150.00"`},
		{`{"date": "2024-04-01", "action": "BUY", "ticker": "A", "qty": "1"}`, `did you mean "quantity"?`},
		{`{"date": "2024-04-01", "action": "BUY", "ticker": "A", "quantity": "1", "price": "2", "colour": "red"}`, "allowed keys: date, action, ticker, quantity, price, fees, total, tax, ratio"},
		{`{"date": "2024-04-01", "action": "SOLD", "ticker": "A"}`, "did you mean SELL?"},
	}
	for _, tt := range tests {
		_, err := ParseJSON("", []byte("["+tt.item+"]"))
		if err == nil {
			t.Fatalf("%s: no error", tt.item)
		}
		if e := asModelError(t, err); !strings.Contains(e.Hint, tt.hint) {
			t.Errorf("%s: hint %q lacks %q", tt.item, e.Hint, tt.hint)
		}
	}
}

func TestParseJSONDocumentErrorsHaveAPosition(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"[\n  {\"date\": \"2024-04-01\",}\n]", 2, 25, "not valid JSON"},
		{`{"date": "2024-04-01"}`, 1, 1, "expected a JSON array of transactions, found object"},
		{"null", 1, 1, "found null"},
		{"[", 1, 1, "not valid JSON"},
		{"", 1, 1, "not valid JSON"},
	}
	for _, tt := range tests {
		_, err := ParseJSON("led.json", []byte(tt.src))
		if err == nil {
			t.Fatalf("%q: no error", tt.src)
		}
		e := asModelError(t, err)
		if e.Code != model.CodeParse || e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("%q: got line %d col %d %q", tt.src, e.Line, e.Column, e.Message)
		}
		checkJSONAdvice(t, e)
	}
}

func TestToJSONShape(t *testing.T) {
	txns, err := Parse("a.cgt", []byte("2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2024-07-15 DIVIDEND VOD TOTAL 12.50 TAX 0\n2024-06-10 SPLIT NVDA RATIO 10\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(mustMarshal(t, ToJSONAll(txns)))
	want := `[{"date":"2024-04-01","action":"BUY","ticker":"AAPL","quantity":"100","price":{"amount":"150.00","currency":"USD"},"fees":{"amount":"5.00","currency":"USD"},"source":{"file":"a.cgt","line":1}},` +
		`{"date":"2024-07-15","action":"DIVIDEND","ticker":"VOD","total":{"amount":"12.50","currency":"GBP"},"source":{"file":"a.cgt","line":2}},` +
		`{"date":"2024-06-10","action":"SPLIT","ticker":"NVDA","ratio":"10","source":{"file":"a.cgt","line":3}}]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	fromJSON, err := ParseJSON("", []byte(`[{"date":"2024-06-10","action":"SPLIT","ticker":"NVDA","ratio":"10"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(mustMarshal(t, ToJSON(fromJSON[0]).Source)); s != `{"index":0}` {
		t.Errorf("JSON source = %s", s)
	}
}

func TestToJSONRoundTripsThroughParseJSONArray(t *testing.T) {
	check := func(name string, want []model.Transaction) {
		var items []json.RawMessage
		for _, j := range ToJSONAll(want) {
			items = append(items, mustMarshal(t, j))
		}
		got, err := ParseJSONArray(name, items)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameTransactions(t, got, want)
		for i := range got {
			if got[i].Source.Index != i {
				t.Fatalf("%s: index %d", name, got[i].Source.Index)
			}
		}
	}
	for name, src := range fixtureLedgers(t) {
		txns, err := Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		check(name, txns)
	}
}

func TestToJSONRoundTripsRandomLedgers(t *testing.T) {
	rng := newRand()
	for range 100 {
		want := randomLedger(rng, 30)
		got, err := ParseJSON("", mustMarshal(t, ToJSONAll(want)))
		if err != nil {
			t.Fatal(err)
		}
		sameTransactions(t, got, want)
	}
}

func TestParseAutoDetectsTheForm(t *testing.T) {
	for _, src := range []string{
		"\ufeff \n\t[{\"date\": \"2024-06-10\", \"action\": \"SPLIT\", \"ticker\": \"A\", \"ratio\": \"2\"}]",
		"# a ledger\n2024-06-10 SPLIT A RATIO 2\n",
	} {
		got, err := ParseAuto("x", []byte(src))
		if err != nil || len(got) != 1 || got[0].Action != model.Split {
			t.Errorf("%q: %v %v", src, got, err)
		}
	}
	if _, err := ParseAuto("x", []byte("  [ not json")); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("bad JSON read as text: %v", err)
	}
}
