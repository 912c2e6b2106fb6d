package imports

import (
	"strings"
	"testing"
)

func TestIBKRActivitySamples(t *testing.T) { runSamples(t, "ibkr-activity", "ibkr-activity") }

const ibkrActHead = "Statement,Header,Field Name,Field Value\n" +
	"Statement,Data,Title,Activity Statement\n" +
	"Account Information,Header,Field Name,Field Value\n" +
	"Account Information,Data,Account,U1\n" +
	"Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code\n"

func TestIBKRActivityRowMeanings(t *testing.T) {
	cases := []struct{ name, rows, want, skip string }{
		{"order_keeps_price_when_it_reconciles_with_proceeds",
			"Trades,Data,Order,Stocks,USD,AAPL,\"2024-06-03, 10:30:15\",10,192.5,193.1,-1925,-1,1926,0,6,O\n",
			"2024-06-03 BUY AAPL qty=10 price=192.5 USD fees=1 USD account=U1 (row 6)", ""},
		{"rounded_average_price_gives_the_total_form",
			"Trades,Data,Order,Stocks,USD,MSFT,\"2024-07-08, 15:59:58\",7,415.123,416.01,-2905.86,-1,2906.86,0,6.21,O;P\n",
			"2024-07-08 BUY MSFT qty=7 total=2905.86 USD fees=1 USD account=U1 (row 6)", ""},
		{"sell_and_its_closed_lot_is_one_trade",
			"Trades,Data,Order,Stocks,USD,AAPL,\"2024-09-16, 14:02:51\",-4,216.35,216.32,865.4,-1.0012,-770.4,93.9988,0.12,C\n" +
				"Trades,Data,ClosedLot,Stocks,USD,AAPL,2024-06-03,4,192.6,,,,770.4,93.9988,,ST\n" +
				"Trades,SubTotal,,Stocks,USD,AAPL,,-4,,,865.4,-1.0012,-770.4,93.9988,0.12,\n" +
				"Trades,Total,,Stocks,USD,,,,,,865.4,-1.0012,-770.4,93.9988,0.12,\n",
			"2024-09-16 SELL AAPL qty=4 price=216.35 USD fees=1.0012 USD account=U1 (row 6)", "closed_lot"},
		{"executions_under_an_order_are_not_trades",
			"Trades,Data,Order,Stocks,GBP,VOD,\"2024-05-02, 09:15:02\",\"5,000\",0.7012,0.7050,-3506,-3,3509,0,19,O\n" +
				"Trades,Data,Trade,Stocks,GBP,VOD,\"2024-05-02, 09:15:01\",\"3,000\",0.7012,0.7050,-2103.6,-1.8,2105.4,0,11,O;P\n" +
				"Trades,Data,Trade,Stocks,GBP,VOD,\"2024-05-02, 09:15:02\",\"2,000\",0.7012,0.7050,-1402.4,-1.2,1403.6,0,8,O;P\n",
			"2024-05-02 BUY VOD qty=5000 price=0.7012 GBP fees=3 GBP account=U1 (row 6)", "execution,execution"},
		{"executions_alone_are_trades",
			"Trades,Data,Trade,Stocks,GBP,VOD,\"2024-05-02, 09:15:01\",\"3,000\",0.7012,0.7050,-2103.6,-1.8,2105.4,0,11,O;P\n",
			"2024-05-02 BUY VOD qty=3000 price=0.7012 GBP fees=1.8 GBP account=U1 (row 6)", ""},
		{"stamp_duty_row_is_a_cost_of_its_trade",
			"Trades,Data,Order,Stocks,GBP,VOD,\"2024-05-02, 09:15:02\",\"5,000\",0.7012,0.7050,-3506,-3,3509,0,19,O\n" +
				"Transaction Fees,Header,Asset Category,Currency,Date/Time,Trade Date,Symbol,Description,Quantity,Trade Price,Amount,Code\n" +
				"Transaction Fees,Data,Stocks,GBP,\"2024-05-02, 09:15:02\",2024-05-02,VOD,UK Stamp Tax,5000,0.7012,-17.53,\n",
			"2024-05-02 BUY VOD qty=5000 price=0.7012 GBP fees=20.53 GBP account=U1 (row 6)", ""},
		{"forex_and_options_are_not_share_trades",
			"Trades,Data,Order,Forex,USD,GBP.USD,\"2024-04-15, 15:40:11\",\"-3,000\",1.2455,,3736.5,-1.6,,,0.42,\n" +
				"Trades,Data,Order,Equity and Index Options,USD,AAPL 20DEC24 200 C,\"2024-04-15, 15:40:11\",1,5.2,,-520,-1,,,0,O\n",
			"", "fx_conversion,unsupported"},
		{"withholding_folds_into_its_dividend",
			"Dividends,Header,Currency,Date,Description,Amount\n" +
				"Dividends,Data,USD,2024-08-15,AAPL(US0378331005) Cash Dividend USD 0.25 per Share (Ordinary Dividend),2.5\n" +
				"Dividends,Data,Total,,,2.5\n" +
				"Withholding Tax,Header,Currency,Date,Description,Amount,Code\n" +
				"Withholding Tax,Data,USD,2024-08-15,AAPL(US0378331005) Cash Dividend USD 0.25 per Share - US Tax,-0.38,\n",
			"2024-08-15 DIVIDEND AAPL total=2.5 USD tax=0.38 USD account=U1 isin=US0378331005 name=AAPL(US0378331005) Cash Dividend USD 0.25 per Share (Ordinary Dividend) (row 7)", ""},
		{"split_is_a_split",
			"Corporate Actions,Header,Asset Category,Currency,Report Date,Date/Time,Description,Quantity,Proceeds,Value,Realized P/L,Code\n" +
				"Corporate Actions,Data,Stocks,USD,2024-06-10,\"2024-06-07, 20:25:00\",\"NVDA(US67066G1040) Split 10 for 1 (NVDA, NVIDIA CORP, US67066G1040)\",27,0,0,0,\n",
			"2024-06-07 SPLIT NVDA ratio=10 (row 7)", ""},
		{"cash_sections_are_skipped_with_their_type",
			"Deposits & Withdrawals,Header,Currency,Settle Date,Description,Amount\n" +
				"Deposits & Withdrawals,Data,GBP,2024-04-10,Electronic Fund Transfer,10000\n" +
				"Deposits & Withdrawals,Data,GBP,2025-01-20,Disbursement,-500\n" +
				"Deposits & Withdrawals,Data,Total,,,9500\n" +
				"Interest,Header,Currency,Date,Description,Amount\n" +
				"Interest,Data,GBP,2024-06-05,GBP Credit Interest for May-2024,12.34\n" +
				"Fees,Header,Subtitle,Date,Description,Amount\n" +
				"Fees,Data,Other Fees,2024-05-03,Market data,-1.5\n",
			"", "deposit,withdrawal,interest,fee"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "ibkr-activity", ibkrActHead+c.rows)
			if got := strings.Join(lines(imp), "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if got := rowSkipTypes(imp); got != c.skip {
				t.Errorf("skipped %s, want %s", got, c.skip)
			}
		})
	}
}

