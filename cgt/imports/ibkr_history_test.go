package imports

import (
	"strings"
	"testing"
)

func TestIBKRHistorySamples(t *testing.T) { runSamples(t, "ibkr-history", "ibkr-history") }

const ibkrHistHead = "Statement,Header,Field Name,Field Value\r\n" +
	"Statement,Data,Title,Transaction History\r\n" +
	"Summary,Header,Field Name,Field Value\r\n" +
	"Summary,Data,Base Currency,GBP\r\n" +
	"Transaction History,Header,Date,Account,Description,Transaction Type,Symbol,Quantity,Price,Gross Amount ,Commission,Net Amount\r\n"

func TestIBKRHistoryRowMeanings(t *testing.T) {
	cases := []struct{ name, rows, want, skip string }{
		{"buy_total_is_gross_in_base_currency_commission_a_fee",
			"Transaction History,Data,2025-03-15,U1,ISHARES NASDAQ 100 USD ACC,Buy,CNX1,4.0,1000.0,-4000.0,-3.0,-4003.0\r\n",
			"2025-03-15 BUY CNX1 qty=4.0 total=4000.0 GBP fees=3.0 GBP account=U1 name=ISHARES NASDAQ 100 USD ACC (row 6)", ""},
		{"sell_quantity_is_made_positive",
			"Transaction History,Data,2025-08-15,U1,ISHARES NASDAQ 100 USD ACC,Sell,CNX1,-2.0,1001.00,2002.0,-3.0,1999.0\r\n",
			"2025-08-15 SELL CNX1 qty=2.0 total=2002.0 GBP fees=3.0 GBP account=U1 name=ISHARES NASDAQ 100 USD ACC (row 6)", ""},
		{"thousands_separators_in_quantity_and_amount",
			"Transaction History,Data,2025-03-15,U1,VODAFONE,Buy,VOD,\"5,000\",0.7,\"-3,500.00\",-3.0,\"-3,503.00\"\r\n",
			"2025-03-15 BUY VOD qty=5000 total=3500.00 GBP fees=3.0 GBP account=U1 name=VODAFONE (row 6)", ""},
		{"withholding_folds_into_dividend_of_same_symbol_and_date",
			"Transaction History,Data,2025-11-03,U1,VT(US9220427424) Cash Dividend USD 0.50 per Share,Dividend,VT,-,-,20.0,-,20.0\r\n" +
				"Transaction History,Data,2025-11-03,U1,VT(US9220427424) Cash Dividend - US Tax,Foreign Tax Withholding,VT,-,-,-3.0,-,-3.0\r\n",
			"2025-11-03 DIVIDEND VT total=20.0 GBP tax=3.0 GBP account=U1 isin=US9220427424 name=VT(US9220427424) Cash Dividend USD 0.50 per Share (row 6)", ""},
		{"payment_in_lieu_is_a_dividend",
			"Transaction History,Data,2025-10-01,U1,IBKR(US45841N1072) Payment in Lieu of Dividend (Ordinary Dividend),Payment in Lieu,IBKR,-,-,1.0,-,1.0\r\n",
			"2025-10-01 DIVIDEND IBKR total=1.0 GBP account=U1 isin=US45841N1072 name=IBKR(US45841N1072) Payment in Lieu of Dividend (Ordinary Dividend) (row 6)", ""},
		{"cash_rows_are_skipped_with_type",
			"Transaction History,Data,2025-01-01,U1,Electronic Fund Transfer,Deposit,-,-,-,5000.0,-,5000.0\r\n" +
				"Transaction History,Data,2025-02-01,U1,GBP Credit Interest for Feb-2025,Credit Interest,-,-,-,13.0,-,13.0\r\n" +
				"Transaction History,Data,2025-10-01,U1,Net Amount in Base from Forex Trade: 0.8 GBP.USD,Forex Trade Component,GBP.USD,0.8,1.32,-2.637591265E-4,-,-2.637591265E-4\r\n" +
				"Transaction History,Data,2025-11-30,U1,FX Translations P&L,Adjustment,-,-,-,0.55,-,0.55\r\n" +
				"Transaction History,Data,2025-02-01,U1,Withholding @ 30% on Credit Interest for Feb-2025,Foreign Tax Withholding,-,-,-,-3.9,-,-3.9\r\n",
			"", "deposit,interest,fx_conversion,adjustment,withholding"},
		{"totals_are_not_rows",
			"Transaction History,Data,2025-01-01,U1,Electronic Fund Transfer,Deposit,-,-,-,5000.0,-,5000.0\r\n" +
				"Transaction History,Total,,,,,,,,5000.0,,5000.0\r\n",
			"", "deposit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "ibkr-history", ibkrHistHead+c.rows)
			if got := strings.Join(lines(imp), "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if got := rowSkipTypes(imp); got != c.skip {
				t.Errorf("skipped %s, want %s", got, c.skip)
			}
		})
	}
}

func TestIBKRHistoryUnknownTypeWarns(t *testing.T) {
	imp := readString(t, "ibkr-history", ibkrHistHead+"Transaction History,Data,2025-01-01,U1,Something new,Mystery,ABC,1,1,1,-,1\r\n")
	if len(imp.Warnings) != 1 || !strings.Contains(imp.Warnings[0], "test.csv row 6") || !strings.Contains(imp.Warnings[0], `"Mystery"`) {
		t.Errorf("warnings %q", imp.Warnings)
	}
}

func TestIBKRHistoryErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"non_number_in_number_column", ibkrHistHead + "Transaction History,Data,2025-03-15,U1,X,Buy,CNX1,four,1000.0,-4000.0,-3.0,-4003.0\r\n", `row 6, column "Quantity": "four" is not a number`},
		{"bad_date", ibkrHistHead + "Transaction History,Data,31/13/2025,U1,X,Buy,CNX1,4,1000.0,-4000.0,-3.0,-4003.0\r\n", `column "Date"`},
		{"truncated_row", ibkrHistHead + "Transaction History,Data,2025-03-15,U1,X,Buy\r\n", "row 6 (Transaction History) has 4 fields"},
		{"unknown_base_currency", strings.Replace(ibkrHistHead, "Base Currency,GBP", "Base Currency,XYZ", 1) + "Transaction History,Data,2025-03-15,U1,X,Buy,CNX1,4,1000.0,-4000.0,-3.0,-4003.0\r\n", "Base Currency"},
		{"semicolons", strings.ReplaceAll(ibkrHistHead, ",", ";"), "semicolons"},
		{"missing_column", strings.Replace(ibkrHistHead, "Transaction Type", "Kind", 1), `no "Transaction Type" column`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("t.csv", []byte(c.src), Options{Broker: "ibkr-history"})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.csv") {
				t.Fatalf("err = %v, want it to name the file and mention %s", err, c.want)
			}
		})
	}
}

func FuzzIBKRHistory(f *testing.F) {
	f.Add([]byte(ibkrHistHead + "Transaction History,Data,2025-03-15,U1,X,Buy,CNX1,4.0,1000.0,-4000.0,-3.0,-4003.0\r\n" +
		"Transaction History,Data,2025-11-03,U1,VT(US9220427424) Cash Dividend,Dividend,VT,-,-,20.0,-,20.0\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "ibkr-history", src) })
}

// rowSkipTypes lists the types of the skipped rows, in row order.
func rowSkipTypes(imp *Import) string {
	var types []string
	for _, s := range imp.Report.Skipped {
		types = append(types, s.Type)
	}
	return strings.Join(types, ",")
}
