package imports

import (
	"strings"
	"testing"
)

func TestVanguardSamples(t *testing.T) { runSamples(t, "vanguard", "vanguard") }

const vanguardBoth = "Bob's General investment,,,,,\r\n,,,,,\r\nCash Transactions,,,,,\r\n,,,,,\r\nDate,Details,Amount,Balance,,\r\n"

const vanguardInvHead = ",,,,,\r\nInvestment Transactions,,,,,\r\n,,,,,\r\nDate,InvestmentName,TransactionDetails,Quantity,Price,Cost\r\n"

func TestVanguardRowMeanings(t *testing.T) {
	cases := []struct{ name, src, want, skip string }{
		{"deal_dated_by_investment_table_at_the_cash_paid",
			vanguardBoth + "01/10/2022,Bought 6.7700 Emerging Markets Stock Index Fund - Accumulation,-1000,423.59,,\r\nBalance,423.59,,,,\r\n" +
				vanguardInvHead + "03/10/2022,Emerging Markets Stock Index Fund - Accumulation,Bought 6.7700 Emerging Markets Stock Index Fund - Accumulation,6.7700,147.72,1000.0644\r\nCost,1000.0644,,,,\r\n",
			"2022-10-03 BUY EMERGING.MARKETS.STOCK.INDE-1378 qty=6.7700 total=1000 GBP name=Emerging Markets Stock Index Fund - Accumulation (row 12)", ""},
		{"cash_leg_worded_differently_is_not_a_second_deal",
			vanguardBoth + "01/10/2022,Bought 6.77 EM Stock Index Acc,-1000,423.59,,\r\n" +
				vanguardInvHead + "03/10/2022,Emerging Markets Stock Index Fund - Accumulation,,6.7700,147.72,1000.0644\r\n",
			"2022-10-03 BUY EMERGING.MARKETS.STOCK.INDE-1378 qty=6.7700 total=1000 GBP name=Emerging Markets Stock Index Fund - Accumulation (row 11)", ""},
		{"accumulation_distribution_in_the_investment_table",
			vanguardInvHead + "03/10/2022,Foo Fund - Accumulation,Bought 10 Foo Fund - Accumulation,10,100,1000\r\n" +
				"31/12/2022,Foo Fund - Accumulation,Accumulation distribution,10,1.25,12.50\r\n",
			"2022-10-03 BUY FOO.FUND.ACCUMULATION qty=10 total=1000 GBP name=Foo Fund - Accumulation (row 5)\n2022-12-31 ACCUMULATION FOO.FUND.ACCUMULATION total=12.50 GBP name=Foo Fund - Accumulation (row 6)", ""},
		{"sell_with_positive_quantity_is_read_from_its_text",
			vanguardBoth + "17/07/2022,Sold 1 Bar ETF - Accumulating (BAR),104.06,536.91,,\r\n" +
				vanguardInvHead + "15/07/2022,Bar ETF \u2013 Accumulating (BAR),Sold 1 Bar ETF \u2013 Accumulating (BAR),1,104.06,104.06\r\n",
			"2022-07-15 SELL BAR qty=1 total=104.06 GBP name=Bar ETF \u2013 Accumulating (BAR) (row 11)", ""},
		{"old_rows_without_details_take_the_quantity_sign",
			vanguardInvHead + "15/07/2020,Foo ETF Distributing (FOO),,-3,10.00,-30.00\r\n",
			"2020-07-15 SELL FOO qty=3 total=30.00 GBP name=Foo ETF Distributing (FOO) (row 5)", ""},
		{"cash_report_alone_gives_deals_from_cash_legs",
			"Date,Details,Amount,Balance\r\n09/03/2022,\"Bought 1,550 Foo ETF Distributing (FOO)\",-14982.06,17.94\r\n02/10/2022,Bought .9232 U.S. Equity Index Fund - Accumulation,-400,23.59\r\n",
			"2022-03-09 BUY FOO qty=1550 total=14982.06 GBP name=Foo ETF Distributing (FOO) (row 2)\n2022-10-02 BUY U.S.EQUITY.INDEX.FUND.ACCUM-4CF4 qty=0.9232 total=400 GBP name=U.S. Equity Index Fund - Accumulation (row 3)", ""},
		{"dividend_and_its_reversal_cancel",
			"Date,Details,Amount,Balance\r\n29/07/2022,DIV: FOO.XLON.GB @ GBP 0.3106,170.83,693.83\r\n29/07/2022,Reversal of DIV: FOO.XLON.GB @ GBP 0.3106,-170.83,523\r\n29/07/2022,DIV: FOO.XLON.GB @ GBP 0.3106,170.83,693.83\r\n",
			"2022-07-29 DIVIDEND FOO total=170.83 GBP name=DIV: FOO.XLON.GB @ GBP 0.3106 (row 4)", "reversed,reversal"},
		{"etf_dealing_fee_is_a_cost_of_its_deal",
			"Date,Details,Amount,Balance\r\n09/03/2022,Bought 10 Foo ETF Distributing (FOO),-100.00,0\r\n09/03/2022,ETF dealing fee,-7.50,0\r\n",
			"2022-03-09 BUY FOO qty=10 total=100.00 GBP fees=7.50 GBP name=Foo ETF Distributing (FOO) (row 2)", ""},
		{"cash_rows_skipped_with_type",
			"Date,Details,Amount,Balance\r\n08/03/2022,Deposit for investment purchases,15000,15000\r\n01/04/2022,Cash Account Interest,0.41,18.35\r\n" +
				"07/04/2022,Account Fee for the period 08-Jan-2022 to 07-Apr-2022,-14.05,154.3\r\n23/08/2022,Payment by Faster - One-off withdrawal Faster,-270.24,423.59\r\n",
			"", "deposit,interest,fee,withdrawal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "vanguard", c.src)
			if got := strings.Join(lines(imp), "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if got := rowSkipTypes(imp); got != c.skip {
				t.Errorf("skipped %s, want %s", got, c.skip)
			}
		})
	}
}

