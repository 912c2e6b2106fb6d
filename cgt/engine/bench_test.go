package engine

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/cputime"
)

// benchSizes are the ledger sizes of the benchmarks: time and bytes per transaction should
// stay flat from one to the next.
var benchSizes = []int{10_000, 100_000, 1_000_000}

// BenchmarkCalculate measures the engine alone on generated GBP ledgers over 1,000 tickers,
// reporting time and allocated bytes per transaction (linear growth keeps both flat).
func BenchmarkCalculate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			txns := generateLedger(genOptions{n: n, tickers: 1000, seed: 1})
			m := startMeasure(b)
			for b.Loop() {
				if _, err := Calculate(txns, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			m.report(b, n)
		})
	}
}

// BenchmarkParseAndCalculate measures what a user waits for: reading a ledger's text
// (dsl.Parse) and calculating it, over 1,000 tickers with fees, same-day trades, 30-day
// repurchases, splits, distributions and dividends. Besides wall time it reports CPU time
// (user + system, all threads), which is the fairer figure on a busy machine.
func BenchmarkParseAndCalculate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src := generateText(genOptions{n: n, tickers: 1000, events: true, seed: 1})
			m := startMeasure(b)
			for b.Loop() {
				txns, err := dsl.Parse("gen.cgt", src)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Calculate(txns, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			m.report(b, n)
		})
	}
}

// measure records the allocation and CPU counters at the start of a benchmark loop.
type measure struct {
	mem runtime.MemStats
	cpu time.Duration
}

func startMeasure(b *testing.B) *measure {
	m := &measure{}
	runtime.GC()
	runtime.ReadMemStats(&m.mem)
	m.cpu = cputime.Used()
	b.ResetTimer()
	return m
}

// report adds ns/txn, cpu-ns/txn and B/txn to the benchmark's output.
func (m *measure) report(b *testing.B, n int) {
	b.StopTimer()
	cpu := cputime.Used() - m.cpu
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	per := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/txn")
	b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/txn")
	b.ReportMetric(float64(after.TotalAlloc-m.mem.TotalAlloc)/per, "B/txn")
}

// generateText writes a generated ledger (see generateLedger) as ledger text, line by line,
// without building the transactions first.
func generateText(o genOptions) []byte {
	rng := rand.New(rand.NewPCG(o.seed, 99))
	held := make([]int64, o.tickers)
	dates := make([]model.Date, o.tickers)
	for i := range dates {
		dates[i] = model.NewDate(2010, 1, 4)
	}
	out := make([]byte, 0, 48*o.n)
	for range o.n {
		k := rng.IntN(o.tickers)
		if rng.IntN(4) != 0 {
			dates[k] = dates[k].AddDays(rng.IntN(6))
		}
		var t model.Transaction
		fillGenerated(&t, rng, &held[k], o.events)
		if t.Action == model.Split || t.Action == model.Accumulation || t.Action == model.CapReturn {
			dates[k] = dates[k].AddDays(1)
		}
		out = append(out, dates[k].String()...)
		out = append(out, ' ')
		out = append(out, t.Action...)
		out = append(out, " T"...)
		out = strconv.AppendInt(out, int64(k), 10)
		switch t.Action {
		case model.Buy, model.Sell:
			out = append(out, ' ')
			out = append(out, t.Quantity.String()...)
			out = append(out, " @ "...)
			out = append(out, t.Price.Value.Exact().StringFixed(2)...)
			if !t.Fees.Value.IsZero() {
				out = append(out, " FEES "...)
				out = append(out, t.Fees.Value.Exact().StringFixed(2)...)
			}
		case model.Split:
			out = append(out, " RATIO "...)
			out = append(out, t.Ratio().String()...)
		case model.Accumulation, model.CapReturn:
			out = append(out, ' ')
			out = append(out, t.Quantity.String()...)
			out = append(out, " TOTAL "...)
			out = append(out, t.Total.Value.Exact().StringFixed(2)...)
		case model.Dividend:
			out = append(out, " TOTAL "...)
			out = append(out, t.Total.Value.Exact().StringFixed(2)...)
			if !t.Tax().Value.IsZero() {
				out = append(out, " TAX "...)
				out = append(out, t.Tax().Value.Exact().StringFixed(2)...)
			}
		}
		out = append(out, '\n')
	}
	return out
}

// BenchmarkParseLedger measures dsl.Parse alone on the ledger text of
// BenchmarkParseAndCalculate, so the two stages can be told apart.
func BenchmarkParseLedger(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src := generateText(genOptions{n: n, tickers: 1000, events: true, seed: 1})
			m := startMeasure(b)
			for b.Loop() {
				if _, err := dsl.Parse("gen.cgt", src); err != nil {
					b.Fatal(err)
				}
			}
			m.report(b, n)
		})
	}
}

// BenchmarkAppendDisposalsJSON measures the JSON writer alone, on one goroutine, over the
// disposals of a 100,000-line ledger (matches and their steps included): the part of the
// full JSON report that grows with the ledger, without the reading, the calculation and the
// processors' sharing of the work, whose noise would hide a change of a few percent.
func BenchmarkAppendDisposalsJSON(b *testing.B) {
	src := generateText(genOptions{n: 100_000, tickers: 1000, events: true, seed: 1})
	txns, err := dsl.Parse("gen.cgt", src)
	if err != nil {
		b.Fatal(err)
	}
	r, err := Calculate(txns, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var buf []byte
	count, size := 0, 0
	for b.Loop() {
		count, size = 0, 0
		for i := range r.TaxYears {
			for j := range r.TaxYears[i].Disposals {
				buf = r.TaxYears[i].Disposals[j].AppendJSON(buf[:0], 4, true)
				count, size = count+1, size+len(buf)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count), "ns/disposal")
	b.ReportMetric(float64(size)/float64(count), "bytes/disposal")
}
