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
		"2024-04-01 BUY AAPL 0.3741 TOTAL 50.00 FEES 0.15 ACCOUNT T212-ISA ISIN US0378331005 REF T212-0001 # Apple\n",
		"2024-04-01 SELL VOD.L 1000 @ 72.15 GBX FEES 995 GBp\n2024-04-01 BUY A 150,25 @ 1,000.50\n",
		"2024-08-01 SPOUSEOUT VOD.L 500\n2024-08-01 SPOUSEIN VOD.L 500 COST 612.40 REF x\n",
		"2024-09-02 RIGHTS LLOY 200 @ 0.35 FEES 1.50\n2024-10-01 TAKEOVER OLDCO NEWCO 150 VALUE 45 USD CASH 3\n",
		"2024-10-15 DEMERGER ABC ABCX 50 COST 0.25\n2024-07-15 CAPRETURN XYZ 100 TOTAL 4000 FEES 1 VALUE 20000\n",
		"2025-01-31 ERI VWRL 120 TOTAL 14.62\n1982-03-31 POOL BP.L 1000 COST 2150.00 isin gb00bh4hks39\n",
		"2024-04-06 ACCOUNT T212-ISA ISA\n2024-01-01 ALIAS VOD.L VOD\n2024-01-01 EXEMPT TR28\n2024-01-01 NONREPORTING VTI ACCOUNT X\n",
		"2024-11-20 NEGLIGIBLE BUST.L\n2024-11-20 negligible dud value 0\n2025-01-02 NEGLIGIBLE X VALUE 12.5 USD REF n1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		txns, err := Parse("fuzz.cgt", src)
		if err != nil {
			checkFuzzError(t, err, true)
			return
		}
		text := FormatAll(txns)
		again, err := Parse("fuzz.cgt", []byte(text))
		if err != nil {
			t.Fatalf("canonical form of %q does not parse: %v", src, err)
		}
		sameTransactions(t, again, txns)
		if FormatAll(again) != text {
			t.Fatalf("canonical form of %q is not stable", src)
		}
		fromJSON, err := ParseJSON("fuzz.json", mustMarshal(t, ToJSONAll(txns)))
		if err != nil {
			t.Fatalf("JSON form of %q does not parse: %v", src, err)
		}
		sameTransactions(t, fromJSON, txns)
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
		`[{"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "0.3741", "total": "50.00", "account": "t212-isa", "isin": "US0378331005", "name": "Apple\nInc.", "broker_ref": "T-1"}]`,
		`[{"date": "2024-04-01", "action": "SELL", "ticker": "A", "quantity": "1", "price": "1", "total": "2"}]`,
		`[{"date": "2024-04-01", "action": "BUY", "ticker": "VOD.L", "quantity": "1000", "price": {"amount": "72.15", "currency": "GBp"}}]`,
		`[{"date": "2024-10-01", "action": "TAKEOVER", "ticker": "OLDCO", "new_ticker": "NEWCO", "quantity": "150", "cash": "300.00", "value": "4500.00"}]`,
		`[{"date": "2024-10-15", "action": "DEMERGER", "ticker": "ABC", "new_ticker": "ABCX", "quantity": "50", "fraction": "0.25"}]`,
		`[{"date": "2024-04-06", "action": "ACCOUNT", "ticker": "T212-ISA", "account_type": "isa"}, {"date": "2024-01-01", "action": "ALIAS", "ticker": "A", "new_ticker": "B"}]`,
		`[{"date": "1982-03-31", "action": "POOL", "ticker": "BP.L", "quantity": "1000", "cost": {"amount": "2150", "currency": "GBX"}}]`,
		`[{"date": "2024-11-20", "action": "NEGLIGIBLE", "ticker": "BUST.L"}, {"date": "2024-11-20", "action": "negligible", "ticker": "D", "value": "0"}]`,
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
		text, err := Parse("fuzz.cgt", []byte(FormatAll(txns)))
		if err != nil {
			t.Fatalf("canonical text of %q does not parse: %v\n%s", src, err, FormatAll(txns))
		}
		sameTransactions(t, text, withoutNames(txns))
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
