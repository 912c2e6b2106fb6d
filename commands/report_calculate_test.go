package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

const taxLedger = "2023-05-01 BUY X 1000 @ 10\n2023-06-01 SELL X 400 @ 60\n2024-06-01 SELL X 300 @ 60\n2025-06-01 SELL X 300 @ 60"

func TestTaxableIncomeFromTheCommandLine(t *testing.T) {
	reg := testRegistry(t)
	cmd, _ := reg.Lookup("report.calculate")
	cases := []struct {
		name string
		argv []string
		want map[string]any
	}{
		{"one_amount", []string{"l.cgt", "taxable_income=52000"}, map[string]any{"path": []any{"l.cgt"}, "taxable_income": "52000"}},
		{"per_year", []string{"l.cgt", "taxable_income=2023:52000,2024:60000"}, map[string]any{"path": []any{"l.cgt"}, "taxable_income": "2023:52000,2024:60000"}},
		{"alias_and_flag", []string{"l.cgt", "--income", "2023/24:1", "--band-extension=2000"}, map[string]any{"path": []any{"l.cgt"}, "taxable_income": "2023/24:1", "basic_band_extension": "2000"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := registry.BindCLI(cmd, tc.argv, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// totals runs report.calculate on taxLedger with extra JSON arguments and lists each year's
// tax total ("-" for null).
func totals(t *testing.T, extra string) (string, []string) {
	t.Helper()
	reg := testRegistry(t)
	args := `{"cgt_content":` + jsonString(taxLedger) + extra + `}`
	res := reg.Execute(context.Background(), "report.calculate", json.RawMessage(args))
	if !res.OK {
		t.Fatalf("%s: %s", args, envelope.MarshalCompact(res))
	}
	rep := res.Data.(ReportResult).Report
	var out []string
	for _, y := range rep.TaxYears {
		v := "-"
		if y.Tax != nil {
			v = y.Tax.Total.String()
		}
		out = append(out, y.Period+"="+v)
	}
	return strings.Join(out, " "), res.Warnings
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestTaxableIncomeForms(t *testing.T) {
	// gains of 20,000, 15,000 and 15,000 in 2023/24, 2024/25 (before 30 October) and 2025/26
	cases := []struct {
		name, extra, want string
	}{
		{"none", ``, "2023/24=- 2024/25=- 2025/26=-"},
		{"json_number_every_year", `,"taxable_income":60000`, "2023/24=2800.00 2024/25=2400.00 2025/26=2880.00"},
		{"string_every_year", `,"taxable_income":"60000.00"`, "2023/24=2800.00 2024/25=2400.00 2025/26=2880.00"},
		{"per_year_string", `,"taxable_income":"2023:30000,2024/25:60000"`, "2023/24=2030.00 2024/25=2400.00 2025/26=-"},
		{"per_year_object", `,"taxable_income":{"2023-24":30000,"2025":"37700"}`, "2023/24=2030.00 2024/25=- 2025/26=2880.00"},
		{"band_extension", `,"taxable_income":37700,"basic_band_extension":{"2025/26":12000}`, "2023/24=2800.00 2024/25=2400.00 2025/26=2160.00"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings := totals(t, tc.extra)
			if got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
			if strings.Contains(tc.want, "-") && len(warnings) == 0 {
				t.Error("a null tax without a warning")
			}
		})
	}
}

func TestTaxableIncomeErrors(t *testing.T) {
	reg := testRegistry(t)
	cases := map[string]string{
		`"-5"`:                 "is negative",
		`"52,000"`:             "comma",
		`"£52000"`:             "comma or a £",
		`"1e5"`:                "not an amount",
		`"52000.001"`:          "more than two decimal places",
		`"2023:1,2023/24:2"`:   "twice",
		`"2007:1"`:             "does not name a tax year",
		`"2023=1"`:             "joins a tax year and its amount with =",
		`{}`:                   "names no tax year",
		`{"2024":"x"}`:         "not an amount",
		`{"2024/25":-1}`:       "is negative",
		`true`:                 "",
		`"2023:52000,2024"`:    "is not YEAR:AMOUNT",
		`"2023 : 1 , 2024: 2"`: "",
	}
	for value, want := range cases {
		args := `{"cgt_content":"2024-04-01 BUY X 10 @ 10","taxable_income":` + value + `}`
		res := reg.Execute(context.Background(), "report.calculate", json.RawMessage(args))
		if want == "" && value != "true" {
			if !res.OK {
				t.Errorf("%s: %s", value, envelope.MarshalCompact(res))
			}
			continue
		}
		if res.OK || res.Error == nil || res.Error.Code != envelope.InvalidArgument || !strings.Contains(res.Error.Message, want) {
			t.Errorf("%s: want invalid_argument with %q, got %s", value, want, envelope.MarshalCompact(res))
		}
	}
}

// TestLedgerNamedByItsFiles checks the name a report's records give their ledger: the files
// in the order they are read, paths and then files given inline by their names.
func TestLedgerNamedByItsFiles(t *testing.T) {
	const text = "2024-04-01 BUY AAPL 100 @ 150.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD"
	path := filepath.Join(t.TempDir(), "broker.cgt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	inline := map[string]any{"name": "my-trades.cgt", "content": text}
	reg := testRegistry(t)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"files": []any{inline}}, "my-trades.cgt"},
		{map[string]any{"path": []string{path}, "files": []any{inline}}, "broker.cgt+my-trades.cgt"},
		{map[string]any{"files": []any{path, inline}}, "broker.cgt+my-trades.cgt"},
		{map[string]any{"cgt_content": text}, "ledger"},
		{map[string]any{"files": []any{inline}, "extra": []string{"2024-07-01 BUY AAPL 1 @ 150.00 USD"}}, "my-trades.cgt+extra"},
	} {
		res := execArgs(reg, "report.calculate", c.args)
		if !res.OK {
			t.Fatalf("%v: %v", c.args, res.Error)
		}
		for r := range records.Of(res.Data) {
			if r.Kind == "tax_year" && r.Entity != c.want {
				t.Errorf("%v: the tax year's entity is %q, want %q", c.args, r.Entity, c.want)
			}
		}
	}
}

// TestAccountsObjectTakesAFileNameWithAComma checks the accounts argument's object form: the
// key is one file name or glob, commas and all, so a file named with one is put in its account.
func TestAccountsObjectTakesAFileNameWithAComma(t *testing.T) {
	inline := map[string]any{"name": "trades, 2024.cgt", "content": "2024-04-01 BUY AAPL 100 @ 150.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD"}
	res := execArgs(testRegistry(t), "report.calculate", map[string]any{"files": []any{inline}, "accounts": map[string]string{"trades, 2024.cgt": "MYISA:ISA"}})
	if !res.OK {
		t.Fatalf("%v", res.Error)
	}
	for r := range records.Of(res.Data) {
		if r.Kind == "disposal" {
			t.Errorf("a sale in an ISA is a chargeable disposal: %+v", r)
		}
	}
}
