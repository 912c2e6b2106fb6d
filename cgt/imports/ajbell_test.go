package imports

import (
	"strings"
	"testing"
)

func TestAJBellSamples(t *testing.T) { runSamples(t, "ajbell", "ajbell") }

const ajbellHead = "\ufeffDate,Transaction,Description,Quantity,Price,Amount (GBP),Reference\r\n"

func TestAJBellRowMeanings(t *testing.T) {
	checkRows(t, "ajbell", ajbellHead, []rowCase{
		{"purchase_cash_split_into_consideration_and_dealing_charge",
			`"10/05/2024","Purchase","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","120","32.18","-3866.60","B1001"` + "\r\n",
			[]string{"2024-05-10 BUY VMID qty=120 total=3861.60 GBP fees=5.00 GBP name=Vanguard FTSE 250 UCITS ETF Dist ref=B1001 (row 2)"}, nil},
		{"sale_is_net_of_charges",
			`"22/07/2024","Sale","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","50","33.41","1665.50","S1002"` + "\r\n",
			[]string{"2024-07-22 SELL VMID qty=50 total=1670.50 GBP fees=5.00 GBP name=Vanguard FTSE 250 UCITS ETF Dist ref=S1002 (row 2)"}, nil},
		{"accumulation_distribution_adds_to_cost",
			`"30/06/2024","Accumulation Distribution","Vanguard LifeStrategy 60% Equity Acc","14.2231","","8.37","A1"` + "\r\n",
			[]string{"2024-06-30 ACCUMULATION VANGUARD.LIFESTRATEGY.60.EQUITY qty=14.2231 total=8.37 GBP name=Vanguard LifeStrategy 60% Equity Acc ref=A1 (row 2)"}, nil},
		{"accumulation_without_units_is_the_amount_alone",
			`"30/06/2024","Accumulation Distribution","Fund Acc (LSE:FND)","","","8.37","A3"` + "\r\n",
			[]string{"2024-06-30 ACCUMULATION FND total=8.37 GBP name=Fund Acc ref=A3 (row 2)"}, nil},
		{"accumulation_from_units_and_rate",
			`"30/06/2024","Accumulation Distribution","Fund Acc (LSE:FND)","100","0.0837","","A4"` + "\r\n",
			[]string{"2024-06-30 ACCUMULATION FND qty=100 total=8.3700 GBP name=Fund Acc ref=A4 (row 2)"}, nil},
		{"accumulation_without_amount_is_a_warning",
			`"30/06/2024","Accumulation Distribution","Fund Acc (LSE:FND)","14","","0","A2"` + "\r\n",
			nil, []string{"accumulation"}},
		{"dividend_is_income",
			`"01/07/2024","Dividend","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","0","","11.20","D1001"` + "\r\n",
			[]string{"2024-07-01 DIVIDEND VMID total=11.20 GBP name=Vanguard FTSE 250 UCITS ETF Dist ref=D1001 (row 2)"}, nil},
		{"fund_price_in_pence_keeps_the_cash",
			`"10/05/2024","Purchase","Some Fund Inc (LSE:SFI)","100","150.5","-155.50","B2"` + "\r\n",
			[]string{"2024-05-10 BUY SFI qty=100 total=155.50 GBP name=Some Fund Inc ref=B2 (row 2)"}, nil},
		{"cash_rows_skipped",
			`"08/05/2024","Funds received","Bank transfer","","","4000.00","R1000"` + "\r\n" +
				`"09/05/2024","Custody charge","","","","-3.50","C1"` + "\r\n" +
				`"10/05/2024","Interest","","","","0.12","I1"` + "\r\n",
			nil, []string{"deposit", "fee", "interest"}},
		{"unknown_type_with_a_security_is_a_warning",
			`"10/05/2024","Stock transfer in","Foo plc (LSE:FOO)","10","","0","T1"` + "\r\n",
			nil, []string{"unknown"}},
	})
}

func TestAJBellErrors(t *testing.T) {
	checkErrors(t, "ajbell", []errCase{
		{"non_number_in_quantity", ajbellHead + `"10/05/2024","Purchase","X (LSE:X)","ten","1","-10","B"` + "\n", []string{`"Quantity"`, "ten"}},
		{"bad_date", ajbellHead + `"2024-05-10","Purchase","X (LSE:X)","10","1","-10","B"` + "\n", []string{`"Date"`, "2024-05-10"}},
		{"truncated_row", ajbellHead + `"10/05/2024","Purchase"` + "\n", []string{"cut short"}},
		{"semicolons", strings.ReplaceAll(ajbellHead, ",", ";") + "x\n", []string{"semicolons"}},
		{"unknown_layout_fails", "Date,Transaction,Description,Quantity,Price,Value,Reference\n\"10/05/2024\",\"Purchase\",\"X\",\"1\",\"1\",\"1\",\"B\"\n", []string{`"Amount (GBP)"`}},
	})
}

func FuzzAJBell(f *testing.F) {
	f.Add([]byte(ajbellHead + `"10/05/2024","Purchase","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","120","32.18","-3866.60","B1001"` + "\r\n"))
	f.Add([]byte(ajbellHead + `"30/06/2024","Accumulation Distribution","Fund Acc","14","","8.37","A1"` + "\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "ajbell", src) })
}
