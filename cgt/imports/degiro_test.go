package imports

import (
	"strings"
	"testing"
)

func TestDegiroSamples(t *testing.T) { runSamples(t, "degiro", "degiro") }

const (
	dgStatementHead    = "Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,Order Id\n"
	dgStatementHeadEN  = "Date,Time,Value date,Product,ISIN,Description,FX,Change,,Balance,,Order Id\n"
	dgTransactionsHead = "Date,Time,Product,ISIN,Reference exchange,Venue,Quantity,Price,,Local value,,Value EUR,Exchange rate,AutoFX Fee,Transaction and/or third party fees EUR,Total EUR,Order ID,\n"
	dgTransactionsOld  = "Date,Time,Product,ISIN,Reference,Venue,Quantity,Price,,Local value,,Value,,Exchange rate,Transaction and/or third,,Total,,Order ID\n"
)

func TestDegiroStatementRowMeanings(t *testing.T) {
	checkRows(t, "degiro", dgStatementHead, []rowCase{
		{"order_rows_are_one_buy_with_its_fee_and_currency_legs",
			"15-12-2022,16:55,15-12-2022,VICI PROPERTIES INC. C,US9256521090,Valuta Creditering,\"1,0624\",USD,\"33,90\",USD,\"0,00\",5925d76b-eb36-46e3-\n" +
				",,,,,,,,,,,b017-a61a6d03c3e7\n" +
				"15-12-2022,16:55,15-12-2022,VICI PROPERTIES INC. C,US9256521090,Valuta Debitering,,EUR,\"-31,91\",EUR,\"0,07\",5925d76b-eb36-46e3-b017-a61a6d03c3e7\n" +
				"15-12-2022,16:55,15-12-2022,VICI PROPERTIES INC. C,US9256521090,DEGIRO Transactiekosten en/of kosten van derden,,EUR,\"-1,00\",EUR,\"31,98\",5925d76b-eb36-46e3-b017-a61a6d03c3e7\n" +
				"15-12-2022,16:55,15-12-2022,VICI PROPERTIES INC. C,US9256521090,\"Koop 1 @ 33,9 USD\",,USD,\"-33,90\",USD,\"-33,90\",5925d76b-eb36-46e3-b017-a61a6d03c3e7\n",
			[]string{"2022-12-15 BUY US9256521090 qty=1 price=33.9 USD fees=1.00 EUR isin=US9256521090 name=VICI PROPERTIES INC. C ref=5925d76b-eb36-46e3-b017-a61a6d03c3e7 (row 6)"}, nil},
		{"partial_fills_of_one_order_are_one_trade",
			"10-08-2021,16:18,10-08-2021,FOO,US0000000002,\"Koop 2 @ 10 USD\",,USD,\"-20,00\",USD,\"0\",ord1\n" +
				"10-08-2021,16:18,10-08-2021,FOO,US0000000002,\"Koop 3 @ 10,5 USD\",,USD,\"-31,50\",USD,\"0\",ord1\n" +
				"10-08-2021,16:18,10-08-2021,FOO,US0000000002,DEGIRO Transactiekosten en/of kosten van derden,,EUR,\"-0,50\",EUR,\"0\",ord1\n",
			[]string{"2021-08-10 BUY US0000000002 qty=5 total=51.50 USD fees=0.50 EUR isin=US0000000002 name=FOO ref=ord1 (row 2)"}, nil},
		{"sterling_account_uses_the_sterling_leg",
			"10-08-2021,16:18,10-08-2021,FOO,US0000000002,\"Verkoop 1 @ 63,97 USD\",,USD,\"63,97\",USD,\"63,97\",ord2\n" +
				"10-08-2021,16:18,10-08-2021,FOO,US0000000002,Valuta Debitering,\"1,38\",USD,\"-63,97\",USD,\"0\",ord2\n" +
				"10-08-2021,16:18,10-08-2021,FOO,US0000000002,Valuta Creditering,,GBP,\"46,36\",GBP,\"46,36\",ord2\n",
			[]string{"2021-08-10 SELL US0000000002 qty=1 total=46.36 GBP isin=US0000000002 name=FOO ref=ord2 (row 2)"}, nil},
		{"pence_price_on_london_sale",
			"02-04-2024,09:00,02-04-2024,AVIVA,GB00BPQY8M80,Sell 4 AVIVA@496 GBX (GB00BPQY8M80),,GBP,19.84,GBP,114.31,ord3\n",
			[]string{"2024-04-02 SELL GB00BPQY8M80 qty=4 total=19.84 GBP isin=GB00BPQY8M80 name=AVIVA ref=ord3 (row 2)"}, nil},
		{"dividend_tax_folds_into_dividend",
			"16-12-2022,09:05,15-12-2022,COCA-COLA COMPANY (THE,US1912161007,Dividend,,USD,\"0,44\",USD,\"1,36\",\n" +
				"16-12-2022,09:05,15-12-2022,COCA-COLA COMPANY (THE,US1912161007,Dividendbelasting,,USD,\"-0,07\",USD,\"0,92\",\n",
			[]string{"2022-12-16 DIVIDEND US1912161007 total=0.44 USD tax=0.07 USD isin=US1912161007 name=COCA-COLA COMPANY (THE (row 2)"}, nil},
		{"product_change_pair_is_not_a_trade",
			"23-02-2023,04:21,23-02-2023,FBR LTD,AU000000FBR4,\"PRODUCTWIJZIGING : Koop 500 @ 0,039 EUR\",,EUR,0,EUR,18.3,\n" +
				"23-02-2023,02:30,23-02-2023,FBR LTD.,AU000000FBR4,\"PRODUCTWIJZIGING : Verkoop 500 @ 0,039 EUR\",,EUR,0,EUR,18.3,\n",
			nil, []string{"corporate_action", "corporate_action"}},
		{"cash_rows_skipped_with_type",
			"17-12-2022,09:51,16-12-2022,,,iDEAL Deposit,,EUR,\"27,80\",EUR,\"1,35\",\n" +
				"19-12-2022,18:33,19-12-2022,FLATEX EURO BANKACCOUNT,NLFLATEXACNT,Degiro Cash Sweep Transfer,,EUR,\"26,45\",EUR,\"27,80\",\n" +
				"17-12-2022,08:37,16-12-2022,,,Valuta Creditering,,EUR,\"1,28\",EUR,\"1,35\",\n" +
				"05-02-2024,07:16,31-01-2024,,,DEGIRO Aansluitingskosten 2024 (Nasdaq - NDQ),,EUR,-2.50,EUR,-6.28,\n" +
				"26-08-2022,13:30,26-08-2022,,,flatex terugstorting,,EUR,\"-15,10\",EUR,\"-14,74\",\n",
			nil, []string{"deposit", "transfer", "fx_conversion", "fee", "withdrawal"}},
	})
	checkRows(t, "degiro", dgStatementHeadEN, []rowCase{
		{"english_statement",
			"11-03-2024,10:39,11-03-2024,QT GROUP OYJ,FI4000198031,DEGIRO Transaction and/or third party fees,,EUR,-4.90,EUR,33.53,o4\n" +
				"11-03-2024,10:39,11-03-2024,QT GROUP OYJ,FI4000198031,\"Buy 6 QT GROUP OYJ@79,96 EUR (FI4000198031)\",,EUR,-479.76,EUR,38.43,o4\n",
			[]string{"2024-03-11 BUY FI4000198031 qty=6 price=79.96 EUR fees=4.90 EUR isin=FI4000198031 name=QT GROUP OYJ ref=o4 (row 3)"}, nil},
	})
}

