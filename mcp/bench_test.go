package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
)

// BenchmarkToolsCallStdio measures a tools/call round trip over real pipes to the server
// binary: write the request line, read the response line. It reports the median and 99th
// percentile latency of the calls it made. CGT_BENCH_MCP names another cgt-mcp binary to
// time instead of this tree's.
func BenchmarkToolsCallStdio(b *testing.B) {
	if s := os.Getenv("CGT_BENCH_MCP"); s != "" {
		defer func(was string) { serverBinary = was }(serverBinary)
		serverBinary = s
	}
	for _, bc := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"get_fx_rate", "get_fx_rate", map[string]any{"currency": "USD", "year": 2024, "month": 3, "output": "json"}},
		{"calculate_report_1000", "calculate_report", map[string]any{"cgt_content": generatedLedger(1000)}},
		{"calculate_report_1000_full_json", "calculate_report", map[string]any{"cgt_content": generatedLedger(1000), "detail": "full", "output": "json", "max_chars": 0}},
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

// checkCallOK fails the benchmark unless the call succeeded: isError unset and, when the
// result is a JSON envelope (as text or structuredContent), ok.
func checkCallOK(b *testing.B, r response) {
	var res struct {
		IsError           bool      `json:"isError"`
		StructuredContent *envelope `json:"structuredContent"`
		Content           []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError || len(res.Content) != 1 {
		b.Fatalf("call failed: %.500s %+v", r.Result, r.Error)
	}
	env := res.StructuredContent
	if env == nil && json.Unmarshal([]byte(res.Content[0].Text), &env) != nil {
		return // a dense rendering, not JSON
	}
	if !env.OK {
		b.Fatalf("call failed: %.500s", r.Result)
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

// BenchmarkSDKClientCalculateReport times calculate_report on a 1,000-transaction ledger
// with full detail as JSON, from the official TypeScript SDK client (testdata/sdkclient/
// bench.mjs): text results, and with --structured the envelope as structuredContent (which
// the client validates against the output schema). It reports the client's median and 99th
// percentile and the result's size; b.N is the number of timed calls. CGT_BENCH_MCP names
// another cgt-mcp binary to time instead of this tree's (an earlier build, for A/B runs).
func BenchmarkSDKClientCalculateReport(b *testing.B) {
	bin := serverBinary
	if s := os.Getenv("CGT_BENCH_MCP"); s != "" {
		bin = s
	}
	if _, err := os.Stat(filepath.Join(sdkClientDir, "node_modules")); err != nil {
		b.Skipf("%s/node_modules is missing: run npm ci --prefix mcp/testdata/sdkclient", sdkClientDir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not installed")
	}
	args, _ := json.Marshal(map[string]any{"cgt_content": generatedLedger(1000), "output": "json", "detail": "full", "max_chars": 0})
	for _, mode := range []struct {
		name  string
		flags []string
	}{{"text", nil}, {"structured", []string{"--structured"}}} {
		b.Run(mode.name, func(b *testing.B) {
			argv := append([]string{filepath.Join(sdkClientDir, "bench.mjs"), "calculate_report", string(args), strconv.Itoa(max(b.N, 20)), bin}, mode.flags...)
			b.ResetTimer()
			out, err := exec.Command(node, argv...).Output()
			b.StopTimer()
			if err != nil {
				b.Fatalf("sdk bench: %v", err)
			}
			var r struct{ Chars, P50Ms, P99Ms float64 }
			if err := json.Unmarshal(out, &r); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
			b.ReportMetric(r.P50Ms*1000, "p50-µs")
			b.ReportMetric(r.P99Ms*1000, "p99-µs")
			b.ReportMetric(r.Chars, "result-chars")
		})
	}
}

// BenchmarkToolsCallServe is BenchmarkToolsCallStdio with the server in the test's process
// (mcp.Serve over pipes), so that -cpuprofile and -memprofile see the server's side:
// reading the request, running the command and writing the response. It reports the bytes
// allocated per call beside the time.
func BenchmarkToolsCallServe(b *testing.B) {
	full := map[string]any{"cgt_content": generatedLedger(1000), "detail": "full", "output": "json", "max_chars": 0}
	for _, bc := range []struct {
		name string
		args map[string]any
		opts mcp.Options
	}{
		{"calculate_report_1000_full_json", full, mcp.Options{}},
		{"calculate_report_1000_full_json_structured", full, mcp.Options{Structured: true, DefaultOutput: "json"}},
		{"calculate_report_1000", map[string]any{"cgt_content": generatedLedger(1000)}, mcp.Options{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bc.opts.Version = "bench"
			s, err := mcp.New(commands.NewRegistry, bc.opts)
			if err != nil {
				b.Fatal(err)
			}
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- mcp.Serve(ctx, s, inR, outW, io.Discard) }()
			defer func() { cancel(); inW.Close(); outR.Close(); <-done }()
			out := bufio.NewReaderSize(outR, 1<<20)
			send := func(line string) {
				if _, err := io.WriteString(inW, line+"\n"); err != nil {
					b.Fatal(err)
				}
			}
			read := func() response {
				line, err := out.ReadBytes('\n')
				if err != nil {
					b.Fatal(err)
				}
				var r response
				if err := json.Unmarshal(line, &r); err != nil {
					b.Fatalf("%v: %.300s", err, line)
				}
				return r
			}
			send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
			read()
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			line := toolCallLine(b, "calculate_report", bc.args)
			send(line)
			checkCallOK(b, read())
			b.ReportAllocs()
			durations := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				send(line)
				_, err := out.ReadSlice('\n')
				for err == bufio.ErrBufferFull {
					_, err = out.ReadSlice('\n')
				}
				if err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
			}
			b.StopTimer()
			reportPercentiles(b, durations)
		})
	}
}
