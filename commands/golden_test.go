package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// goldenCase runs one command with JSON arguments and compares the whole envelope with
// testdata/<command>/<case>.golden.json. UPDATE_GOLDEN=1 rewrites the files.
type goldenCase struct {
	command, name, args string
	ok                  bool
}

var goldenCases = []goldenCase{
	{"transactions.parse", "inline_usd_buy", `{"cgt_content":"2024-04-01 BUY aapl 100 @ 150.00 USD FEES 5.00 USD # first lot"}`, true},
	{"transactions.parse", "bundled_ledger", `{"path":["../examples/portfolio.cgt"]}`, true},
	{"transactions.parse", "missing_at_sign", `{"cgt_content":"2024-04-01 BUY AAPL 100 @ 150.00\n2024-06-20 SELL AAPL 50 180.00"}`, false},
	{"transactions.parse", "two_inputs", `{"cgt_content":"2024-04-01 BUY AAPL 1 @ 1","path":["x.cgt"]}`, false},
	{"transactions.parse", "same_file_twice", `{"path":["testdata/ledgers/part1.cgt","./testdata/ledgers/part1.cgt"]}`, false},
	{"transactions.parse", "overlapping_files", `{"path":["testdata/ledgers/part1.cgt","testdata/ledgers/part2.cgt"]}`, true},
	{"transactions.to_dsl", "json_to_text", `{"transactions":[{"date":"2024-04-01","action":"buy","ticker":"aapl","quantity":"100","price":{"amount":"150.00","currency":"USD"},"fees":{"amount":"5.00","currency":"USD"}},{"date":"2024-06-20","action":"SELL","ticker":"AAPL","quantity":50,"price":"180"}]}`, true},
	{"transactions.to_dsl", "object_money_without_currency", `{"transactions":[{"date":"2024-04-01","action":"buy","ticker":"aapl","quantity":"100","price":{"amount":"150.00"}}]}`, false},
	{"report.calculate", "seed_usd_2024", `{"cgt_content":"2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD","year":2024}`, true},
	{"report.calculate", "year_without_disposals", `{"cgt_content":"2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD","year":"2023/24"}`, true},
	{"report.calculate", "bundled_ledger", `{"path":["../examples/portfolio.cgt"]}`, true},
	{"report.calculate", "losses_brought_forward", `{"cgt_content":"2024-04-01 BUY X 100 @ 10\n2024-06-20 SELL X 100 @ 100","losses_brought_forward":"5000","year":2024}`, true},
	{"report.calculate", "comments_only", `{"cgt_content":"# nothing yet\n\n"}`, true},
	{"report.calculate", "oversell", `{"cgt_content":"2024-04-01 BUY X 10 @ 10\n2024-06-20 SELL X 11 @ 12"}`, false},
	{"report.calculate", "bad_year", `{"cgt_content":"2024-04-01 BUY X 10 @ 10","year":"2024/26"}`, false},
	{"matching.explain", "section_104", `{"path":["../examples/portfolio.cgt"],"date":"2024-06-20","ticker":"aapl"}`, true},
	{"matching.explain", "bed_and_breakfast", `{"path":["../examples/portfolio.cgt"],"disposal_date":"2023-03-10","ticker":"VOD.L"}`, true},
	{"matching.explain", "same_day", `{"path":["../examples/portfolio.cgt"],"disposal_date":"2024-11-18","ticker":"LGEN"}`, true},
	{"matching.explain", "not_found", `{"path":["../examples/portfolio.cgt"],"disposal_date":"2024-06-21","ticker":"AAPL"}`, false},
	{"holdings.list", "end_of_ledger", `{"path":["../examples/portfolio.cgt"]}`, true},
	{"holdings.list", "at_date", `{"path":["../examples/portfolio.cgt"],"date":"2021-01-01"}`, true},
	{"fx.rate", "usd_2024_03", `{"currency":"usd","year":"2024","month":3}`, true},
	{"fx.rate", "missing_month", `{"currency":"USD","year":2013,"month":1}`, false},
	{"fx.rate", "unknown_currency", `{"currency":"XYZ","year":2024,"month":1}`, false},
	// rates: HMRC monthly files over the bundled table (testdata/rates holds made-up files).
	{"fx.rate", "month_from_file", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/good/2026-10.xml"]}`, true},
	{"fx.rate", "month_from_directory", `{"currency":"eur","year":2026,"month":9,"rates":["testdata/rates/good"]}`, true},
	{"fx.rate", "file_replaces_bundled_month", `{"currency":"USD","year":2026,"month":8,"rates":["testdata/rates/replace/2026-08.xml"]}`, true},
	{"fx.rate", "bundled_month_beside_files", `{"currency":"USD","year":2024,"month":3,"rates":["testdata/rates/good"]}`, true},
	{"fx.rate", "same_file_via_directory", `{"currency":"JPY","year":2026,"month":10,"rates":["testdata/rates/good/2026-10.xml","testdata/rates/good"]}`, true},
	{"fx.rate", "after_bundled_months", `{"currency":"USD","year":2026,"month":11}`, false},
	{"fx.rate", "after_file_months", `{"currency":"USD","year":2026,"month":11,"rates":["testdata/rates/good"]}`, false},
	{"fx.rate", "month_twice_different_rates", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/good","testdata/rates/conflict/2026-10.xml"]}`, false},
	{"fx.rate", "rates_not_xml", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/bad/not-xml.csv"]}`, false},
	{"fx.rate", "rates_wrong_format", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/bad/wrong-root.xml"]}`, false},
	{"fx.rate", "rates_bad_rate", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/bad/bad-rate.xml"]}`, false},
	{"fx.rate", "rates_directory_without_xml", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/empty"]}`, false},
	{"fx.rate", "rates_missing_file", `{"currency":"USD","year":2026,"month":10,"rates":["testdata/rates/nowhere.xml"]}`, false},
	{"fx.rate", "rates_stdin", `{"currency":"USD","year":2026,"month":10,"rates":["-"]}`, false},
	{"report.calculate", "usd_sale_with_rates", `{"cgt_content":"` + usdLedger2026 + `","rates":["testdata/rates/good"],"year":2026}`, true},
	{"report.calculate", "usd_sale_without_rates", `{"cgt_content":"` + usdLedger2026 + `","year":2026}`, false},
	{"matching.explain", "usd_sale_with_rates", `{"cgt_content":"` + usdLedger2026 + `","rates":["testdata/rates/good/2026-09.xml","testdata/rates/good/2026-10.xml"],"date":"2026-10-15","ticker":"AAPL"}`, true},
	{"holdings.list", "usd_buy_with_rates", `{"cgt_content":"` + usdLedger2026 + `","rates":"testdata/rates/good"}`, true},
	// tax payable: taxable_income and basic_band_extension (hand-worked in docs/tax-rules.md)
	{"report.calculate", "tax_higher_rate_2024_25_both_parts", `{"cgt_content":"` + bothSides2024 + `","year":2024,"taxable_income":80000}`, true},
	{"report.calculate", "tax_basic_rate_2024_25_both_parts", `{"cgt_content":"2024-04-10 BUY X 1000 @ 10\n2024-06-01 SELL X 250 @ 30\n2024-11-15 SELL X 500 @ 30","year":"2024/25","taxable_income":"30000"}`, true},
	{"report.calculate", "tax_loss_nets_across_30_october", `{"cgt_content":"2024-04-10 BUY X 1000 @ 10\n2024-04-10 BUY Y 1000 @ 10\n2024-06-01 SELL X 500 @ 30\n2024-07-01 SELL Y 1000 @ 6\n2024-11-15 SELL X 500 @ 30","year":2024,"taxable_income":80000}`, true},
	{"report.calculate", "tax_per_year_object", `{"cgt_content":"2023-05-01 BUY X 1000 @ 10\n2023-06-01 SELL X 400 @ 60\n` + `2024-06-01 SELL X 300 @ 60\n2025-06-01 SELL X 300 @ 60","taxable_income":{"2023/24":30000,"2024":"60000"},"basic_band_extension":"2025:2000"}`, true},
	{"report.calculate", "tax_2010_11_straddle", `{"cgt_content":"2010-01-04 BUY A 1000 @ 10\n2010-05-10 SELL A 500 @ 30\n2010-11-10 SELL A 500 @ 110","taxable_income":30000}`, true},
	{"report.calculate", "tax_losses_brought_forward", `{"cgt_content":"2022-05-03 BUY A 100 @ 100\n2022-06-01 SELL A 100 @ 300","losses_brought_forward":"3000","taxable_income":"35000"}`, true},
	{"report.calculate", "taxable_income_bad_year", `{"cgt_content":"2024-04-01 BUY X 10 @ 10","taxable_income":"2024/26:52000"}`, false},
	{"report.calculate", "taxable_income_with_comma", `{"cgt_content":"2024-04-01 BUY X 10 @ 10","taxable_income":"52,000"}`, false},
	{"taxyear.info", "split_year", `{"year":2024}`, true},
	{"taxyear.info", "as_period", `{"year":"2010/11"}`, true},
	{"taxyear.info", "before_scope", `{"year":2001}`, false},
}

// bothSides2024 has gains of 15,000 before 30 October 2024 and 15,000 after (JSON-escaped).
const bothSides2024 = `2024-04-10 BUY X 1000 @ 10\n2024-06-01 SELL X 500 @ 40\n2024-11-15 SELL X 500 @ 40`

// usdLedger2026 buys in 2026-09 and sells in 2026-10, months after the bundled rates end
// (JSON-escaped, for the cases above).
const usdLedger2026 = `2026-09-10 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2026-10-15 SELL AAPL 40 @ 190.00 USD FEES 3.00 USD`

var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") == "1", "rewrite golden files")

func testRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := NewRegistry(&registry.Deps{ReadFile: os.ReadFile, ReadDir: registry.OSReadDir})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestGoldenEnvelopes(t *testing.T) {
	reg := testRegistry(t)
	used := map[string]bool{}
	for _, tc := range goldenCases {
		path := filepath.Join("testdata", tc.command, tc.name+".golden.json")
		used[filepath.ToSlash(path)] = true
		t.Run(tc.command+"/"+tc.name, func(t *testing.T) {
			res := reg.Execute(context.Background(), tc.command, json.RawMessage(tc.args))
			if res.OK != tc.ok {
				t.Fatalf("ok = %v, want %v: %s", res.OK, tc.ok, envelope.MarshalCompact(res))
			}
			got := envelope.MarshalIndent(res)
			checkOutputSchema(t, reg, tc.command, got)
			compareGolden(t, path, got)
		})
	}
	checkOrphans(t, used)
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("missing golden %s (run UPDATE_GOLDEN=1 go test ./commands)", path)
		}
		t.Skipf("missing golden %s (run UPDATE_GOLDEN=1 go test ./commands)", path)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run UPDATE_GOLDEN=1 go test ./commands to accept):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			return "line " + itoa(i+1) + ":\n  want " + w[i] + "\n  got  " + g[i]
		}
	}
	return "lengths differ"
}

func itoa(i int) string { return strconv.Itoa(i) }

// checkOrphans fails on golden files no case produces.
func checkOrphans(t *testing.T, used map[string]bool) {
	var orphans []string
	_ = filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".golden.json") && !used[filepath.ToSlash(p)] {
			orphans = append(orphans, p)
		}
		return nil
	})
	sort.Strings(orphans)
	if len(orphans) > 0 {
		t.Errorf("orphan golden files (delete them): %v", orphans)
	}
}

// checkOutputSchema validates an envelope against the command's published output schema.
func checkOutputSchema(t *testing.T, reg *registry.Registry, name string, out []byte) {
	t.Helper()
	cmd, _ := reg.Lookup(name)
	schema, _ := json.Marshal(registry.OutputSchema(cmd))
	c := jsonschema.NewCompiler()
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err := c.AddResource("out.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("out.json")
	if err != nil {
		t.Fatalf("output schema of %s does not compile: %v", name, err)
	}
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err := s.Validate(inst); err != nil {
		t.Errorf("output of %s does not match its published schema: %v", name, err)
	}
}
