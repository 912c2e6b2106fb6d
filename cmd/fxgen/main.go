// Command fxgen builds cgt's embedded exchange-rate table (cgt/fx/rates.csv) from HMRC's
// monthly exchange-rate XML files:
//
//	go run ./cmd/fxgen -in ../shared/hmrc-rates/monthly -out cgt/fx/rates.csv
//
// It reads every *.xml file in the input directory with fx.ReadMonthly, requires one file per
// month with no gaps, and writes the table deterministically. Notes (entries skipped, rates
// chosen where countries disagreed) are printed to stderr and kept as comments in the table.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/cgt-tools/cgt/cgt/fx"
)

func main() {
	in := flag.String("in", "", "directory holding HMRC's monthly XML files (*.xml)")
	out := flag.String("out", "", "table file to write, e.g. cgt/fx/rates.csv")
	flag.Parse()
	if *in == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: fxgen -in DIR -out FILE")
		os.Exit(2)
	}
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fxgen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	months, err := readDir(in)
	if err != nil {
		return err
	}
	for _, m := range months {
		for _, n := range m.Notes {
			fmt.Fprintf(os.Stderr, "fxgen: note: %s: %s\n", m.Period, n)
		}
	}
	table, err := fx.EncodeTable(months)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, table) {
		fmt.Fprintf(os.Stderr, "fxgen: %s is up to date (%d months)\n", out, len(months))
		return nil
	}
	if err := os.WriteFile(out, table, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "fxgen: wrote %s (%d months, %d bytes)\n", out, len(months), len(table))
	return nil
}

// readDir reads every *.xml file in dir, in name order.
func readDir(dir string) ([]fx.Month, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no *.xml files in %s", dir)
	}
	sort.Strings(names)
	months := make([]fx.Month, 0, len(names))
	for _, name := range names {
		m, err := readFile(name)
		if err != nil {
			return nil, err
		}
		months = append(months, m)
	}
	return months, nil
}

func readFile(name string) (fx.Month, error) {
	f, err := os.Open(name)
	if err != nil {
		return fx.Month{}, err
	}
	defer f.Close()
	m, err := fx.ReadMonthly(f)
	if err != nil {
		return fx.Month{}, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}
