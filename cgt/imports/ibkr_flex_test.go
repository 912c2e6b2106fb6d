package imports

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestIBKRFlexSamples(t *testing.T) { runSamples(t, "ibkr-flex", "ibkr-flex") }

const flexXML = `<?xml version="1.0"?>
<FlexQueryResponse queryName="q" type="AF"><FlexStatements count="1"><FlexStatement accountId="U1" fromDate="20240101" toDate="20241231">
<Trades>
<Trade accountId="U1" assetCategory="STK" symbol="VOD" isin="GB00BH4HKS39" description="VODAFONE" currency="GBP" tradeDate="20240105" dateTime="20240105;101500" buySell="BUY" quantity="1000" tradePrice="0.70" ibCommission="-3" ibCommissionCurrency="GBP" taxes="3.50" tradeID="T1" levelOfDetail="EXECUTION"/>
<Order accountId="U1" symbol="VOD" levelOfDetail="ORDER"/>
<Trade accountId="U1" assetCategory="STK" symbol="AAPL" isin="US0378331005" description="APPLE" currency="USD" tradeDate="20240110" buySell="SELL" quantity="-5" tradePrice="180.5" ibCommission="-1.00" ibCommissionCurrency="USD" taxes="0" tradeID="T2"/>
<Trade accountId="U1" assetCategory="CASH" symbol="GBP.USD" currency="USD" tradeDate="20240110" buySell="BUY" quantity="100" tradePrice="1.27" tradeID="T3"/>
</Trades>
<CashTransactions>
<CashTransaction symbol="AAPL" isin="US0378331005" currency="USD" dateTime="20240215;202000" amount="12.00" type="Dividends" description="AAPL CASH DIVIDEND" transactionID="C1"/>
<CashTransaction symbol="AAPL" isin="US0378331005" currency="USD" dateTime="20240215;202000" amount="-1.80" type="Withholding Tax" description="AAPL US TAX" transactionID="C2"/>
</CashTransactions>
<CorporateActions><CorporateAction symbol="NVDA" type="FS" dateTime="20240610" description="NVDA(US67066G1040) SPLIT 10 FOR 1 (NVDA, NVIDIA CORP, US67066G1040)" quantity="90"/></CorporateActions>
</FlexStatement></FlexStatements></FlexQueryResponse>`

func TestIBKRFlexRowMeanings(t *testing.T) {
	imp := readString(t, "", flexXML)
	want := []string{
		"2024-01-05 BUY VOD qty=1000 price=0.70 GBP fees=6.50 GBP account=U1 isin=GB00BH4HKS39 name=VODAFONE ref=T1 (row 4)",
		"2024-01-10 SELL AAPL qty=5 price=180.5 USD fees=1.00 USD account=U1 isin=US0378331005 name=APPLE ref=T2 (row 6)",
		"2024-02-15 DIVIDEND AAPL total=12.00 USD tax=1.80 USD isin=US0378331005 name=AAPL CASH DIVIDEND ref=C1 (row 10)",
		"2024-06-10 SPLIT NVDA ratio=10 (row 13)",
	}
	if got := strings.Join(lines(imp), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if imp.Report.Rows != 6 || imp.Report.Account != "U1" {
		t.Errorf("report %+v", imp.Report)
	}
}

func TestIBKRFlexCSV(t *testing.T) {
	src := `"ClientAccountID","AssetClass","Symbol","ISIN","Buy/Sell","TradeDate","Quantity","TradePrice","CurrencyPrimary","IBCommission","IBCommissionCurrency","TradeID"` + "\r\n" +
		`"U1","STK","AAPL","US0378331005","BUY","20240105","3","100.25","USD","-1","USD","T9"` + "\r\n"
	if im := Detect([]byte(src)); im == nil || im.Name != "ibkr-flex" {
		t.Fatalf("detected %v", im)
	}
	got := lines(readString(t, "", src))
	want := "2024-01-05 BUY AAPL qty=3 price=100.25 USD fees=1 USD account=U1 isin=US0378331005 ref=T9 (row 2)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %v", got)
	}
}

func FuzzIBKRFlex(f *testing.F) {
	f.Add([]byte(flexXML))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "ibkr-flex", src) })
}

