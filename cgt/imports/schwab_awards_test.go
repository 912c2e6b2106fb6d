package imports

import "testing"

func TestSchwabAwardsSamples(t *testing.T) { runSamples(t, "schwab-awards", "schwab-awards") }

func TestSchwabAwardsVestIsBuyAtFMV(t *testing.T) {
	src := `{"FromDate":"01/01/2020","ToDate":"12/23/2023","Transactions":[{"Date":"09/27/2023","Action":"Deposit","Symbol":"GOOG","Quantity":"13.6","Description":"RS","Amount":null,"TransactionDetails":[{"Details":{"AwardId":"C1","VestDate":"09/25/2023","VestFairMarketValue":"$131.25"}}]}]}`
	imp := readString(t, "", src)
	want := "2023-09-25 BUY GOOG qty=13.6 price=131.25 USD name=RS award C1 ref=award:C1:2023-09-25:13.6 (row 1)"
	if got := lines(imp); len(got) != 1 || got[0] != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
}

func FuzzSchwabAwards(f *testing.F) {
	f.Add([]byte(`{"transactions":[{"eventDate":"11/16/2022","action":"Sale","symbol":"GOOG","quantity":"1","amount":"$5","transactionDetails":[{"salePrice":"$5"}]}]}`))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "schwab-awards", src) })
}