func TestVanguardAccumulationFundWarns(t *testing.T) {
	imp := readString(t, "vanguard", "Date,Details,Amount,Balance\r\n02/10/2022,Bought .9232 U.S. Equity Index Fund - Accumulation,-400,23.59\r\n")
	found := false
	for _, w := range imp.Warnings {
		found = found || strings.Contains(w, "accumulation fund") && strings.Contains(w, "ACCUMULATION line")
	}
	if !found {
		t.Errorf("warnings %q", imp.Warnings)
	}
}

func TestVanguardErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"non_number_in_number_column", "Date,Details,Amount,Balance\r\n01/04/2022,Cash Account Interest,abc,18.35\r\n", `row 2, column "Amount": "abc" is not a number`},
		{"bad_date", "Date,Details,Amount,Balance\r\n2022-13-45,Cash Account Interest,1,18.35\r\n", `column "Date"`},
		{"truncated_row", "Date,Details,Amount,Balance\r\n01/04/2022,Cash Account Interest\r\n", "row 2 (cash table) has 2 fields"},
		{"semicolons", "Date;Details;Amount;Balance\r\n01/04/2022;Cash Account Interest;1;1\r\n", "semicolons"},
		{"row_before_header", "01/04/2022,Cash Account Interest,1,1\r\nDate,Details,Amount,Balance\r\n", "before any table header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("t.csv", []byte(c.src), Options{Broker: "vanguard"})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.csv") {
				t.Fatalf("err = %v, want it to name the file and mention %s", err, c.want)
			}
		})
	}
}

func FuzzVanguard(f *testing.F) {
	f.Add([]byte(vanguardBoth + "01/10/2022,Bought 6.7700 Emerging Markets Stock Index Fund - Accumulation,-1000,423.59,,\r\n09/04/2022,DIV: FOO.XLON.GB @ GBP 0.4106,225.83,380.13,,\r\n" +
		vanguardInvHead + "03/10/2022,Emerging Markets Stock Index Fund - Accumulation,Bought 6.7700 Emerging Markets Stock Index Fund - Accumulation,6.7700,147.72,1000.0644\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "vanguard", src) })
}
