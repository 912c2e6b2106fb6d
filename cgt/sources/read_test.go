package sources

import (
	"context"
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

const t212Head2 = "Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total),Withholding tax,Currency (Withholding tax),Notes,ID,Currency conversion fee,Currency (Currency conversion fee)\n"

func files(m map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := m[p]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
}

func load(t *testing.T, inputs []Input, opts Options) (*Loaded, error) {
	t.Helper()
	return Load(context.Background(), inputs, opts)
}

func TestPortfolioLedgerIncludesItsExportsWithTheirAccounts(t *testing.T) {
	fsys := map[string]string{
		"me/isa.csv":  t212,
		"me/gia.csv":  t212NoRef,
		"me/hand.cgt": "2024-01-02 BUY AAPL 10 @ 150 USD\n",
	}
	portfolio := "# my setup\nINCLUDE isa.csv ACCOUNT MYISA ISA\nINCLUDE \"gia.csv\" account gia1 gia # taxable\nINCLUDE hand.cgt\n2024-01-03 BUY MSFT 1 @ 300 USD\n"
	got, err := load(t, []Input{{File: "me/p.cgt", Path: "me/p.cgt", Content: []byte(portfolio)}}, Options{ReadFile: files(fsys)})
	if err != nil {
		t.Fatal(err)
	}
	accounts := map[string]string{}
	decls := map[string]string{}
	for _, tx := range got.Transactions {
		if tx.Action == model.AccountDecl {
			decls[tx.Ticker] = tx.AccountType()
			continue
		}
		accounts[tx.Source.File] = tx.Account
	}
	if decls["MYISA"] != "ISA" || decls["GIA1"] != "GIA" {
		t.Errorf("declarations %v", decls)
	}
	if accounts["me/isa.csv"] != "MYISA" || accounts["me/gia.csv"] != "GIA1" || accounts["me/hand.cgt"] != "" || accounts["me/p.cgt"] != "" {
		t.Errorf("accounts by file %v", accounts)
	}
	if count(got.Transactions, model.Buy) != 3+3+1+1 {
		t.Errorf("%d buys; warnings %q", count(got.Transactions, model.Buy), got.Warnings)
	}
}

func TestIncludeAndAccountsErrors(t *testing.T) {
	cases := []struct {
		name, portfolio string
		accounts        []string
		want            string
	}{
		{"missing_file", "INCLUDE nope.csv ACCOUNT A ISA\n", nil, "nope.csv"},
		{"unknown_type", "INCLUDE isa.csv ACCOUNT A ISAA\n", nil, `unknown account type "ISAA"`},
		{"type_without_label", "INCLUDE isa.csv ACCOUNT\n", nil, "account label"},
		{"label_without_type", "INCLUDE isa.csv ACCOUNT A\n", nil, "needs the account's type"},
		{"no_file", "INCLUDE\n", nil, "INCLUDE names no file"},
		{"two_accounts_one_file", "INCLUDE isa.csv ACCOUNT A ISA\n", []string{"*.csv=B:GIA"}, "is given two accounts"},
		{"one_label_two_types", "INCLUDE isa.csv ACCOUNT A ISA\nINCLUDE gia.csv ACCOUNT A GIA\n", nil, "account A is given two types"},
		{"declared_otherwise", "2024-01-01 ACCOUNT A GIA\nINCLUDE isa.csv ACCOUNT A ISA\n", nil, "is GIA by an ACCOUNT line but ISA"},
		{"includes_itself", "INCLUDE p.cgt\n", nil, ""},
	}
	fsys := map[string]string{"isa.csv": t212, "gia.csv": t212NoRef}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys["p.cgt"] = tc.portfolio
			rules, err := ParseAccounts(tc.accounts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := load(t, []Input{{File: "p.cgt", Path: "p.cgt", Content: []byte(tc.portfolio)}}, Options{ReadFile: files(fsys), Accounts: rules})
			if tc.want == "" {
				if err != nil || len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "already read") {
					t.Fatalf("err %v, warnings %v", err, got)
				}
				return
			}
			var me *model.Error
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if errors.As(err, &me) && len(me.Examples) == 0 {
				t.Errorf("error without a valid example: %+v", me)
			}
		})
	}
}

func TestAccountsArgument(t *testing.T) {
	bad := []string{"isa.csv", "isa.csv=A", "=A:ISA", "isa.csv=A:ISAA", "[.csv=A:ISA", "isa.csv=:ISA"}
	for _, s := range bad {
		if _, err := ParseAccounts([]string{s}); err == nil {
			t.Errorf("%q was accepted", s)
		}
	}
	rules, err := ParseAccounts([]string{"t212-isa*.csv=myisa:isa, ibkr.xml=IBKR:GIA", "weird[1].csv=W:SIPP"})
	if err != nil || len(rules) != 3 || rules[0].Label != "MYISA" || rules[0].Type != "ISA" {
		t.Fatalf("rules %+v, %v", rules, err)
	}
	if !rules[0].matches("dir/t212-isa-2025.csv") || rules[0].matches("t212-gia.csv") || !rules[2].matches("weird[1].csv") {
		t.Error("glob matching")
	}
}

