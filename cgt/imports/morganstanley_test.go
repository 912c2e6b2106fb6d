package imports

import (
	"strings"
	"testing"
)

func TestMorganStanleySamples(t *testing.T) { runSamples(t, "morganstanley", "morganstanley") }

const (
	msReleasesHead    = "Vest Date,Order Number,Plan,Type,Status,Price,Quantity,Net Cash Proceeds,Net Share Proceeds,Tax Payment Method\n"
	msWithdrawalsHead = "Execution Date,Order Number,Plan,Type,Order Status,Price,Quantity,Net Amount,Net Share Proceeds,Tax Payment Method\n"
	msNetSharesHead   = "Date,Order Number,Plan,Type,Order Status,Price,Quantity,Net Share Proceeds,Net Share Proceeds,Tax Payment Method\n"
	msWireHead        = "Date,Order Number,Symbol,Type,Order Status,Price,Quantity,Net Cash Proceeds,Net Share Proceeds,Tax Payment Method\n"
)

func TestMorganStanleyRowMeanings(t *testing.T) {
	checkRows(t, "morganstanley", msReleasesHead, []rowCase{
		{"release_is_a_buy_of_the_net_shares_at_the_release_price",
			"25-Mar-2023,R123,GSU Class C,Release,Complete,$121.64,40.000,$0.00,21.201,Fractional Shares\n",
			[]string{"2023-03-25 BUY GOOG qty=21.201 price=121.64 USD name=GSU Class C ref=release 2023-03-25 (row 2)"}, nil},
		{"cancelled_release_is_skipped",
			"25-Mar-2023,R124,GSU Class C,Release,Cancelled,$121.64,40.000,$0.00,0,N/A\n",
			nil, []string{"not_completed"}},
		{"unknown_plan_keeps_its_name",
			"25-Mar-2023,R125,RSU Acme,Release,Complete,\"$1,021.64\",4,$0.00,2,N/A\n",
			[]string{"2023-03-25 BUY RSU.ACME qty=2 price=1021.64 USD name=RSU Acme ref=release 2023-03-25 (row 2)"}, nil},
	})
	checkRows(t, "morganstanley", msWithdrawalsHead, []rowCase{
		{"sale_fees_are_gross_less_net",
			"07-Feb-2023,S1,GSU Class C,Sale,Complete,$105.70,-30.00,\"$3,170.93\",0,N/A\n",
			[]string{"2023-02-07 SELL GOOG qty=30.00 price=105.70 USD fees=0.07 USD name=GSU Class C ref=S1 (row 2)"}, nil},
		{"cash_plan_is_a_withdrawal",
			"09-Feb-2023,S2,Cash,Sale,Complete,$1.00,\"-3,170.93\",\"$3,170.93\",0,N/A\n",
			nil, []string{"withdrawal"}},
	})
	checkRows(t, "morganstanley", msNetSharesHead, []rowCase{
		{"net_shares_report_release",
			"25-Mar-2021,N/A,GSU Class C,Released Shares,Completed,\"$2,045.06\",10.60,$0.00,0.000,N/A\n",
			[]string{"2021-03-25 BUY GOOG qty=10.60 price=2045.06 USD name=GSU Class C ref=release 2021-03-25 (row 2)"}, nil},
	})
	checkRows(t, "morganstanley", msWireHead, []rowCase{
		{"wire_is_a_withdrawal",
			"06-Apr-2021,W1,GSU Class C,Wire,Complete,,0.000,\"$4,219.95\",0,N/A\n",
			nil, []string{"withdrawal"}},
	})
}

func TestMorganStanleySplitNoticeWarnsOnEarlierSales(t *testing.T) {
	src := msWithdrawalsHead + "01-Apr-2021,S1,GSU Class C,Sale,Complete,\"$2,110.00\",-2,\"$4,219.95\",0,N/A\n" +
		"Please note that any Alphabet share sales on or prior to the July 15, 2022 stock split are reflected in pre-split.\n"
	imp := readString(t, "morganstanley", src)
	if imp.Report.Rows != 1 || len(imp.Warnings) != 2 || !strings.Contains(imp.Warnings[1], "row 2: this sale is written in pre-split shares (the split of 2022-07-15)") {
		t.Fatalf("rows %d, warnings %q", imp.Report.Rows, imp.Warnings)
	}
}

func TestMorganStanleyErrors(t *testing.T) {
	checkErrors(t, "morganstanley", []errCase{
		{"non_number_in_price", msReleasesHead + "25-Mar-2023,R,GSU Class C,Release,Complete,$12x,40,$0.00,21,N/A\n", []string{`"Price"`, "$12x"}},
		{"bad_date", msReleasesHead + "2023-13-45,R,GSU Class C,Release,Complete,$12,40,$0.00,21,N/A\n", []string{`"Vest Date"`, "2023-13-45"}},
		{"truncated_row", msReleasesHead + "25-Mar-2023,R,GSU Class C\n", []string{"cut short"}},
		{"semicolons", strings.ReplaceAll(msReleasesHead, ",", ";") + "x\n", []string{"semicolons"}},
		{"unknown_layout", "Vest Date,Plan,Type\n25-Mar-2023,X,Release\n", []string{`"Price"`}},
	})
}

func FuzzMorganStanley(f *testing.F) {
	f.Add([]byte(msReleasesHead + "25-Mar-2023,R123,GSU Class C,Release,Complete,$121.64,40.000,$0.00,21.201,Fractional Shares\n"))
	f.Add([]byte(msWithdrawalsHead + "07-Feb-2023,S1,GSU Class C,Sale,Complete,$105.70,-30.00,\"$3,170.93\",0,N/A\nPlease note the July 15, 2022 stock split\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "morganstanley", src) })
}
