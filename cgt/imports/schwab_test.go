package imports

import (
	"strings"
	"testing"
)

func TestSchwabSamples(t *testing.T) { runSamples(t, "schwab", "schwab") }

const schwabHead = `"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"` + "\n"

func TestSchwabRowMeanings(t *testing.T) {
	cases := []struct{ name, rows, want, skip string }{
		{"buy_keeps_dollars_and_price_when_cash_reconciles", `"10/09/2023","Buy","BAR","BAR CORP","1,300","$135.0075","$1.34","-$175,511.09"` + "\n",
			"2023-10-09 BUY BAR qty=1300 price=135.0075 USD fees=1.34 USD name=BAR CORP (row 2)", ""},
		{"as_of_date_is_the_trade_date", `"10/11/2023 as of 10/09/2023","Sell","BAR","BAR CORP","3","$10","$0","$30"` + "\n",
			"2023-10-09 SELL BAR qty=3 price=10 USD name=BAR CORP (row 2)", ""},
		{"withholding_folds_into_its_dividend",
			`"06/17/2024","Cash Dividend","FOO","FOO CORP","","","","$74.62"` + "\n" + `"06/17/2024","NRA Tax Adj","FOO","FOO CORP","","","","-$22.39"` + "\n",
			"2024-06-17 DIVIDEND FOO total=74.62 USD tax=22.39 USD name=FOO CORP (row 2)", ""},
		{"dividend_reinvestment_is_dividend_and_buy",
			`"06/17/2024","Reinvest Dividend","FOO","FOO CORP","","","","$10.00"` + "\n" + `"06/17/2024","Reinvest Shares","FOO","FOO CORP","0.5","$20","","-$10.00"` + "\n",
			"2024-06-17 DIVIDEND FOO total=10.00 USD name=FOO CORP (row 2)\n2024-06-17 BUY FOO qty=0.5 price=20 USD name=FOO CORP (row 3)", ""},
		{"cash_rows_skipped", `"03/01/2022","MoneyLink Transfer","","Tfr BANK","","","","$1000000.00"` + "\n" + `"02/01/2021","Credit Interest",,,,,$0,$1.2` + "\n" + "Transactions Total,,,,,,,\"$1.20\"\n",
			"", "deposit,interest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "schwab", schwabHead+c.rows)
			if got := strings.Join(lines(imp), "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			var types []string
			for _, s := range imp.Report.Skipped {
				types = append(types, s.Type)
			}
			if strings.Join(types, ",") != c.skip {
				t.Errorf("skipped %v, want %s", types, c.skip)
			}
		})
	}
}

func TestSchwabJSON(t *testing.T) {
	src := `{"FromDate":"01/01/2023","BrokerageTransactions":[{"Date":"10/09/2023","Action":"Buy","Symbol":"BAR","Description":"BAR CORP","Quantity":"300","Price":"$135.0075","Fees & Comm":"$1.34","Amount":"-$40503.61"},{"Date":"10/10/2023","Action":"Wire Sent","Symbol":null,"Description":"x","Quantity":null,"Price":null,"Fees & Comm":null,"Amount":"-$5.00"}]}`
	if im := Detect([]byte(src)); im == nil || im.Name != "schwab" {
		t.Fatalf("detected %v", im)
	}
	imp := readString(t, "", src)
	want := "2023-10-09 BUY BAR qty=300 total=40502.27 USD fees=1.34 USD name=BAR CORP (row 1)"
	if got := strings.Join(lines(imp), "\n"); got != want || imp.Report.Rows != 2 {
		t.Errorf("got %s (%d rows)", got, imp.Report.Rows)
	}
}

func FuzzSchwab(f *testing.F) {
	f.Add([]byte(schwabHead + `"10/09/2023","Buy","BAR","BAR CORP","300","$135.0075","$1.34","-$40503.61"` + "\n"))
	f.Add([]byte(`{"BrokerageTransactions":[{"Date":"10/09/2023","Action":"Buy","Quantity":3}]}`))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "schwab", src) })
}
