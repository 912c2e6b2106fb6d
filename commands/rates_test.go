package commands

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// The commands that convert currencies, which must all take rates; no other command should.
var convertingCommands = []string{"report.calculate", "matching.explain", "holdings.list", "fx.rate", "plan.sale", "plan.allowance", "plan.harvest"}

func TestRatesArgumentOnEveryConvertingCommand(t *testing.T) {
	for _, cmd := range testRegistry(t).Commands() {
		name := cmd.Meta().Name
		var spec *registry.ArgSpec
		for _, a := range cmd.Args() {
			if a.Name == "rates" {
				spec = &a
			}
		}
		want := slices.Contains(convertingCommands, name)
		if (spec != nil) != want {
			t.Errorf("%s: takes rates = %v, want %v", name, spec != nil, want)
			continue
		}
		if spec != nil && (spec.Type != "array" || spec.Positional != nil || spec.Required) {
			t.Errorf("%s: rates is %+v, want an optional, non-positional array", name, *spec)
		}
		if spec != nil && cmd.Meta().SideEffects != registry.LocalFileRead {
			t.Errorf("%s reads rate files, so its side effects are %s, not %s", name, registry.LocalFileRead, cmd.Meta().SideEffects)
		}
	}
}

// CLI words → arguments object, the handler not run.
func TestRatesArgumentFromTheCommandLine(t *testing.T) {
	reg := testRegistry(t)
	cases := []struct {
		name    string
		command string
		argv    []string
		want    map[string]any
	}{
		{"flag_repeated", "fx.rate", []string{"USD", "2026", "10", "--rates", "a.xml", "--rates", "rates/"},
			map[string]any{"currency": "USD", "year": "2026", "month": "10", "rates": []any{"a.xml", "rates/"}}},
		{"flag_equals", "fx.rate", []string{"USD", "2026", "10", "--rates=a.xml"},
			map[string]any{"currency": "USD", "year": "2026", "month": "10", "rates": []any{"a.xml"}}},
		{"key_value", "fx.rate", []string{"rates=a.xml", "USD", "2026", "10"},
			map[string]any{"currency": "USD", "year": "2026", "month": "10", "rates": []any{"a.xml"}}},
		{"alias_with_dashes", "fx.rate", []string{"USD", "2026", "10", "--rate-file", "a.xml"},
			map[string]any{"currency": "USD", "year": "2026", "month": "10", "rates": []any{"a.xml"}}},
		{"json_array_as_text", "fx.rate", []string{"USD", "2026", "10", `rates=["a.xml","b.xml"]`},
			map[string]any{"currency": "USD", "year": "2026", "month": "10", "rates": []any{"a.xml", "b.xml"}}},
		{"json_object", "fx.rate", []string{"--json", `{"currency":"USD","year":2026,"month":10,"rates":["a.xml"]}`},
			map[string]any{"currency": "USD", "year": json.Number("2026"), "month": json.Number("10"), "rates": []any{"a.xml"}}},
		{"not_a_ledger_path", "report.calculate", []string{"ledger.cgt", "--rates", "rates/", "more.cgt", "year=2026"},
			map[string]any{"path": []any{"ledger.cgt", "more.cgt"}, "rates": []any{"rates/"}, "year": "2026"}},
		{"explain", "matching.explain", []string{"ledger.cgt", "date=2026-10-15", "ticker=AAPL", "--rates", "2026-10.xml"},
			map[string]any{"path": []any{"ledger.cgt"}, "disposal_date": "2026-10-15", "ticker": "AAPL", "rates": []any{"2026-10.xml"}}},
		{"holdings", "holdings.list", []string{"--rates", "rates/", "ledger.cgt"},
			map[string]any{"path": []any{"ledger.cgt"}, "rates": []any{"rates/"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd, _ := reg.Lookup(tc.command)
			got, err := registry.BindCLI(cmd, tc.argv, nil)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestFileRatesLookup(t *testing.T) {
	src, _, err := RatesArgs{Rates: []string{"testdata/rates/good"}}.source(testRegistry(t).Deps())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, currency string
		year           int
		month          time.Month
		rate, errCode  string
	}{
		{"from_file", "USD", 2026, time.October, "1.3250", ""},
		{"lower_case_code", " usd ", 2026, time.October, "1.3250", ""},
		{"bundled_month", "USD", 2024, time.March, "1.2614", ""},
		{"sterling_is_one", "GBP", 2026, time.October, "1", ""},
		{"pence_still_refused", "GBp", 2026, time.October, "", "invalid_argument"},
		{"currency_not_in_file", "CHF", 2026, time.October, "", "fx_rate_unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := src.Rate(tc.currency, tc.year, tc.month)
			if tc.errCode != "" {
				if err == nil {
					t.Fatalf("rate %s, want error %s", r.Text(), tc.errCode)
				}
				if got := envelope.FromError(withRatesRemedy(err, src)); string(got.Code) != tc.errCode {
					t.Errorf("error %v, want code %s", got, tc.errCode)
				}
				return
			}
			if err != nil || r.Text() != tc.rate {
				t.Errorf("got %s, %v; want %s", r.Text(), err, tc.rate)
			}
		})
	}
}

func TestFileRateReplacesOnlyItsCurrencies(t *testing.T) {
	src, _, err := RatesArgs{Rates: []string{"testdata/rates/replace/2026-08.xml"}}.source(testRegistry(t).Deps())
	if err != nil {
		t.Fatal(err)
	}
	if r, err := src.Rate("USD", 2026, time.August); err != nil || r.Text() != "1.2500" {
		t.Errorf("USD from the file: %s, %v; want 1.2500", r.Text(), err)
	}
	bundled, err := fx.Embedded().Rate("EUR", 2026, time.August)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := src.Rate("EUR", 2026, time.August); err != nil || r.Text() != bundled.Text() || r.Source != bundled.Source {
		t.Errorf("EUR, not in the file: %+v, %v; want the bundled %+v", r, err, bundled)
	}
}