func TestDegiroTransactionsRowMeanings(t *testing.T) {
	checkRows(t, "degiro", dgTransactionsHead, []rowCase{
		{"autofx_and_transaction_fees_are_costs",
			"03-04-2023,15:04,APPLE INC,US0378331005,NDQ,XNAS,2,\"160,0000\",USD,\"-320,00\",USD,\"-294,12\",\"1,0880\",\"-0,74\",\"-1,00\",\"-295,86\",,a1b2\n",
			[]string{"2023-04-03 BUY US0378331005 qty=2 price=160.0000 USD fees=1.74 EUR isin=US0378331005 name=APPLE INC ref=a1b2 (row 2)"}, nil},
		{"partial_fills_share_an_order_id",
			"03-04-2023,15:04,APPLE INC,US0378331005,NDQ,XNAS,-1,\"160,00\",USD,\"160,00\",USD,\"147,06\",\"1,0880\",\"-0,37\",\"-1,00\",\"145,69\",,s1\n" +
				"03-04-2023,15:05,APPLE INC,US0378331005,NDQ,XNAS,-2,\"160,50\",USD,\"321,00\",USD,\"295,04\",\"1,0880\",\"-0,74\",\"0,00\",\"294,30\",,s1\n",
			[]string{"2023-04-03 SELL US0378331005 qty=3 total=481.00 USD fees=2.11 EUR isin=US0378331005 name=APPLE INC ref=s1 (row 2)"}, nil},
	})
	checkRows(t, "degiro", strings.Replace(dgTransactionsHead, "Value EUR", "Value GBP", 1), []rowCase{
		{"gbp_value_is_the_consideration",
			"03-04-2023,15:04,APPLE INC,US0378331005,NDQ,XNAS,2,\"160,00\",USD,\"-320,00\",USD,\"-258,06\",\"1,24\",\"-0,65\",\"-1,00\",\"-259,71\",,g1\n",
			[]string{"2023-04-03 BUY US0378331005 qty=2 total=258.06 GBP fees=1.65 GBP isin=US0378331005 name=APPLE INC ref=g1 (row 2)"}, nil},
	})
	checkRows(t, "degiro", dgTransactionsOld, []rowCase{
		{"older_layout_with_currency_columns",
			"03-04-2019,15:04,VANGUARD FTSE AW,IE00B3RBWM25,EAM,XAMS,1,\"79,35\",EUR,\"-79,35\",EUR,\"-79,35\",EUR,,\"-2,00\",EUR,\"-81,35\",EUR,ord9\n",
			[]string{"2019-04-03 BUY IE00B3RBWM25 qty=1 price=79.35 EUR fees=2.00 EUR isin=IE00B3RBWM25 name=VANGUARD FTSE AW ref=ord9 (row 2)"}, nil},
	})
}

