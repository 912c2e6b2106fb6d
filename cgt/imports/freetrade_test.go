package imports

import (
	"strings"
	"testing"
)

func TestFreetradeSamples(t *testing.T) { runSamples(t, "freetrade", "freetrade") }

const freetradeHead = "Title,Type,Timestamp,Account Currency,Total Amount,Buy / Sell,Ticker,ISIN,Price per Share in Account Currency,Stamp Duty,Quantity,Venue,Order ID,Order Type,Instrument Currency,Total Shares Amount,Price per Share,FX Rate,Base FX Rate,FX Fee (BPS),FX Fee Amount,Dividend Ex Date,Dividend Pay Date,Dividend Eligible Quantity,Dividend Amount Per Share,Dividend Gross Distribution Amount,Dividend Net Distribution Amount,Dividend Withheld Tax Percentage,Dividend Withheld Tax Amount\n"

func TestFreetradeRowMeanings(t *testing.T) {
	cases := []struct{ name, row, want string }{
		{"buy_sterling_paid_less_fx_fee",
			"Tesla,ORDER,2022-02-01T15:14:23.014Z,GBP,5.59,BUY,TSLA,US88160R1014,678.77,0.00,0.00819126,Drivewealth,AMN7,MARKET,USD,7.50,915.61,1.344,1.350,45,0.03,,,,,,,,\n",
			"2022-02-01 BUY TSLA qty=0.00819126 total=5.56 GBP fees=0.03 GBP isin=US88160R1014 name=Tesla ref=AMN7 (row 2)"},
		{"uk_buy_with_stamp_duty",
			"Lloyds,ORDER,2022-02-01T15:14:23.014Z,GBP,100.50,BUY,LLOY,GB0008706128,0.50,0.50,200,LSE,X1,MARKET,GBP,100.00,0.50,,,,,,,,,,,,\n",
			"2022-02-01 BUY LLOY qty=200 total=100.00 GBP fees=0.50 GBP isin=GB0008706128 name=Lloyds ref=X1 (row 2)"},
		{"free_share_at_market_value",
			"ThredUp,FREESHARE_ORDER,2021-12-13T16:16:49.475Z,GBP,11.04,BUY,TDUP,US88556E1029,11.03,0.00,1.00000000,NYSE,O52K,,USD,4554.89,14.60,1.32,1.32,45,0.00,,,,,,,,\n",
			"2021-12-13 BUY TDUP qty=1.00000000 total=11.04 GBP isin=US88556E1029 name=ThredUp ref=O52K (row 2)"},
		{"dividend_gross_and_withholding_in_instrument_currency",
			"Nasdaq,DIVIDEND,2023-12-22T17:11:00.000Z,GBP,0.93,,NDAQ,US6311031081,,,6.36545916,,,,USD,,,,0.78491703,0,0.00,2023-12-07,2023-12-22,6.36545916,0.22000000,1.40,1.19,15,0.21\n",
			"2023-12-22 DIVIDEND NDAQ total=1.40 USD tax=0.21 USD isin=US6311031081 name=Nasdaq (row 2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(lines(readString(t, "freetrade", freetradeHead+c.row)), "\n")
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func FuzzFreetrade(f *testing.F) {
	f.Add([]byte(freetradeHead + "Tesla,ORDER,2022-02-01T15:14:23.014Z,GBP,5.59,BUY,TSLA,US88160R1014,678.77,0.00,0.00819126,Drivewealth,AMN7,MARKET,USD,7.50,915.61,1.344,1.350,45,0.03,,,,,,,,\n"))
	f.Add([]byte(freetradeHead + "Tesla,ORDER,01/02/2022 15:14,GBP,5.59,BUY,TSLA,US88160R1014,678.77,0.00,0.00819126,Drivewealth,AMN7,MARKET,USD,7.50,915.61,1.344,1.350,45,0.03,,,,,,,,\n")) // saved by a spreadsheet
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "freetrade", src) })
}
