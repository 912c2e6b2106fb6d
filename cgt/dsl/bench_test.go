package dsl

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// benchLedger is a realistic generated ledger: trades in several currencies with fees, plus
// income and corporate-action lines and the odd comment. Prices are mostly distinct, as in a
// real ledger, so nothing is measured on artificially repetitive numbers.
func benchLedger(lines int) []byte {
	tickers := []string{"AAPL", "VOD.L", "MSFT", "GB00B41YBW71", "BRK.B", "NVDA", "LON:BARC", "TSLA"}
	var b strings.Builder
	for i := range lines {
		date := fmt.Sprintf("20%02d-%02d-%02d", 10+i%15, 1+i%12, 1+i%28)
		tk := tickers[i%len(tickers)]
		switch i % 20 {
		case 0:
			fmt.Fprintf(&b, "%s DIVIDEND %s TOTAL %d.%02d TAX 1.25\n", date, tk, 10+i%90, i%100)
		case 1:
			fmt.Fprintf(&b, "%s ACCUMULATION %s %d TOTAL %d.%02d\n", date, tk, 1+i%500, i%1000, i%100)
		case 2:
			fmt.Fprintf(&b, "%s SPLIT %s RATIO 2 # stock split\n", date, tk)
		case 3, 5, 7, 11, 13:
			fmt.Fprintf(&b, "%s SELL %s %d @ %d.%04d USD FEES 4.95 USD\n", date, tk, 1+i%300, 100+i%400, i*7919%10000)
		default:
			fmt.Fprintf(&b, "%s BUY %s %d @ %d.%02d FEES 9.99\n", date, tk, 1+i%1000, 1+i*31%9000, i*7%100)
		}
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	const lines = 100_000
	src := benchLedger(lines)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		txns, err := Parse("bench.cgt", src)
		if err != nil || len(txns) != lines {
			b.Fatal(err, len(txns))
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N) * lines
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/txn")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/txn")
}

func BenchmarkFormatAll(b *testing.B) {
	txns, err := Parse("bench.cgt", benchLedger(100_000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = FormatAll(txns)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(txns)), "ns/txn")
}

func BenchmarkParseJSON(b *testing.B) {
	txns, err := Parse("bench.cgt", benchLedger(10_000))
	if err != nil {
		b.Fatal(err)
	}
	src := mustMarshal(b, ToJSONAll(txns))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseJSON("bench.json", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(txns)), "ns/txn")
}
