package dsl

import (
	"strings"
	"testing"
)

func TestReadAllWarnsOncePerCrossFileDuplicate(t *testing.T) {
	a := "2024-04-01 BUY AAPL 100 @ 150 USD\n2024-06-20 SELL AAPL 50 @ 170.00 USD\n"
	b := "# later export\n2024-06-20 SELL aapl 50.0 @ 170 usd FEES 0\n2024-07-01 BUY AAPL 1 @ 2\n"
	txns, warnings, err := ReadAll([]Input{{"a.cgt", []byte(a)}, {"b.cgt", []byte(b)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(txns) != 4 {
		t.Errorf("got %d transactions, want all 4 kept", len(txns))
	}
	want := "2024-06-20 SELL AAPL 50.0 appears in a.cgt:2 and b.cgt:2 (overlapping exports?)"
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings = %q, want [%q]", warnings, want)
	}
}

func TestReadAllTreatsRepeatsWithinOneFileAsFills(t *testing.T) {
	a := "2024-04-01 BUY AAPL 100 @ 150\n2024-04-01 BUY AAPL 100 @ 150\n"
	_, warnings, err := ReadAll([]Input{{"a.cgt", []byte(a)}, {"b.cgt", []byte("2024-05-01 SELL AAPL 1 @ 2\n")}})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("warnings %q, err %v", warnings, err)
	}
}

func TestReadAllMixesTextAndJSON(t *testing.T) {
	a := "2024-06-20 SELL AAPL 50 @ 170 USD\n"
	b := `[{"date": "2024-06-20", "action": "SELL", "ticker": "AAPL", "quantity": "50", "price": {"amount": "170", "currency": "USD"}}]`
	txns, warnings, err := ReadAll([]Input{{"a.cgt", []byte(a)}, {"b.json", []byte(b)}})
	if err != nil || len(txns) != 2 {
		t.Fatal(txns, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "a.cgt:1 and b.json[0]") {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestReadAllDoesNotConfuseDifferentTrades(t *testing.T) {
	a := "2024-06-20 SELL AAPL 50 @ 170 USD\n"
	for _, b := range []string{
		"2024-06-20 SELL AAPL 50 @ 170 GBP\n",
		"2024-06-20 SELL AAPL 51 @ 170 USD\n",
		"2024-06-21 SELL AAPL 50 @ 170 USD\n",
		"2024-06-20 BUY AAPL 50 @ 170 USD\n",
		"2024-06-20 SELL AAPL 50 @ 170 USD FEES 1\n",
		"2024-06-20 SELL AAPL 50 @ 170 USD ACCOUNT ISA\n",
		"2024-06-20 SELL AAPL 50 @ 170 USD REF T-2\n",
		"2024-06-20 SELL AAPL 50 TOTAL 170 USD\n",
	} {
		_, warnings, err := ReadAll([]Input{{"a.cgt", []byte(a)}, {"b.cgt", []byte(b)}})
		if err != nil || len(warnings) != 0 {
			t.Errorf("%q: warnings %q, err %v", b, warnings, err)
		}
	}
}

func TestReadAllErrorNamesTheFileAndLine(t *testing.T) {
	_, _, err := ReadAll([]Input{{"a.cgt", []byte("2024-01-01 SPLIT A RATIO 2\n")}, {"b.cgt", []byte("\n2024-01-01 BUY A 1 150\n")}})
	e := asModelError(t, err)
	if e.File != "b.cgt" || e.Line != 2 || !strings.HasPrefix(err.Error(), "b.cgt:2: ") {
		t.Errorf("got %v (%+v)", err, e)
	}
}

func TestReadAllCountsTheISINAsInformation(t *testing.T) {
	a := "2024-06-20 SELL AAPL 50 @ 170 USD ACCOUNT GIA\n"
	b := "2024-06-20 SELL AAPL 50 @ 170 USD ACCOUNT gia ISIN US0378331005 # Apple Inc.\n"
	_, warnings, err := ReadAll([]Input{{"a.cgt", []byte(a)}, {"b.cgt", []byte(b)}})
	if err != nil || len(warnings) != 1 {
		t.Fatalf("warnings %q, err %v", warnings, err)
	}
}

func TestReadAllNamesDeclarationsBriefly(t *testing.T) {
	a := "2024-04-06 ACCOUNT T212-ISA ISA\n2024-01-01 ALIAS VOD.L VOD\n2024-01-01 EXEMPT TR28\n"
	_, warnings, err := ReadAll([]Input{{"a.cgt", []byte(a)}, {"b.cgt", []byte(a)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"2024-04-06 ACCOUNT T212-ISA ISA appears in a.cgt:1 and b.cgt:1 (overlapping exports?)",
		"2024-01-01 ALIAS VOD.L VOD appears in a.cgt:2 and b.cgt:2 (overlapping exports?)",
		"2024-01-01 EXEMPT TR28 appears in a.cgt:3 and b.cgt:3 (overlapping exports?)",
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings = %q", warnings)
	}
}
