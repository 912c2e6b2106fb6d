package imports

import (
	"strings"
	"testing"
)

func TestRevolutSamples(t *testing.T) { runSamples(t, "revolut", "revolut") }

const revolutHead = "Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency,FX Rate\n"

func TestRevolutRowMeanings(t *testing.T) {
	checkRows(t, "revolut", revolutHead, []rowCase{
		{"buy_keeps_the_cash_in_the_account_currency",
			"2023-09-22T13:30:10.514Z,O,BUY - MARKET,1.63453043,$52.07,$85.11,USD,1.0665\n",
			[]string{"2023-09-22 BUY O qty=1.63453043 total=85.11 USD (row 2)"}, nil},
		{"price_kept_when_it_reconciles",
			"2023-09-22T13:30:10Z,AAPL,BUY - LIMIT,2,$150.50,$301.00,USD,1.2\n",
			[]string{"2023-09-22 BUY AAPL qty=2 price=150.50 USD (row 2)"}, nil},
		{"sell_with_thousands_separator",
			"2023-07-14T13:30:00.797Z,MA,SELL - MARKET,5,$402.13,\"$2,010.60\",USD,1.1241\n",
			[]string{"2023-07-14 SELL MA qty=5 total=2010.60 USD (row 2)"}, nil},
		{"decimal_comma_in_euro_rows",
			"2025-09-08T07:29:03.333Z,MSFT,BUY - MARKET,\"0,76672417\",€26.09,€20,EUR,1\n",
			[]string{"2025-09-08 BUY MSFT qty=0.76672417 total=20 EUR (row 2)"}, nil},
		{"dividend_is_net_and_tax_row_folds_in",
			"2019-12-13T08:40:00Z,MSFT,DIVIDEND,,,$0.85,USD,1.1179\n2019-12-13T08:40:01Z,MSFT,DIVIDEND TAX (CORRECTION),,,-$0.15,USD,1.1179\n",
			[]string{"2019-12-13 DIVIDEND MSFT total=0.85 USD tax=0.15 USD (row 2)"}, nil},
		{"entity_transfer_is_not_a_disposal",
			"2023-08-06T09:06:58.899860Z,WBD,TRANSFER FROM REVOLUT TRADING LTD TO REVOLUT SECURITIES EUROPE UAB,0.0004562,,$0,USD,1.1018\n",
			nil, []string{"transfer"}},
		{"split_quantity_only_is_a_warning",
			"2022-08-25T08:27:46.419568Z,TSLA,STOCK SPLIT,0.16431924,,$0,USD,0.0947\n",
			nil, []string{"split"}},
		{"cash_rows_skipped",
			"2019-12-02T08:23:08.459586Z,,CASH WITHDRAWAL,,,-$30.93,USD,1.1019\n2019-11-15T23:15:55Z,,CASH TOP-UP,,,$5.22,USD,1.1055\n2021-09-01T07:40:54Z,,CUSTODY FEE,,,-$0.01,USD,1.18\n",
			nil, []string{"withdrawal", "deposit", "fee"}},
	})
}

func TestRevolutErrors(t *testing.T) {
	checkErrors(t, "revolut", []errCase{
		{"non_number_in_quantity", revolutHead + "2023-09-22T13:30:10Z,O,BUY - MARKET,one,$52.07,$85.11,USD,1\n", []string{`"Quantity"`, "one"}},
		{"unknown_currency", revolutHead + "2023-09-22T13:30:10Z,O,BUY - MARKET,1,$52.07,$85.11,XYZ,1\n", []string{`"Currency"`, "XYZ"}},
		{"bad_date", revolutHead + "31/13/2023,O,BUY - MARKET,1,$52.07,$85.11,USD,1\n", []string{`"Date"`, "31/13/2023"}}, // a month 13 or 31 either way round
		{"truncated_row", revolutHead + "2023-09-22T13:30:10Z,O\n", []string{"cut short"}},
		{"semicolons", strings.ReplaceAll(revolutHead, ",", ";") + "x\n", []string{"semicolons"}},
	})
}

func FuzzRevolut(f *testing.F) {
	f.Add([]byte(revolutHead + "2023-09-22T13:30:10.514Z,O,BUY - MARKET,1.63453043,$52.07,$85.11,USD,1.0665\n"))
	f.Add([]byte(revolutHead + "2025-09-08T07:29:03.333Z,MSFT,BUY - MARKET,\"0,76672417\",€26.09,€20,EUR,1\n"))
	f.Add([]byte(revolutHead + "22/09/2023 13:30,O,BUY - MARKET,1.63453043,$52.07,$85.11,USD,1.0665\n")) // saved by a spreadsheet
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "revolut", src) })
}

// A quantity "1,234" is 1.234 in a row whose amounts are written with decimal commas, and
// 1234 in a row whose amounts use decimal points.
func TestDecimalCommaQuantityFollowsItsRow(t *testing.T) {
	for _, c := range []struct {
		amounts []string
		want    commaStyle
	}{
		{[]string{"$100,00"}, commaDecimal}, {[]string{"0,766"}, commaDecimal}, {[]string{"1.234,56"}, commaDecimal},
		{[]string{" 1 757,95 "}, commaDecimal}, {[]string{"(12,5)"}, commaDecimal},
		{[]string{"$1,234.56"}, commaThousands}, {[]string{"$1,234"}, commaThousands}, {[]string{"100.00", ""}, commaThousands},
	} {
		if got := rowStyle(c.amounts...); got != c.want {
			t.Errorf("rowStyle(%q) = %v, want %v", c.amounts, got, c.want)
		}
	}
	src := "Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency,FX Rate\n" +
		"2024-01-02T10:00:00.000Z,AAPL,BUY - MARKET,\"1,234\",\"$150,00\",\"$185,10\",USD,\"1,27\"\n" +
		"2024-01-03T10:00:00.000Z,MSFT,BUY - MARKET,\"1,234\",$1.00,\"$1,234.00\",USD,1.27\n"
	imp, err := Read("r.csv", []byte(src), Options{Broker: "revolut"})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Transactions) != 2 || imp.Transactions[0].Quantity.Exact().String() != "1.234" || imp.Transactions[1].Quantity.Exact().String() != "1234" {
		t.Fatalf("transactions %+v", imp.Transactions)
	}
}
