package engine

import (
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkCalculate measures the engine alone on generated GBP ledgers over 1,000 tickers,
// reporting time and allocated bytes per transaction (linear growth keeps both flat).
func BenchmarkCalculate(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			txns := generateLedger(genOptions{n: n, tickers: 1000, seed: 1})
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				if _, err := Calculate(txns, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/txn")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/txn")
		})
	}
}