// A Flex Query of cash transactions alone, as CSV, with or without the account column, and
// with the header and trailer records and line descriptors a query can be set to write.
func TestIBKRFlexCashTransactionsAloneAsCSV(t *testing.T) {
	plain := `"CurrencyPrimary","FXRateToBase","AssetClass","Symbol","Description","ISIN","Date/Time","SettleDate","Amount","Type","TransactionID"
"USD","0.79","STK","AAPL","AAPL(US0378331005) CASH DIVIDEND USD 0.25 PER SHARE (Ordinary Dividend)","US0378331005","20240516;202000","20240516","25","Dividends","123"
"USD","0.79","STK","AAPL","AAPL(US0378331005) CASH DIVIDEND USD 0.25 PER SHARE - US TAX","US0378331005","20240516;202000","20240516","-3.75","Withholding Tax","124"
"GBP","1","","","CASH RECEIPTS / ELECTRONIC FUND TRANSFERS","","20240401","20240401","1000","Deposits/Withdrawals","125"
`
	wrapped := `"BOF","U1234567","Cash","1","20240101","20241231","20250101;101010","3"
"BOA","U1234567"
"BOS","CTRN","Cash Transactions; trade date basis"
` + strings.Join(func() []string {
		lines := strings.Split(strings.TrimSpace(plain), "\n")
		for i, l := range lines {
			kind := `"DATA"`
			if i == 0 {
				kind = `"HEADER"`
			}
			lines[i] = kind + `,"CTRN",` + l
		}
		return lines
	}(), "\n") + `
"EOS","CTRN","3"
"EOA","U1234567"
"EOF","1"
`
	for name, src := range map[string]string{"plain": plain, "wrapped": wrapped} {
		if im := Detect([]byte(src)); im != IBKRFlex {
			t.Fatalf("%s: detected as %v", name, im)
		}
		imp, err := Read("flex.csv", []byte(src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(imp.Transactions) != 1 || imp.Transactions[0].Action != model.Dividend || imp.Transactions[0].Tax().Value.Exact().String() != "3.75" {
			t.Fatalf("%s: transactions %+v", name, imp.Transactions)
		}
		if r := imp.Report; r.Rows != 3 || r.Imported != 2 || len(r.Skipped) != 1 || r.Skipped[0].Type != "deposit" {
			t.Fatalf("%s: report %+v", name, r)
		}
	}
}

// Currency conversions are fx_conversion rows, never trades, even without an asset class.
func TestIBKRFlexCurrencyPairIsAConversion(t *testing.T) {
	src := `"Buy/Sell","TradeDate","Symbol","ISIN","Quantity","TradePrice","CurrencyPrimary","IBCommission","IBCommissionCurrency"
"BUY","20240603","GBP.USD","","1000","1.27","USD","-2","USD"
"BUY","20240603","AAPL","US0378331005","1","190","USD","-1","USD"
`
	imp, err := Read("flex.csv", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Transactions) != 1 || imp.Transactions[0].Ticker != "AAPL" {
		t.Fatalf("transactions %+v", imp.Transactions)
	}
	if len(imp.Report.Skipped) != 1 || imp.Report.Skipped[0].Type != "fx_conversion" {
		t.Fatalf("skipped %+v", imp.Report.Skipped)
	}
}

// Two sections with line descriptors, whose headers start with different fields.
func TestIBKRFlexSectionsWithDescriptors(t *testing.T) {
	src := `"HEADER","TRNT","Symbol","ISIN","Buy/Sell","TradeDate","Quantity","TradePrice","CurrencyPrimary"
"DATA","TRNT","AAPL","US0378331005","BUY","20240603","1","190","USD"
"HEADER","CTRN","CurrencyPrimary","Symbol","ISIN","Date/Time","Amount","Type"
"DATA","CTRN","USD","AAPL","US0378331005","20240816;202000","0.25","Dividends"
`
	imp, err := Read("flex.csv", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Transactions) != 2 || imp.Transactions[0].Action != model.Buy || imp.Transactions[1].Action != model.Dividend || imp.Report.Rows != 2 {
		t.Fatalf("%+v %+v", imp.Transactions, imp.Report)
	}
}
