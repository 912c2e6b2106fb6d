package engine

import (
	"strings"
	"testing"
)

func TestAliasWarnings(t *testing.T) {
	cases := []struct {
		name, ledger string
		want         []string // each a part of one warning; none when empty
	}{
		{"suffix_same_level", "2023-05-02 BUY VUSA 100 @ 70.10\n2023-09-01 BUY VUSA.L 50 @ 7250 GBX\n",
			[]string{"VUSA and VUSA.L look like one security", "prices at the same level, £70.10 and £72.50", "`2023-05-02 ALIAS VUSA VUSA.L`"}},
		{"suffix_other_level", "2024-06-03 BUY BP 10 @ 4.50\n2024-06-03 BUY BP.L 10 @ 450\n", nil},
		{"declared_alias", "2023-01-01 ALIAS VUSA VUSA.L\n2023-05-02 BUY VUSA 100 @ 70.10\n2023-09-01 BUY VUSA.L 50 @ 72.50\n", nil},
		{"shared_isin", "2023-05-02 BUY VUSA 100 @ 70.10 ISIN IE00B3XXRP09\n2023-09-01 BUY VUSA.L 50 @ 72.50 ISIN IE00B3XXRP09\n", nil},
		{"exchange_prefix", "2023-05-02 BUY LON:VUSA 100 @ 70.10\n2023-09-01 BUY VUSA 50 @ 72.50\n",
			[]string{"`2023-05-02 ALIAS LON:VUSA VUSA`"}},
		{"unrelated", "2023-05-02 BUY AAPL 10 @ 150\n2023-05-02 BUY MSFT 10 @ 300\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Calculate(parseLedger(t, tc.ledger), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range rep.Warnings {
				if strings.Contains(w, "look like one security") {
					got = append(got, w)
				}
			}
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Errorf("unexpected %q", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one warning, got %q", got)
			}
			for _, part := range tc.want {
				if !strings.Contains(got[0], part) {
					t.Errorf("%q lacks %q", got[0], part)
				}
			}
		})
	}
}

// A security an export names only in words (Hargreaves Lansdown) is compared with the other
// securities' names, the words that do not tell securities apart left out, at the same price
// level; Acc and Dist are two share classes.
func TestAliasWarningSimilarNames(t *testing.T) {
	cases := []struct {
		name   string
		a, b   string // names
		pa, pb string // prices
		want   bool
	}{
		{"hl_words_and_ticker", "Vanguard S&P 500 UCITS ETF USD Dist", "Vanguard S&P 500 UCITS ETF", "70.10", "72.50", true},
		{"plc_and_ord", "Lloyds Banking Group plc Ordinary 10p", "LLOYDS BANKING GROUP PLC ORD", "0.50", "0.52", true},
		{"acc_and_dist_apart", "Vanguard FTSE All-World UCITS ETF Acc", "Vanguard FTSE All-World UCITS ETF Dist", "100", "101", false},
		{"other_price_level", "Vanguard S&P 500 UCITS ETF USD Dist", "Vanguard S&P 500 UCITS ETF", "70.10", "7.25", false},
		{"unrelated", "Vanguard S&P 500 UCITS ETF", "iShares Core FTSE 100 UCITS ETF", "70", "70", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			txns := parseLedger(t, "2023-05-02 BUY VANGUARD.SP500 10 @ "+tc.pa+"\n2023-06-02 BUY VUSA 10 @ "+tc.pb+"\n")
			txns[0].Name, txns[1].Name = tc.a, tc.b
			rep, err := Calculate(txns, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range rep.Warnings {
				if strings.Contains(w, "look like one security") {
					got = append(got, w)
				}
			}
			if !tc.want {
				if len(got) != 0 {
					t.Errorf("unexpected %q", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], "`2023-05-02 ALIAS VANGUARD.SP500 VUSA`") || !strings.Contains(got[0], "similar names") {
				t.Fatalf("warnings %q", got)
			}
		})
	}
}

func TestAliasWarningSameName(t *testing.T) {
	txns := parseLedger(t, "2023-05-02 BUY VWRL 10 @ 90\n2023-06-02 BUY VWRP 10 @ 100\n")
	txns[0].Name, txns[1].Name = "Vanguard FTSE All-World UCITS ETF", "VANGUARD FTSE ALL WORLD UCITS ETF"
	rep, err := Calculate(txns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range rep.Warnings {
		found = found || strings.Contains(w, "VWRL and VWRP look like one security (the same name")
	}
	if !found {
		t.Errorf("warnings %q", rep.Warnings)
	}
}

// A ticker an import made from a security's name (Hargreaves Lansdown) is shown with that name.
func TestMadeUpTickersKeepTheBrokersName(t *testing.T) {
	txns := parseLedger(t, "2023-05-02 BUY VANGUARD.SP.500.UCITS.ETF 10 @ 70\n2023-06-02 BUY VUSA 10 @ 72\n2023-06-03 BUY BRK.B 1 @ 300\n")
	txns[0].Name, txns[1].Name, txns[2].Name = "Vanguard S&P 500 UCITS ETF", "Vanguard S&P 500", "Berkshire Hathaway B"
	rep, err := Calculate(txns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.SecurityNames) != 1 || rep.SecurityNames["VANGUARD.SP.500.UCITS.ETF"] != "Vanguard S&P 500 UCITS ETF" {
		t.Fatalf("names %v", rep.SecurityNames)
	}
}
