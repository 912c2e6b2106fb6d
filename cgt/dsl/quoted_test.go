package dsl

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestQuotedLabelsReadBackExactly(t *testing.T) {
	tests := []struct {
		line         string
		ref, account string
	}{
		{`2024-01-01 BUY A 1 @ 2 REF "ab 12"`, "ab 12", ""},
		{`2024-01-01 BUY A 1 @ 2 REF "release 2021-03-25" # GSU`, "release 2021-03-25", ""},
		{`2024-01-01 BUY A 1 @ 2 REF "a#b" ACCOUNT "u***00000"`, "a#b", "U***00000"},
		{`2024-01-01 BUY A 1 @ 2 REF "say \"hi\"" ACCOUNT GIA`, `say "hi"`, "GIA"},
		{`2024-01-01 BUY A 1 @ 2 REF "a\\b"`, `a\b`, ""},
		{`2024-01-01 BUY A 1 @ 2 ACCOUNT "Stocks & Shares ISA" REF x`, "x", "STOCKS & SHARES ISA"},
		{`2024-01-01 BUY A 1 @ 2 REF "ISIN" ISIN "US0378331005"`, "ISIN", ""},
		{"2024-01-01 BUY A 1 @ 2 REF \"№7 é\"", "№7 é", ""},
	}
	for _, tt := range tests {
		txns, err := Parse("", []byte(tt.line))
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		got := txns[0]
		if got.BrokerRef != tt.ref || got.Account != tt.account {
			t.Errorf("%s: ref %q account %q, want %q %q", tt.line, got.BrokerRef, got.Account, tt.ref, tt.account)
		}
		text := Format(got)
		again, err := Parse("", []byte(text))
		if err != nil {
			t.Fatalf("%s: formatted %q does not parse: %v", tt.line, text, err)
		}
		sameTransactions(t, again, txns)
	}
}

func TestFormatQuotesOnlyWhenNeeded(t *testing.T) {
	base := model.Transaction{Date: model.NewDate(2024, 4, 1), Action: model.Buy, Ticker: "A",
		Quantity: dec("1"), Price: model.Amount{Value: dec("2"), Currency: "GBP"}}
	tests := []struct{ ref, account, want string }{
		{"T212-0001", "", " REF T212-0001\n"},
		{"ab 12", "", ` REF "ab 12"` + "\n"},
		{`"x`, "", ` REF "\"x"` + "\n"},
		{"a#b", "", ` REF "a#b"` + "\n"},
		{"x", "U***1", ` ACCOUNT "U***1" REF x` + "\n"},
		{"x", "GIA", " ACCOUNT GIA REF x\n"},
	}
	for _, tt := range tests {
		txn := base
		txn.BrokerRef, txn.Account = tt.ref, tt.account
		if got := Format(txn); !strings.HasSuffix(got, tt.want) {
			t.Errorf("Format with ref %q account %q = %q, want suffix %q", tt.ref, tt.account, got, tt.want)
		}
	}
	decl := model.Transaction{Date: model.NewDate(2024, 4, 6), Action: model.AccountDecl, Ticker: "STOCKS & SHARES ISA", Event: &model.Event{AccountType: "ISA"}}
	if got := Format(decl); got != `2024-04-06 ACCOUNT "STOCKS & SHARES ISA" ISA`+"\n" {
		t.Errorf("declaration: %q", got)
	}
	if _, ok := QuoteLabel("a\nb"); ok {
		t.Error("QuoteLabel accepted a newline")
	}
}

func TestQuotedLabelErrors(t *testing.T) {
	tests := []struct{ line, msg string }{
		{`2024-01-01 BUY A 1 @ 2 REF "ab`, "no closing double quote"},
		{`2024-01-01 BUY A 1 @ 2 REF "ab"cd`, "right after the closing quote"},
		{`2024-01-01 BUY A 1 @ 2 REF "a\nb"`, "escapes only"},
		{"2024-01-01 BUY A 1 @ 2 REF \"a\tb\"", "control character"},
		{`2024-01-01 BUY A 1 @ 2 REF ""`, "empty"},
		{`2024-01-01 BUY A 1 @ 2 ACCOUNT ""`, "empty"},
		{`2024-01-01 BUY A 1 @ 2 ISIN "US 0378331005"`, "ISIN form"},
		{`2024-01-01 BUY A 1 @ 2 REF "` + strings.Repeat("x", 65) + `"`, "longer than 64"},
	}
	for _, tt := range tests {
		_, err := Parse("", []byte(tt.line))
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want %q", tt.line, err, tt.msg)
		}
	}
}

func FuzzQuotedLabel(f *testing.F) {
	for _, s := range []string{"ab 12", `"`, `\`, "#", "ISIN", "a\x00b", "\u2028", "№", "x\r\n2024-01-01 SELL A 1 @ 1000000"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, ref, account string) {
		txn := model.Transaction{Date: model.NewDate(2024, 4, 1), Action: model.Buy, Ticker: "A",
			Quantity: dec("1"), Price: model.Amount{Value: dec("2"), Currency: "GBP"}}
		if msg, _ := CheckBrokerRef(ref); msg == "" {
			txn.BrokerRef = ref
		}
		if label, msg, _ := CheckAccountLabel(account); msg == "" {
			txn.Account = label
		}
		text := Format(txn)
		if strings.Count(text, "\n") != 1 {
			t.Fatalf("%q is not one line", text)
		}
		got, err := Parse("", []byte(text))
		if err != nil {
			t.Fatalf("%q does not parse: %v", text, err)
		}
		if len(got) != 1 || got[0].BrokerRef != txn.BrokerRef || got[0].Account != txn.Account {
			t.Fatalf("%q read back as %+v", text, got)
		}
	})
}
