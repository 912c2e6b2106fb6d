// Command cgt-ledgergen writes a large, valid ledger for timing cgt: n lines over a number of
// tickers, with buys, sells (never more than held), same-day trades, 30-day repurchases,
// splits, accumulations, capital returns, dividends and a share of lines in US dollars. The
// same flags and seed always give the same file, so anyone can repeat a measured run:
//
//	go run ./cmd/cgt-ledgergen -n 1000000 > /tmp/ledger-1m.cgt
//	cgt report.calculate /tmp/ledger-1m.cgt > /tmp/report.json
//
// With -trading212 it writes a Trading 212 history export of n trades instead (1,000
// securities with ISINs), for timing transactions.import.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/cgt-tools/cgt/internal/ledgergen"
)

func main() {
	n := flag.Int("n", 100_000, "number of ledger lines")
	tickers := flag.Int("tickers", 1000, "number of distinct tickers")
	usd := flag.Int("usd", 10, "percent of trades priced in US dollars (converted at HMRC's monthly rates)")
	events := flag.Bool("events", true, "include splits, accumulations, capital returns and dividends")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("o", "", "output file (default standard output)")
	t212 := flag.Bool("trading212", false, "write a Trading 212 export of n trades instead of a ledger")
	flag.Parse()
	if *n < 0 || *tickers < 1 || *usd < 0 || *usd > 100 {
		fmt.Fprintln(os.Stderr, "cgt-ledgergen: -n must be ≥ 0, -tickers ≥ 1 and -usd between 0 and 100")
		os.Exit(2)
	}
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cgt-ledgergen:", err)
			os.Exit(1)
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	o := ledgergen.Options{Lines: *n, Tickers: *tickers, USDPercent: *usd, Events: *events, Seed: *seed}
	var err error
	if *t212 {
		err = ledgergen.WriteTrading212(bw, *n)
	} else {
		err = ledgergen.Write(bw, o)
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := w.Close(); err == nil && *out != "" {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cgt-ledgergen:", err)
		os.Exit(1)
	}
}
