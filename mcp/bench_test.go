package mcp_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkToolsCallStdio measures a tools/call round trip over real pipes to the server
// binary: write the request line, read the response line. It reports the median and 99th
// percentile latency of the calls it made.
func BenchmarkToolsCallStdio(b *testing.B) {
	for _, bc := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"get_fx_rate", "get_fx_rate", map[string]any{"currency": "USD", "year": 2024, "month": 3}},
		{"calculate_report_1000", "calculate_report", map[string]any{"cgt_content": generatedLedger(1000)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			line := toolCallLine(b, bc.tool, bc.args)
			p := startProc(b)
			p.initialize()
			p.send(line)
			checkCallOK(b, p.read())
			durations := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				p.send(line)
				p.read()
				durations = append(durations, time.Since(start))
			}
			b.StopTimer()
			reportPercentiles(b, durations)
		})
	}
}

func toolCallLine(b *testing.B, tool string, args map[string]any) string {
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		b.Fatal(err)
	}
	return string(msg)
}

func checkCallOK(b *testing.B, r response) {
	var res struct {
		StructuredContent envelope `json:"structuredContent"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || !res.StructuredContent.OK {
		b.Fatalf("call failed: %s %+v", r.Result, r.Error)
	}
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	at := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
	if testing.Verbose() {
		b.Logf("n=%d min=%v p50=%v max=%v", len(d), d[0], d[len(d)/2], d[len(d)-1])
	}
}

// generatedLedger is n transactions in five securities over several tax years: mostly
// purchases, with sales that never exceed the holding, half of them in US dollars.
func generatedLedger(n int) string {
	tickers := []string{"AAPL", "MSFT", "VOD.L", "BP.L", "NVDA"}
	held := map[string]int{}
	day := time.Date(2016, 4, 6, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	for i := range n {
		t := tickers[i%len(tickers)]
		ccy := "GBP"
		if i%2 == 0 {
			ccy = "USD"
		}
		price := fmt.Sprintf("%d.%02d", 50+i%70, i%100)
		if i%3 == 2 && held[t] >= 5 {
			fmt.Fprintf(&b, "%s SELL %s 5 @ %s %s FEES 4.95 %s\n", day.Format(time.DateOnly), t, price, ccy, ccy)
			held[t] -= 5
		} else {
			fmt.Fprintf(&b, "%s BUY %s 10 @ %s %s FEES 4.95 %s\n", day.Format(time.DateOnly), t, price, ccy, ccy)
			held[t] += 10
		}
		if i%3 == 0 {
			day = day.AddDate(0, 0, 2)
		}
	}
	return b.String()
}
