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