func TestDegiroErrors(t *testing.T) {
	checkErrors(t, "degiro", []errCase{
		{"non_number_in_change", dgStatementHead + "16-12-2022,09:05,15-12-2022,X,US1,Dividend,,USD,\"0,4,4\",USD,\"1\",\n", []string{"0,4,4"}},
		{"unknown_currency", dgStatementHead + "16-12-2022,09:05,15-12-2022,X,US1,Dividend,,XYZ,\"0,44\",USD,\"1\",\n", []string{`"Mutatie"`, "XYZ"}},
		{"bad_date", dgStatementHead + "2022/12/16,09:05,15-12-2022,X,US1,Dividend,,USD,\"0,44\",USD,\"1\",\n", []string{`"Datum"`, "2022/12/16"}},
		{"truncated_row", dgStatementHead + "16-12-2022,09:05\n", []string{"cut short"}},
		{"non_number_in_quantity", dgTransactionsHead + "03-04-2023,15:04,APPLE INC,US0378331005,NDQ,XNAS,two,\"160,00\",USD,\"-320,00\",USD,\"-294,12\",\"1,0880\",\"-0,74\",\"-1,00\",\"-295,86\",,a1b2\n", []string{`"Quantity"`, "two"}},
		{"semicolons", strings.ReplaceAll(dgStatementHead, ",", ";") + "x\n", []string{"semicolons"}},
	})
}

func FuzzDegiro(f *testing.F) {
	f.Add([]byte(dgStatementHead + "15-12-2022,16:55,15-12-2022,VICI,US9256521090,Valuta Creditering,\"1,0624\",USD,\"33,90\",USD,\"0,00\",5925d76b-\n,,,,,,,,,,,b017\n" +
		"15-12-2022,16:55,15-12-2022,VICI,US9256521090,\"Koop 1 @ 33,9 USD\",,USD,\"-33,90\",USD,\"-33,90\",5925d76b-b017\n"))
	f.Add([]byte(dgTransactionsHead + "03-04-2023,15:04,APPLE INC,US0378331005,NDQ,XNAS,2,\"160,0000\",USD,\"-320,00\",USD,\"-294,12\",\"1,0880\",\"-0,74\",\"-1,00\",\"-295,86\",,a1b2\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "degiro", src) })
}
