package dsl

import (
	"errors"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n",
		"2024-07-15 DIVIDEND VOD.L TOTAL 12.50 TAX 1 # note\r\n",
		"2023-07-15\tACCUMULATION  FUNDZERO 0 TOTAL 0 TAX 0",
		"2019-05-31 CAPRETURN GB00B3TYHH97 40 TOTAL 149.75 FEES 0\n2024-06-10 SPLIT NVDA RATIO 10\n",
		"2024-06-10 UNSPLIT XYZ RATIO 2.5",
		"2024-02-30 BUY A 1 @ 2",
		"# comment only\n\n",
		"2024-01-01 BUY A 1,000 @ £2\x00",
		"\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		txns, err := Parse("fuzz.cgt", src)
		if err != nil {
			checkFuzzError(t, err, true)
			return
		}
		again, err := Parse("fuzz.cgt", []byte(FormatAll(txns)))
		if err != nil {
			t.Fatalf("canonical form of %q does not parse: %v", src, err)
		}
		sameTransactions(t, again, txns)
	})
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`[{"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "100", "price": {"amount": "150.00", "currency": "USD"}}]`,
		`[{"date": "2024-07-15", "action": "dividend", "ticker": "vod.l", "total": 12.5, "tax": "0"}]`,
		`[{"date": "2024-06-10", "action": "SPLIT", "ticker": "NVDA", "ratio": "10", "source": {"line": 2}}]`,
		`[{"date": "2024-04-01", "action": "BUY", "price": null}]`,
		`{"not": "an array"}`,
		`[1, "x", null]`,
		`[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		txns, err := ParseJSON("fuzz.json", src)
		if err != nil {
			checkFuzzError(t, err, false)
			return
		}
		again, err := ParseJSON("fuzz.json", mustMarshal(t, ToJSONAll(txns)))
		if err != nil {
			t.Fatalf("JSON form of %q does not parse: %v", src, err)
		}
		sameTransactions(t, again, txns)
	})
}

// checkFuzzError checks that a rejection is a coded *model.Error with a position: a line and
// column, or (inside a JSON array) an index.
func checkFuzzError(t *testing.T, err error, text bool) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T, not *model.Error", err, err)
	}
	if e.Code != model.CodeParse && e.Code != model.CodeValidation {
		t.Fatalf("code %q", e.Code)
	}
	_, hasIndex := e.Context["index"]
	if (e.Line < 1 || e.Column < 1) && (text || !hasIndex) {
		t.Fatalf("no position in %+v", e)
	}
	if e.Message == "" || e.Hint == "" || len(e.Examples) == 0 {
		t.Fatalf("error without advice: %+v", e)
	}
}
