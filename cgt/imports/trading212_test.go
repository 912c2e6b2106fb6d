package imports

import (
	"strings"
	"testing"
)

func TestTrading212Samples(t *testing.T) { runSamples(t, "trading212", "trading212") }

const t212Head = "Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total),Withholding tax,Currency (Withholding tax),Stamp duty reserve tax,Currency (Stamp duty reserve tax),Notes,ID,Currency conversion fee,Currency (Currency conversion fee)\n"

func TestTrading212RowMeanings(t *testing.T) {
	cases := []struct {
		name string
		rows string
		want []string
		skip []string // types skipped
	}{
		{"buy_total_is_sterling_paid_less_fees",
			"Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24.0000000000,124.01,USD,1.25229,,,2381.35,GBP,,,,,,EOF1,4.71,GBP\n",
			[]string{"2024-01-01 BUY FOO qty=24.0000000000 total=2376.64 GBP fees=4.71 GBP isin=US0000000002 name=Foo ref=EOF1 (row 2)"}, nil},
		{"sell_total_adds_back_fees",
			"Limit sell,2024-04-29 13:20:03,US0000000002,FOO,Foo,0.5,164.01,USD,1.25,,,100.00,GBP,,,,,,EOF2,0.15,GBP\n",
			[]string{"2024-04-29 SELL FOO qty=0.5 total=100.15 GBP fees=0.15 GBP isin=US0000000002 name=Foo ref=EOF2 (row 2)"}, nil},
		{"uk_buy_with_stamp_duty_in_pence_price",
			"Market buy,2024-02-01 09:00:00,GB0000000009,VOD,Vodafone,100,71.5,GBX,100,,,72.21,GBP,,,0.36,GBP,,EOF3,,\n",
			[]string{"2024-02-01 BUY VOD qty=100 total=71.85 GBP fees=0.36 GBP isin=GB0000000009 name=Vodafone ref=EOF3 (row 2)"}, nil},
		{"dividend_with_foreign_withholding_kept_in_instrument_currency",
			"Dividend (Ordinary),2024-03-23 18:35:26,US0000000002,FOO,Foo,24,0.25,USD,Not available,,,4.05,GBP,0.90,USD,,,,,,\n",
			[]string{"2024-03-23 DIVIDEND FOO total=6.00 USD tax=0.90 USD isin=US0000000002 name=Foo (row 2)"}, nil},
		{"split_pair_is_one_split",
			"Stock split close,2024-06-10 05:00:00,US0000000003,NVDA,Nvidia,2,1000,USD,,,,2000,GBP,,,,,,,,\n" +
				"Stock split open,2024-06-10 05:00:00,US0000000003,NVDA,Nvidia,20,100,USD,,,,2000,GBP,,,,,,,,\n",
			[]string{"2024-06-10 SPLIT NVDA ratio=10 (row 3)"}, nil},
		{"split_pair_open_row_first",
			"Stock split open,2024-06-10 05:00:00,US0000000003,NVDA,Nvidia,20,100,USD,,,,2000,GBP,,,,,,,,\n" +
				"Stock split close,2024-06-10 05:00:00,US0000000003,NVDA,Nvidia,2,1000,USD,,,,2000,GBP,,,,,,,,\n",
			[]string{"2024-06-10 SPLIT NVDA ratio=10 (row 3)"}, nil},
		{"split_close_without_open_is_a_warning",
			"Stock split close,2024-06-10 05:00:00,US0000000003,NVDA,Nvidia,2,1000,USD,,,,2000,GBP,,,,,,,,\n",
			nil, []string{"split"}},
		{"cash_rows_are_skipped_with_type",
			"Deposit,2024-01-01 00:15:20,,,,,,,,,,3000.00,GBP,,,,,,x1,,\n" +
				"Withdrawal,2024-01-02 00:15:20,,,,,,,,,,-20.00,GBP,,,,,,x2,,\n" +
				"Interest on cash,2024-01-03 00:15:20,,,,,,,,,,0.04,GBP,,,,,,x3,,\n" +
				"Currency conversion,2024-01-04 00:15:20,,,,,,,,,,10,GBP,,,,,,x4,,\n",
			nil, []string{"deposit", "withdrawal", "interest", "fx_conversion"}},
		{"free_share_deposit_then_buy_at_market_value",
			"Deposit,2024-01-01 00:15:20,,,,,,,,,,12.00,GBP,,,,,Free Shares Promotion,x1,,\n" +
				"Market buy,2024-01-01 00:15:21,US0378331005,BAR,Bar,0.1,150,USD,1.25,,,12.00,GBP,,,,,,x2,,\n",
			[]string{"2024-01-01 BUY BAR qty=0.1 total=12.00 GBP isin=US0378331005 name=Bar ref=x2 (row 3)"}, []string{"deposit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "trading212", t212Head+c.rows)
			got := lines(imp)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			var types []string
			for _, s := range imp.Report.Skipped {
				types = append(types, s.Type)
			}
			if strings.Join(types, ",") != strings.Join(c.skip, ",") {
				t.Errorf("skipped %v, want %v", types, c.skip)
			}
		})
	}
}

func TestTrading212Errors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"non_number_in_number_column", t212Head + "Market buy,2024-01-01 16:10:05,US1,FOO,Foo,abc,1,USD,1,,,2,GBP,,,,,,X,,\n", `"No. of shares"`},
		{"bad_date", t212Head + "Market buy,32/01/2024,US1,FOO,Foo,1,1,USD,1,,,2,GBP,,,,,,X,,\n", `"Time"`},
		{"unknown_currency", t212Head + "Market buy,2024-01-01 16:10:05,US1,FOO,Foo,1,1,XYZ,1,,,2,GBP,,,,,,X,,\n", `"XYZ" is not a currency`},
		{"truncated_row", t212Head + "Market buy,2024-01-01 16:10:05\n", "cut short"},
		{"semicolons", strings.ReplaceAll(t212Head, ",", ";") + "x\n", "semicolons"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("t.csv", []byte(c.src), Options{Broker: "trading212"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %s", err, c.want)
			}
		})
	}
}

func FuzzTrading212(f *testing.F) {
	f.Add([]byte(t212Head + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,GBP,,,,,,EOF1,4.71,GBP\n"))
	f.Add([]byte("\ufeffAction,Time,ISIN,Ticker,Name,Total (GBP)\r\nDeposit,2020-01-01,,,,5\r\n"))
	f.Add([]byte(t212Head + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,\"Foo\n2024-01-02 SELL FOO 1 @ 1\",24,124.01,USD,1.25229,,,2381.35,GBP,,,,,,\"EOF1\r\n2024-05-03 SELL FOO 10 @ 1000000\",4.71,GBP\n"))
	f.Add([]byte(t212Head + "Market buy,03/04/2024 16:10,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,GBP,,,,,,EOF1,4.71,GBP\n" +
		"Market sell,4/15/2024 4:10:05 PM,US0000000002,FOO,Foo,2,130,USD,1.25,,,260,GBP,,,,,,EOF2,0.5,GBP\n")) // saved by a spreadsheet
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "trading212", src) })
}
