package imports

import (
	"strings"
	"testing"
)

func TestIISamples(t *testing.T) { runSamples(t, "ii", "ii") }

const iiHead = "\ufeffDate,Settlement Date,Symbol,Sedol,Quantity,Price,Description,Reference,Debit,Credit,Running Balance\r\n"

func TestIIRowMeanings(t *testing.T) {
	checkRows(t, "ii", iiHead, []rowCase{
		{"buy_splits_cash_into_consideration_and_costs",
			`11/06/2024,13/06/2024,BARC,3134865,2000,£2.0915,"2000 BARCLAYS PLC  Del    2.09 S Date 13/06/24",B0611001,"£4,207.91",n/a,"£1,085.51"` + "\r\n",
			[]string{"2024-06-11 BUY BARC qty=2000 total=4183.00 GBP fees=24.91 GBP name=BARCLAYS PLC ref=B0611001 (row 2)"}, nil},
		{"sale_credit_is_net_of_costs",
			`12/07/2024,16/07/2024,BARC,3134865,"1,000",£2.50,"1000 BARCLAYS PLC  Del 2.50 S Date 16/07/24",S1,n/a,"£2,488.01",n/a` + "\r\n",
			[]string{"2024-07-12 SELL BARC qty=1000 total=2500.00 GBP fees=11.99 GBP name=BARCLAYS PLC ref=S1 (row 2)"}, nil},
		{"fund_price_that_does_not_reconcile_keeps_the_cash",
			`01/05/2024,03/05/2024,n/a,B3X7QG6,12.3456,£1.2345,12.3456 VANGUARD LIFESTRATEGY Del,B2,£15.24,n/a,n/a` + "\r\n",
			[]string{"2024-05-01 BUY B3X7QG6 qty=12.3456 total=15.24 GBP name=VANGUARD LIFESTRATEGY ref=B2 (row 2)"}, nil},
		{"sedol_is_the_identity_when_the_symbol_changes",
			`02/06/2024,04/06/2024,BARC,3134865,10,£2.00,10 BARCLAYS,B3,£20.00,n/a,n/a` + "\r\n" +
				`01/06/2024,03/06/2024,BARC.L,3134865,10,£2.00,10 BARCLAYS,B4,£20.00,n/a,n/a` + "\r\n",
			[]string{"2024-06-02 BUY BARC qty=10 total=20.00 GBP name=BARCLAYS ref=B3 (row 2)", "2024-06-01 BUY BARC qty=10 total=20.00 GBP name=BARCLAYS ref=B4 (row 3)"}, nil},
		{"dividend_is_the_credit",
			"20/06/2024,20/06/2024,BARC,3134865,n/a,n/a,Div BARCLAYS PLC,DIV1,n/a,£16.00,n/a\r\n",
			[]string{"2024-06-20 DIVIDEND BARC total=16.00 GBP name=BARCLAYS PLC ref=DIV1 (row 2)"}, nil},
		{"usd_account_keeps_dollars",
			`11/06/2024,13/06/2024,AAPL,2046251,3,$190.00,3 APPLE INC Del,B5,$577.99,n/a,n/a` + "\r\n",
			[]string{"2024-06-11 BUY AAPL qty=3 total=570.00 USD fees=7.99 USD name=APPLE INC ref=B5 (row 2)"}, nil},
		{"cash_rows_skipped_with_type",
			"28/06/2024,28/06/2024,n/a,n/a,n/a,n/a,GROSS INTEREST,n/a,n/a,£0.84,n/a\r\n" +
				"03/06/2024,03/06/2024,n/a,n/a,n/a,n/a,Total Monthly Fee,n/a,£4.99,n/a,n/a\r\n" +
				"31/05/2024,31/05/2024,n/a,n/a,n/a,n/a,Debit Card Payment,n/a,n/a,\"£5,298.41\",n/a\r\n" +
				"30/05/2024,30/05/2024,n/a,n/a,n/a,n/a,1000 U.S. DOLLARS @ 1.27 S Date 01/06/24,FX1,£787.40,n/a,n/a\r\n" +
				"29/05/2024,29/05/2024,n/a,n/a,n/a,n/a,Withdrawal to bank,n/a,£10.00,n/a,n/a\r\n",
			nil, []string{"interest", "fee", "deposit", "fx_conversion", "withdrawal"}},
		{"shares_without_cash_are_a_warning",
			"01/06/2024,01/06/2024,BARC,3134865,100,n/a,Transfer in BARCLAYS,T1,n/a,n/a,n/a\r\n",
			nil, []string{"transfer"}},
	})
}

func TestIIErrors(t *testing.T) {
	checkErrors(t, "ii", []errCase{
		{"non_number_in_quantity", iiHead + "11/06/2024,13/06/2024,BARC,3134865,lots,£2.09,x,B1,£4.00,n/a,n/a\n", []string{`"Quantity"`, "lots"}},
		{"bad_money", iiHead + "11/06/2024,13/06/2024,BARC,3134865,2,£2.09,x,B1,£4.0.0,n/a,n/a\n", []string{`"Debit"`, "£4.0.0"}},
		{"bad_date", iiHead + "2024-06-11,13/06/2024,BARC,3134865,2,£2.09,x,B1,£4.00,n/a,n/a\n", []string{`"Date"`, "2024-06-11"}},
		{"truncated_row", iiHead + "11/06/2024,13/06/2024,BARC\n", []string{"cut short"}},
		{"semicolons", strings.ReplaceAll(iiHead, ",", ";") + "x\n", []string{"semicolons"}},
		{"unknown_layout", "Date,Settlement Date,Symbol,Sedol,Quantity\n1,2,3,4,5\n", []string{`"Description"`}},
	})
}

func FuzzII(f *testing.F) {
	f.Add([]byte(iiHead + `11/06/2024,13/06/2024,BARC,3134865,2000,£2.0915,"2000 BARCLAYS PLC  Del    2.09 S Date 13/06/24",B0611001,"£4,207.91",n/a,"£1,085.51"` + "\n"))
	f.Add([]byte(iiHead + "20/06/2024,20/06/2024,BARC,3134865,n/a,n/a,Div BARCLAYS PLC,DIV1,n/a,£16.00,n/a\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "ii", src) })
}