// TestAccountPairTakesTheGlobWhole checks the object form {GLOB: "LABEL:TYPE"}: a file name
// with a comma is one glob, and the pair is checked as the string form is.
func TestAccountPairTakesTheGlobWhole(t *testing.T) {
	r, err := ParseAccountPair("trades, 2024.csv", " myisa : isa ")
	if err != nil || r.Glob != "trades, 2024.csv" || r.Label != "MYISA" || r.Type != "ISA" {
		t.Fatalf("rule %+v, %v", r, err)
	}
	if !r.matches("exports/trades, 2024.csv") || r.matches("trades") {
		t.Error("glob matching")
	}
	for _, bad := range [][2]string{{"isa.csv", "A"}, {"", "A:ISA"}, {"isa.csv", "A:ISAA"}, {"[.csv", "A:ISA"}, {"isa.csv", ":ISA"}} {
		if _, err := ParseAccountPair(bad[0], bad[1]); err == nil {
			t.Errorf("%q: %q was accepted", bad[0], bad[1])
		}
	}
}

func TestAccountsWarnings(t *testing.T) {
	rules, _ := ParseAccounts([]string{"t212-*.csv=T:ISA", "empty.cgt=E:ISA"})
	got, err := load(t, []Input{
		{File: "my-isa.csv", Content: []byte(t212)},
		{File: "empty.cgt", Content: []byte("# nothing\n")},
	}, Options{Accounts: rules})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(got.Warnings, "\n")
	for _, want := range []string{
		"accounts: t212-*.csv=T:ISA matches none of the files given",
		"accounts: empty.cgt=E:ISA (from accounts) covers empty.cgt, which has no transactions",
		"my-isa.csv looks like an ISA export (its name says so), but no account covers it",
		"accounts=my-isa.csv=MYISA:ISA", "`INCLUDE my-isa.csv ACCOUNT MYISA ISA`",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

func TestUnreadRowsComeFirst(t *testing.T) {
	src := t212Head2 + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,\"GBP\n2024-05-03 SELL ACME 10 @ 1\",,,,,,EOF1,4.71,GBP\n"
	got, err := load(t, []Input{{File: "t.csv", Content: []byte(src)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Unread) != 1 || !strings.HasPrefix(got.Warnings[0], UnreadNotice) || !strings.Contains(got.Warnings[0], "t.csv row 2") {
		t.Fatalf("unread %v, warnings %q", got.Unread, got.Warnings)
	}
}

// TestAccountItemsRunTogether checks that two items written as one are refused with the
// items they were meant to be, in the string form (a missing comma) and the object form (a
// value holding the next item), rather than read as one file pattern or one label.
func TestAccountItemsRunTogether(t *testing.T) {
	meant := `did you mean the items "a.csv=A:ISA" and "b.csv=B:GIA"?`
	for _, tc := range []struct {
		name string
		pair [2]string // object form, when set
		item string    // string form
		want string
	}{
		{name: "space", item: "a.csv=A:ISA b.csv=B:GIA", want: meant},
		{name: "spaces and tabs", item: " a.csv=A:ISA \t b.csv=B:GIA ", want: meant},
		{name: "object value", pair: [2]string{"a.csv", "A:ISA,b.csv=B:GIA"}, want: meant},
		{name: "object value, space", pair: [2]string{"a.csv", "A:ISA b.csv=B:GIA"}, want: meant},
		{name: "label with a colon", item: "a.csv=A:ISA:GIA", want: "holds more than one"},
		{name: "object label with a colon", pair: [2]string{"a.csv", "A:ISA:GIA"}, want: "holds more than one"},
		{name: "no valid items", item: "a.csv=A:ISA b.csv=B:NOPE", want: "holds more than one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.pair[0] != "" {
				_, err = ParseAccountPair(tc.pair[0], tc.pair[1])
			} else {
				_, err = ParseAccounts([]string{tc.item})
			}
			var me *model.Error
			if !errors.As(err, &me) || !strings.Contains(me.Message, tc.want) || me.Code != model.CodeInvalidArgument || len(me.Examples) == 0 {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if tc.want != meant && strings.Contains(me.Message, "did you mean") {
				t.Errorf("offers items that are not valid: %s", me.Message)
			}
		})
	}
	// A file name with = alone is still a file name.
	if rules, err := ParseAccounts([]string{"x=1.csv=A:ISA"}); err != nil || len(rules) != 1 || rules[0].Glob != "x=1.csv" {
		t.Fatalf("rules %+v, %v", rules, err)
	}
}

// FuzzParseAccounts checks the accounts argument's reader on any text: an error or rules, never
// a panic, and every rule read back from its own text (GLOB=LABEL:TYPE) is the same rule, in
// the string form and the object form alike.
func FuzzParseAccounts(f *testing.F) {
	for _, s := range []string{"t212-isa*.csv=myisa:isa, ibkr.xml=IBKR:GIA", "a.csv=A:ISA b.csv=B:GIA", "x=1.csv=A:ISA", "[.csv=A:ISA", "a.csv=A:ISA:GIA", " = : , "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rules, err := ParseAccounts([]string{s})
		if err != nil {
			var me *model.Error
			if !errors.As(err, &me) || me.Message == "" || len(me.Examples) == 0 {
				t.Fatalf("%q: error without message or example: %v", s, err)
			}
			return
		}
		for _, r := range rules {
			again, err := ParseAccountPair(r.Glob, r.Label+":"+r.Type)
			if err != nil || !reflect.DeepEqual(again, r) {
				t.Fatalf("%q: rule %+v read back as %+v, %v", s, r, again, err)
			}
		}
		if eq := strings.IndexByte(s, '='); eq > 0 {
			_, _ = ParseAccountPair(s[:eq], s[eq+1:])
		}
	})
}
