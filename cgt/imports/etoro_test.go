package imports

import (
	"strings"
	"testing"
)

func TestEToroSamples(t *testing.T) { runSamples(t, "etoro", "etoro") }

const etoroHead = "Date,Type,Details,Amount,Units,Realized Equity Change,Realized Equity,Balance,Position ID,Asset type,NWA\n"

func TestEToroRowMeanings(t *testing.T) {
	checkRows(t, "etoro", etoroHead, []rowCase{
		{"open_position_is_a_buy_of_the_dollars_invested",
			"09/01/2024 15:37:16,Open Position,AMD/USD,49.88,0.337209,0.00,\"4,581.91\",0.00,2596572937,Stocks,0.00\n",
			[]string{"2024-01-09 BUY AMD qty=0.337209 total=49.88 USD ref=2596572937 (row 2)"}, nil},
		{"decimal_comma_units_in_a_decimal_comma_row",
			"09/01/2024 15:37:16,Open Position,AMD/USD,\" 1 757,95 \",\"1,234\",0.00,\"4,581.91\",0.00,2596572938,Stocks,0.00\n",
			[]string{"2024-01-09 BUY AMD qty=1.234 total=1757.95 USD ref=2596572938 (row 2)"}, nil},
		{"closed_position_is_a_sell_of_the_dollars_returned",
			"16/01/2024 20:08:09,Position closed,AMD/USD,61.27,0.388423,38.57,\"4,581.91\",0.80,2602058508,Stocks,0.00\n",
			[]string{"2024-01-16 SELL AMD qty=0.388423 total=61.27 USD ref=2602058508 2024-01-16 (row 2)"}, nil},
		{"sdrt_row_is_a_cost_of_its_position_purchase",
			"10/07/2025 15:15:01,SDRT,HNKE/USD,(6.97),-,(6.97),\"11,316.06 \",0.00 ,3069370143,Stocks,0.00\n" +
				"10/07/2025 15:15:00,Open Position,HNKE/USD,\"1,394.00\",100,0.00,\"11,316.06\",0.00,3069370143,Stocks,0.00\n",
			[]string{"2025-07-10 BUY HNKE qty=100 total=1394.00 USD fees=6.97 USD ref=3069370143 (row 3)"}, nil},
		{"sdrt_without_its_purchase_is_a_warning",
			"10/07/2025 15:15:01,SDRT,HNKE/USD,(6.97),-,(6.97),\"11,316.06 \",0.00 ,3069370143,Stocks,0.00\n",
			nil, []string{"stamp_duty"}},
		{"dividend_is_net",
			"02/01/2024 00:10:33,Dividend,NKE/USD,0.17,-,0.17,\"4,581.91\",99.60,2272508626,Stocks,0.00\n",
			[]string{"2024-01-02 DIVIDEND NKE total=0.17 USD ref=2272508626 2024-01-02 (row 2)"}, nil},
		{"cfd_positions_are_not_shares",
			"18/05/2020 04:09:41,Open Position,NKE/USD,\" 200,00 \",65.359477,\" 0,00 \",\" 1\u00a0757,95 \",\" 1\u00a0157,95 \",624957573,CFD,\" 0,00 \"\n" +
				"19/05/2020 00:51:22,Overnight fee,Daily,\"(0,31)\",-,\"(0,31)\",\" 1\u00a0791,84 \",\" 1\u00a0091,84 \",624957573,CFD,\" 0,00 \"\n",
			nil, []string{"cfd", "fee"}},
		{"cash_rows_skipped",
			"01/01/2024 05:50:54,Interest Payment,,0.08,-,0.08,\"4,581.91\",0.00,-,,0.00\n" +
				"03/01/2024 13:09:09,Withdraw Fee,-,0.00,-,0.00,\"4,581.91\",100.11,-,,0.00\n" +
				"03/01/2024 13:09:09,Withdraw Request,-,-100.11,-,-100.11,\"4,581.91\",0.00,-,,0.00\n" +
				"04/01/2024 13:09:09,Deposit,,500.00,-,0.00,\"4,581.91\",500.00,-,,0.00\n",
			nil, []string{"interest", "fee", "withdrawal", "deposit"}},
	})
}

func TestEToroErrors(t *testing.T) {
	checkErrors(t, "etoro", []errCase{
		{"non_number_in_amount", etoroHead + "09/01/2024 15:37:16,Open Position,AMD/USD,forty,0.3,0,0,0,1,Stocks,0\n", []string{`"Amount"`, "forty"}},
		{"bad_date", etoroHead + "2024-13-09,Open Position,AMD/USD,49.88,0.3,0,0,0,1,Stocks,0\n", []string{`"Date"`, "2024-13-09"}},
		{"truncated_row", etoroHead + "09/01/2024 15:37:16,Open Position,AMD/USD\n", []string{"cut short"}},
		{"semicolons", strings.ReplaceAll(etoroHead, ",", ";") + "x\n", []string{"semicolons"}},
	})
}

func FuzzEToro(f *testing.F) {
	f.Add([]byte(etoroHead + "09/01/2024 15:37:16,Open Position,AMD/USD,49.88,0.337209,0.00,\"4,581.91\",0.00,2596572937,Stocks,0.00\n" +
		"10/07/2025 15:15:01,SDRT,AMD/USD,(6.97),-,(6.97),\"11,316.06 \",0.00 ,2596572937,Stocks,0.00\n"))
	f.Add([]byte(etoroHead + "18/05/2020 04:09:41,Open Position,NKE/USD,\" 200,00 \",65.359477,\" 0,00 \",\" 1\u00a0757,95 \",\" 1\u00a0157,95 \",624957573,CFD,\" 0,00 \"\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "etoro", src) })
}
