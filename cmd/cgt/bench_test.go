package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cli"
	"github.com/cgt-tools/cgt/internal/cputime"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// builtBinaries compiles cgt and a hello-world program once, for start-up comparisons.
func builtBinaries(b *testing.B) (cgt, hello string) {
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "cgt-bench-")
		if buildErr != nil {
			return
		}
		if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "cgt"), ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v: %s", err, out)
			return
		}
		src := filepath.Join(binDir, "hello.go")
		_ = os.WriteFile(src, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644)
		if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "hello"), src).CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return filepath.Join(binDir, "cgt"), filepath.Join(binDir, "hello")
}

// BenchmarkStartup compares a whole `cgt fx.rate USD 2024 3` process with a hello-world Go
// process; the ratio of the two ns/op is the start-up cost of cgt.
func BenchmarkStartup(b *testing.B) {
	cgt, hello := builtBinaries(b)
	b.Run("hello_world", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := exec.Command(hello).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cgt_fx_rate", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := exec.Command(cgt, "fx.rate", "USD", "2024", "3").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// ledgerWithDisposals builds a GBP ledger with n disposals spread over tickers and years.
func ledgerWithDisposals(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		t := fmt.Sprintf("T%03d", i%40)
		y := 2016 + (i/40)%8
		fmt.Fprintf(&sb, "%d-05-%02d BUY %s 100 @ %d.25 FEES 5\n", y, 1+i%20, t, 10+i%7)
		fmt.Fprintf(&sb, "%d-09-%02d SELL %s 60 @ %d.75 FEES 5\n", y, 1+i%20, t, 9+i%9)
	}
	return sb.String()
}

// BenchmarkOutputSize reports the bytes of a 200-disposal report in each output format and
// the schema rendering as a share of the JSON envelope.
func BenchmarkOutputSize(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "ledger.cgt")
	if err := os.WriteFile(path, []byte(ledgerWithDisposals(200)), 0o644); err != nil {
		b.Fatal(err)
	}
	sizes := map[string]int{}
	for _, format := range []string{"json", "compact", "schema", "records"} {
		b.Run(format, func(b *testing.B) {
			var out string
			for i := 0; i < b.N; i++ {
				var code int
				out, _, code = runCLIBench(path, format)
				if code != 0 {
					b.Fatalf("exit %d: %.300s", code, out)
				}
			}
			sizes[format] = len(out)
			b.ReportMetric(float64(len(out)), "bytes")
		})
	}
	if sizes["json"] > 0 {
		b.ReportMetric(100*float64(sizes["schema"])/float64(sizes["json"]), "schema_%_of_json")
		b.ReportMetric(100*float64(sizes["compact"])/float64(sizes["json"]), "compact_%_of_json")
	}
}

// BenchmarkReportOutput measures report.calculate end to end in the process (read, parse,
// calculate, render, write to a discarding stdout) on a 40,000-line ledger with 20,000
// disposals, per output format: time and output bytes per disposal, and allocated bytes.
// Every format is written as it is rendered, so the bytes allocated stay near the report's
// own, whatever the size of the output.
func BenchmarkReportOutput(b *testing.B) {
	const disposals = 20_000
	path := filepath.Join(b.TempDir(), "ledger.cgt")
	if err := os.WriteFile(path, []byte(dailyTrades(disposals)), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"json", "compact", "schema", "records", "text"} {
		b.Run(format, func(b *testing.B) {
			var out countingWriter
			f := newFactory()
			f.Stdin, f.Stdout, f.Stderr = strings.NewReader(""), &out, io.Discard
			b.ReportAllocs()
			for b.Loop() {
				out = 0
				if code := cli.Run(f, []string{"report.calculate", path, "--output", format}); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/disposals, "ns/disposal")
			b.ReportMetric(float64(out)/disposals, "out-bytes/disposal")
		})
	}
}

// dailyTrades is a ledger of n buys and n sells over 40 tickers: each ticker buys on one day
// and sells part the next, so every sell is a disposal of its own and most are matched with
// the following day's buy under the 30-day rule, the rest with the pool.
func dailyTrades(n int) string {
	var sb strings.Builder
	start := time.Date(2016, 4, 6, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		t, d := fmt.Sprintf("T%03d", i%40), start.AddDate(0, 0, 2*(i/40))
		fmt.Fprintf(&sb, "%s BUY %s 100 @ %d.25 FEES 5\n", d.Format(time.DateOnly), t, 10+i%7)
		fmt.Fprintf(&sb, "%s SELL %s 60 @ %d.75 FEES 5\n", d.AddDate(0, 0, 1).Format(time.DateOnly), t, 9+i%9)
	}
	return sb.String()
}

// countingWriter discards what it is given and counts the bytes.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// BenchmarkReportLedger runs report.calculate in the process on a ledger written by
// internal/ledgergen (1,000 tickers, a tenth of trades in US dollars, corporate events) and
// reports time, CPU time and allocated bytes per ledger line, for each output format. The
// number of lines is CGT_BENCH_LINES (default 10,000); `make bench-report` runs 100,000.
func BenchmarkReportLedger(b *testing.B) {
	lines := 10_000
	if s := os.Getenv("CGT_BENCH_LINES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("CGT_BENCH_LINES=%q: want a positive whole number", s)
		}
		lines = n
	}
	path := filepath.Join(b.TempDir(), "ledger.cgt")
	var src bytes.Buffer
	if err := ledgergen.Write(&src, ledgergen.Options{Lines: lines, Tickers: 1000, USDPercent: 10, Events: true, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, src.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"json", "compact", "schema", "records", "text"} {
		b.Run(format, func(b *testing.B) {
			var out countingWriter
			f := newFactory()
			f.Stdin, f.Stdout, f.Stderr = strings.NewReader(""), &out, io.Discard
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := cputime.Used()
			for b.Loop() {
				out = 0
				if code := cli.Run(f, []string{"report.calculate", path, "--output", format}); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			cpu = cputime.Used() - cpu
			runtime.ReadMemStats(&after)
			per := float64(b.N) * float64(lines)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/line")
			b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/line")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/line")
			b.ReportMetric(float64(out)/float64(lines), "out-bytes/line")
		})
	}
}

// BenchmarkImport runs transactions.import in the process on a Trading 212 export of 100,000
// trades with ISINs (CGT_BENCH_ROWS for another size), written as JSON to a counting writer:
// reading, the write-back check of every transaction, and the output.
func BenchmarkImport(b *testing.B) {
	rows := 100_000
	if s := os.Getenv("CGT_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("CGT_BENCH_ROWS=%q: want a positive whole number", s)
		}
		rows = n
	}
	path := filepath.Join(b.TempDir(), "t212.csv")
	var export bytes.Buffer
	if err := ledgergen.WriteTrading212(&export, rows); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, export.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	var out countingWriter
	f := newFactory()
	f.Stdin, f.Stdout, f.Stderr = strings.NewReader(""), &out, io.Discard
	cpu := cputime.Used()
	b.ReportAllocs()
	for b.Loop() {
		out = 0
		if code := cli.Run(f, []string{"transactions.import", path, "--output", "json"}); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	cpu = cputime.Used() - cpu
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(out)/float64(rows), "out-bytes/row")
}
