package imports

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/internal/cputime"
	"github.com/cgt-tools/cgt/internal/loadaware"
)

// flexOfTrades is an IBKR Flex XML file of n trades, one element a line.
func flexOfTrades(n int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?>
<FlexQueryResponse queryName="q" type="AF"><FlexStatements count="1"><FlexStatement accountId="U1" fromDate="20240101" toDate="20241231">
<Trades>
`)
	for i := range n {
		side, qty := "BUY", "10"
		if i%2 == 1 {
			side, qty = "SELL", "-10"
		}
		fmt.Fprintf(&b, `<Trade accountId="U1" assetCategory="STK" symbol="VOD" currency="GBP" tradeDate="20240105" buySell="%s" quantity="%s" tradePrice="0.70" ibCommission="-3" ibCommissionCurrency="GBP" tradeID="T%d" levelOfDetail="EXECUTION"/>`+"\n", side, qty, i)
	}
	b.WriteString("</Trades>\n</FlexStatement></FlexStatements></FlexQueryResponse>\n")
	return []byte(b.String())
}

// TestFlexXMLLinear guards the Flex XML reader's linearity: a file of 260,000 elements (26,000
// under -short) is read in about the time of ten files a tenth its size, not a hundred (the
// reader once counted lines from the start of the file for every element: 25 s of CPU for
// 6.7 MB). The figure guarded: the large file takes less than 4 times the CPU of ten small
// ones (CPU time, since the machine may be shared).
func TestFlexXMLLinear(t *testing.T) {
	n := 260_000
	if testing.Short() {
		n = 26_000
	}
	small, large := flexOfTrades(n/10), flexOfTrades(n)
	read := func(src []byte) time.Duration {
		start := cputime.Used()
		imp, err := Read("flex.xml", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(imp.Transactions) == 0 {
			t.Fatal("no transactions read")
		}
		return cputime.Used() - start
	}
	read(small) // warm up
	var tenSmall time.Duration
	for range 10 {
		tenSmall += read(small)
	}
	tLarge := read(large)
	t.Logf("CPU: %d elements (%d KB): %v; ten files of %d: %v", n, len(large)>>10, tLarge, n/10, tenSmall)
	if tLarge > 4*tenSmall {
		t.Errorf("%d elements took %v, over 4 times ten files of %d (%v): reading is not linear", n, tLarge, n/10, tenSmall)
	}
}

// TestHugeNumberRejectedFast guards the digit limit of numbers in exports (60, as in the
// ledger): a quantity of 3.5 million digits (350,000 under -short) is refused, naming the
// limit, in well under a second of CPU (it once took 109 s of arithmetic); the bound grows with
// the machine's load (internal/loadaware), since the test checks the work, not the machine.
func TestHugeNumberRejectedFast(t *testing.T) {
	digits := 3_500_000
	if testing.Short() {
		digits = 350_000
	}
	huge := "1" + strings.Repeat("0", digits-1)
	for _, tc := range []struct{ name, src string }{
		{"flex xml quantity", strings.Replace(string(flexOfTrades(2)), `quantity="10"`, `quantity="`+huge+`"`, 1)},
		{"flex xml price", strings.Replace(string(flexOfTrades(2)), `tradePrice="0.70"`, `tradePrice="0.`+huge+`"`, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := cputime.Used()
			_, err := Read("flex.xml", []byte(tc.src), Options{})
			took := cputime.Used() - start
			if err == nil || !strings.Contains(err.Error(), "more than 60 digits") {
				t.Errorf("err = %v, want one saying the number has more than 60 digits", clip(fmt.Sprint(err), 300))
			}
			if len(err.Error()) > 1000 {
				t.Errorf("the error is %d bytes: it should not quote the whole number", len(err.Error()))
			}
			if bound := loadaware.Bound(time.Second); took > bound {
				t.Errorf("took %v of CPU, want well under a second (%v at this load)", took, bound)
			}
		})
	}
}

// TestVanguardLinear guards the Vanguard reader's linearity: a cash and investment report of
// 2 MB (200 KB under -short) built from the sample's rows is read in about the CPU of ten
// reports a tenth its size, under 4 times (each investment row once looked through every cash
// row: 2 MB took 94 s).
func TestVanguardLinear(t *testing.T) {
	src, err := os.ReadFile("testdata/vanguard/kapji_cash_investment_report.csv")
	if err != nil {
		t.Fatal(err)
	}
	head, body, _ := strings.Cut(string(src), "\n")
	size := 2 << 20
	if testing.Short() {
		size = 200 << 10
	}
	reps := size/len(body) + 1
	small, large := []byte(head+"\n"+strings.Repeat(body+"\n", reps/10)), []byte(head+"\n"+strings.Repeat(body+"\n", reps))
	read := func(src []byte) time.Duration {
		start := cputime.Used()
		if _, err := Read("vanguard.csv", src, Options{}); err != nil {
			t.Fatal(err)
		}
		return cputime.Used() - start
	}
	read(small)
	var tenSmall time.Duration
	for range 10 {
		tenSmall += read(small)
	}
	tLarge := read(large)
	t.Logf("CPU: %d KB: %v; ten of %d KB: %v", len(large)>>10, tLarge, len(small)>>10, tenSmall)
	if tLarge > 4*tenSmall {
		t.Errorf("%d KB took %v, over 4 times ten reports of %d KB (%v): reading is not linear", len(large)>>10, tLarge, len(small)>>10, tenSmall)
	}
}
