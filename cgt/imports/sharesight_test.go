package imports

import (
	"strings"
	"testing"
)

func TestSharesightSamples(t *testing.T) { runSamples(t, "sharesight", "sharesight") }

const (
	sharesightTradesHead = "P - All Trades Report between 2019-01-01 and 2021-11-27,,,,,,,,,,,,\n,,,,,,,,,,,,\n" +
		"Market,Code,Name,Type,Date,Quantity,Price *,Brokerage *,Currency,Exchange Rate,Value,,Comments\n"
	sharesightIncomeHead = "P - Taxable Income Report between 2017-06-14 and 2021-11-27,,,,,,,,\n,,,,,,,,\nLocal Income,,,,,,,,\n,,,,,,,,\nDividend Payments,,,,,,,,\n" +
		"Code,Name,Date Paid,Net Dividend,Tax Deducted,Tax Credit,Gross Dividend,Comments,\n"
)

func TestSharesightRowMeanings(t *testing.T) {
	checkRows(t, "sharesight", sharesightTradesHead, []rowCase{
		{"buy_in_market_currency_with_brokerage",
			"NASDAQ,FOO,FOO Inc,Buy,01/09/2020,10,250,1.5,USD,1.3,1923.08,All Trades,\n",
			[]string{"2020-09-01 BUY FOO qty=10 price=250 USD fees=1.5 USD name=FOO Inc (row 4)"}, nil},
		{"sell_quantity_is_negative_in_the_report",
			"NASDAQ,FOO,FOO Inc,Sell,01/11/2020,-25,300,5,USD,1.4,-5357.14,All Trades,\n",
			[]string{"2020-11-01 SELL FOO qty=25 price=300 USD fees=5 USD name=FOO Inc (row 4)"}, nil},
		{"fx_currency_accounts_are_not_shares",
			"FX,XBT,Bitcoin currency account,Sell,03/10/2020,-0.1,1,0,XBT,0,-3532.66,All Trades,\n",
			nil, []string{"fx_conversion"}},
		{"footnote_is_not_a_row",
			"FX,XBT,Bitcoin currency account,Sell,03/10/2020,-0.1,1,0,XBT,0,-3532.66,All Trades,\n,,,,,,,,,,,,\n* Prices and brokerage are specified in market currency.,,,,,,,,,,,,\n",
			nil, []string{"fx_conversion"}},
		{"split_is_a_warning",
			"LSE,VOD,Vodafone,Split,01/11/2020,100,0,0,GBP,1,0,All Trades,\n",
			nil, []string{"corporate_action"}},
	})
	checkRows(t, "sharesight", sharesightIncomeHead, []rowCase{
		{"local_dividend_in_sterling",
			"FUND1.UKF,Fund #1,10/11/2020,3.00,0.00,0.00,3.00,,\nTotal,,,3.00,0.00,0.00,3.00,,\n",
			[]string{"2020-11-10 DIVIDEND FUND1 total=3.00 GBP name=Fund #1 (row 7)"}, nil},
		{"foreign_dividend_keeps_its_currency_and_tax",
			",,,,,,,,\nForeign Income,,,,,,,,\nCode,Name,Date Paid,Exchange Rate,Currency,Net Amount,Foreign Tax Deducted,Gross Amount,Comments\n" +
				"FOO.NASDAQ,FOO Inc,10/10/2020,1.3342,USD,4.25,0.75,5.00,\n",
			[]string{"2020-10-10 DIVIDEND FOO total=5.00 USD tax=0.75 USD name=FOO Inc (row 10)"}, nil},
	})
}

func TestSharesightErrors(t *testing.T) {
	checkErrors(t, "sharesight", []errCase{
		{"non_number_in_quantity", sharesightTradesHead + "NASDAQ,FOO,FOO Inc,Buy,01/09/2020,ten,250,0,USD,1.3,1923.08,All Trades,\n", []string{`"Quantity"`, "ten"}},
		{"unknown_currency", sharesightTradesHead + "NASDAQ,FOO,FOO Inc,Buy,01/09/2020,10,250,0,XYZ,1.3,1923.08,All Trades,\n", []string{`"Currency"`, "XYZ"}},
		{"bad_date", sharesightIncomeHead + "FUND1.UKF,Fund #1,10.11.2020,3.00,0.00,0.00,3.00,,\n", []string{`"Date Paid"`, "10.11.2020"}},
		{"truncated_row", sharesightTradesHead + "NASDAQ,FOO,FOO Inc\n", []string{"cut short"}},
		{"semicolons_have_no_header", strings.ReplaceAll(sharesightTradesHead, ",", ";") + "x\n", []string{"no header"}},
	})
}

func FuzzSharesight(f *testing.F) {
	f.Add([]byte(sharesightTradesHead + "NASDAQ,FOO,FOO Inc,Buy,01/09/2020,10,250,1.5,USD,1.3,1923.08,All Trades,\n"))
	f.Add([]byte(sharesightIncomeHead + "FUND1.UKF,Fund #1,10/11/2020,3.00,0.00,0.00,3.00,,\nTotal,,,3.00,0.00,0.00,3.00,,\nForeign Income,,,,,,,,\n" +
		"Code,Name,Date Paid,Exchange Rate,Currency,Net Amount,Foreign Tax Deducted,Gross Amount,Comments\nFOO.NASDAQ,FOO Inc,10/10/2020,1.3342,USD,4.25,0.75,5.00,\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "sharesight", src) })
}