func TestIBKRActivityWarnings(t *testing.T) {
	cases := []struct{ name, rows, want string }{
		{"stamp_duty_without_its_trade", "Transaction Fees,Header,Asset Category,Currency,Date/Time,Trade Date,Symbol,Description,Quantity,Trade Price,Amount,Code\n" +
			"Transaction Fees,Data,Stocks,GBP,\"2024-05-02, 09:15:02\",2024-05-02,VOD,UK Stamp Tax,5000,0.7012,-17.53,\n", "row 7: UK Stamp Tax of 17.53 GBP on VOD"},
		{"takeover", "Corporate Actions,Header,Asset Category,Currency,Report Date,Date/Time,Description,Quantity,Proceeds,Value,Realized P/L,Code\n" +
			"Corporate Actions,Data,Stocks,USD,2024-06-10,\"2024-06-07, 20:25:00\",\"ABC(US0000000002) Merged(Acquisition) FOR USD 10 PER SHARE (ABC, ABC INC, US0000000002)\",-5,50,0,0,\n", "row 7: corporate action on ABC"},
		{"unknown_section", "Grant Activity,Header,Symbol,Quantity\nGrant Activity,Data,ABC,5\n", `section "Grant Activity" is not one cgt reads`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "ibkr-activity", ibkrActHead+c.rows)
			if len(imp.Warnings) != 1 || !strings.Contains(imp.Warnings[0], c.want) {
				t.Errorf("warnings %q, want one mentioning %s", imp.Warnings, c.want)
			}
		})
	}
}

func TestIBKRActivityErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"non_number_in_number_column", ibkrActHead + "Trades,Data,Order,Stocks,USD,AAPL,\"2024-06-03, 10:30:15\",ten,192.5,193.1,-1925,-1,1926,0,6,O\n", `row 6, column "Quantity": "ten" is not a number`},
		{"unknown_currency", ibkrActHead + "Trades,Data,Order,Stocks,XYZ,AAPL,\"2024-06-03, 10:30:15\",10,192.5,193.1,-1925,-1,1926,0,6,O\n", `"XYZ" is not a currency`},
		{"bad_date", ibkrActHead + "Trades,Data,Order,Stocks,USD,AAPL,3rd June,10,192.5,193.1,-1925,-1,1926,0,6,O\n", `column "Date/Time"`},
		{"truncated_row", ibkrActHead + "Trades,Data,Order,Stocks,USD\n", "row 6 (Trades) has 3 fields"},
		{"semicolons", strings.ReplaceAll(ibkrActHead, ",", ";"), "semicolons"},
		{"row_before_its_header", ibkrActHead + "Dividends,Data,USD,2024-08-15,X,2.5\n", `section "Dividends" comes before`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("t.csv", []byte(c.src), Options{Broker: "ibkr-activity"})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.csv") {
				t.Fatalf("err = %v, want it to name the file and mention %s", err, c.want)
			}
		})
	}
}

func TestIBKRStatementsDetectedApart(t *testing.T) {
	if im := Detect([]byte(ibkrActHead)); im == nil || im.Name != "ibkr-activity" {
		t.Errorf("activity statement detected as %v", im)
	}
	if im := Detect([]byte(ibkrHistHead)); im == nil || im.Name != "ibkr-history" {
		t.Errorf("transaction history detected as %v", im)
	}
}

func FuzzIBKRActivity(f *testing.F) {
	f.Add([]byte(ibkrActHead + "Trades,Data,Order,Stocks,USD,AAPL,\"2024-06-03, 10:30:15\",10,192.5,193.1,-1925,-1,1926,0,6,O\n" +
		"Transaction Fees,Header,Asset Category,Currency,Date/Time,Trade Date,Symbol,Description,Quantity,Trade Price,Amount,Code\n" +
		"Transaction Fees,Data,Stocks,USD,\"2024-06-03, 10:30:15\",2024-06-03,AAPL,Fee,10,192.5,-0.5,\n" +
		"Dividends,Header,Currency,Date,Description,Amount\nDividends,Data,USD,2024-08-15,AAPL(US0378331005) Cash Dividend,2.5\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "ibkr-activity", src) })
}
