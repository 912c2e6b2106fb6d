package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cli"
)

// sharedFixtures locates ../shared/cgt-fixtures beside the repository. Tests that need it skip
// when it is absent, except in CI, where its absence is a failure.
func sharedFixtures(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "cgt-fixtures")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("acceptance fixtures not found at %s (CI=true)", dir)
		}
		t.Skipf("acceptance fixtures not found at %s; skipping", dir)
	}
	return dir
}

// runCLI runs cgt in-process with fake streams.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runInProcess(args...)
}

func runCLIBench(path, format string) (stdout, stderr string, code int) {
	return runInProcess("report.calculate", path, "--output", format)
}

func runInProcess(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	f := newFactory()
	f.Stdin, f.Stdout, f.Stderr = strings.NewReader(""), &out, &errb
	code = cli.Run(f, args)
	return out.String(), errb.String(), code
}

type expectedYear struct {
	Period         string `json:"period"`
	DisposalCount  int    `json:"disposal_count"`
	Proceeds       string `json:"proceeds"`
	AllowableCosts string `json:"allowable_costs"`
	Gains          string `json:"gains"`
	Losses         string `json:"losses"`
	NetGain        string `json:"net_gain"`
}

// TestAcceptanceFixturesThroughCLI runs `cgt report.calculate FILE --output json` on every
// acceptance ledger and compares the per-year figures to the penny.
func TestAcceptanceFixturesThroughCLI(t *testing.T) {
	dir := sharedFixtures(t)
	ledgers, _ := filepath.Glob(filepath.Join(dir, "*.cgt"))
	if len(ledgers) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, ledger := range ledgers {
		name := strings.TrimSuffix(filepath.Base(ledger), ".cgt")
		t.Run(name, func(t *testing.T) {
			var want struct {
				TaxYears []expectedYear `json:"tax_years"`
			}
			b, err := os.ReadFile(strings.TrimSuffix(ledger, ".cgt") + ".expected.json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			out, _, code := runCLI(t, "report.calculate", ledger, "--output", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, out)
			}
			var got struct {
				Data struct {
					TaxYears []expectedYear `json:"tax_years"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			compareYears(t, want.TaxYears, withDisposals(got.Data.TaxYears))
		})
	}
}

// withDisposals keeps the years that have disposals: the report also lists years with only
// dividends, which the fixtures leave out.
func withDisposals(ys []expectedYear) []expectedYear {
	var out []expectedYear
	for _, y := range ys {
		if y.DisposalCount > 0 {
			out = append(out, y)
		}
	}
	return out
}

func compareYears(t *testing.T, want, got []expectedYear) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d tax years with disposals, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if !costsWithinFixtureRounding(g, w) {
			t.Errorf("tax year %s: allowable costs %s, want %s", w.Period, g.AllowableCosts, w.AllowableCosts)
		}
		g.AllowableCosts = w.AllowableCosts
		if g != w {
			t.Errorf("tax year %s:\n got  %+v\n want %+v", w.Period, got[i], w)
		}
	}
}

// costsWithinFixtureRounding accepts the fixtures' allowable costs, which were built from
// each disposal's rounded net proceeds (fixture README, "Rounding"), when they differ from
// cgt's by at most a penny per disposal. Every other figure must match to the penny.
func costsWithinFixtureRounding(got, want expectedYear) bool {
	g, err1 := decimal.NewFromString(got.AllowableCosts)
	w, err2 := decimal.NewFromString(want.AllowableCosts)
	if err1 != nil || err2 != nil {
		return false
	}
	limit := decimal.New(int64(want.DisposalCount), -2)
	return g.Sub(w).Abs().LessThanOrEqual(limit)
}
