package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry/reflectschema"
)

type echoArgs struct {
	Ticker   string   `json:"ticker" jsonschema:"required" jsonschema_description:"share ticker" cgt:"pos=0,alias=symbol"`
	Year     any      `json:"year,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"tax year"`
	Month    int      `json:"month,omitempty" jsonschema:"minimum=1,maximum=12,default=3" jsonschema_description:"month 1-12"`
	Paths    []string `json:"path,omitempty" jsonschema_description:"ledger files" cgt:"pos=1,alias=file"`
	Verbose  bool     `json:"verbose,omitempty" jsonschema_description:"say more"`
	Currency string   `json:"currency,omitempty" jsonschema:"enum=GBP,enum=USD" jsonschema_description:"currency code"`
	Date     string   `json:"date,omitempty" jsonschema:"format=date" jsonschema_description:"a day"`
}

type echoResult struct {
	Args echoArgs `json:"args"`
}

func echoRegistry(t testing.TB) *Registry {
	t.Helper()
	cmd := NewCommand(Meta{Name: "test.echo", MCPName: "echo", Summary: "echo", Examples: []Example{{"x", []string{"AAPL"}}}},
		func(_ context.Context, _ *Deps, a echoArgs) (echoResult, []string, error) {
			if a.Ticker == "PANIC" {
				panic("boom")
			}
			if a.Ticker == "FAIL" {
				return echoResult{}, []string{"kept"}, errors.New("plain failure")
			}
			return echoResult{a}, nil, nil
		})
	r, err := New(&Deps{Schemas: reflectschema.Live{}}, cmd)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBindCLI(t *testing.T) {
	r := echoRegistry(t)
	c, _ := r.Lookup("test.echo")
	cases := []struct {
		name string
		argv []string
		want map[string]any
	}{
		{"positional", []string{"AAPL"}, map[string]any{"ticker": "AAPL"}},
		{"variadic_positionals", []string{"AAPL", "a.cgt", "b.cgt"}, map[string]any{"ticker": "AAPL", "path": []any{"a.cgt", "b.cgt"}}},
		{"key_value", []string{"ticker=VOD", "month=4"}, map[string]any{"ticker": "VOD", "month": "4"}},
		{"flag_space", []string{"--ticker", "VOD"}, map[string]any{"ticker": "VOD"}},
		{"flag_equals", []string{"--ticker=VOD"}, map[string]any{"ticker": "VOD"}},
		{"alias_flag", []string{"--symbol", "VOD"}, map[string]any{"ticker": "VOD"}},
		{"bool_flag_alone", []string{"--verbose", "X"}, map[string]any{"verbose": "true", "ticker": "X"}},
		{"json", []string{"--json", `{"ticker":"T","month":2}`}, map[string]any{"ticker": "T", "month": json.Number("2")}},
		{"repeated_array", []string{"file=a", "file=b"}, map[string]any{"path": []any{"a", "b"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BindCLI(c, tc.argv, nil)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestBindCLIErrors(t *testing.T) {
	r := echoRegistry(t)
	c, _ := r.Lookup("echo")
	for _, argv := range [][]string{{"nope=1"}, {"--nope"}, {"--ticker"}, {"--json", "[1]"}} {
		_, err := BindCLI(c, argv, nil)
		if err == nil || err.Code != envelope.UsageError {
			t.Errorf("%v: want usage_error, got %v", argv, err)
		}
	}
}

func TestExecute(t *testing.T) {
	r := echoRegistry(t)
	ctx := context.Background()
	cases := []struct {
		name, args string
		ok         bool
		code       envelope.Code
		inMessage  string
	}{
		{"defaults_and_coercion", `{"symbol":"AAPL","year":2024}`, true, "", ""},
		{"string_number_for_integer", `{"ticker":"AAPL","month":"7"}`, true, "", ""},
		{"missing_required", `{}`, false, envelope.UsageError, "missing required argument ticker"},
		{"unknown_argument", `{"ticker":"A","colour":"red"}`, false, envelope.UsageError, `unknown argument "colour"`},
		{"out_of_range", `{"ticker":"A","month":13}`, false, envelope.InvalidArgument, "= 13"},
		{"enum", `{"ticker":"A","currency":"EUR"}`, false, envelope.InvalidArgument, `= "EUR"`},
		{"not_a_date_says_the_form_not_the_go_layout", `{"ticker":"A","date":"yesterday"}`, false, envelope.InvalidArgument, `date = "yesterday": not a calendar date in the form YYYY-MM-DD`},
		{"impossible_date", `{"ticker":"A","date":"2024-02-30"}`, false, envelope.InvalidArgument, `date = "2024-02-30": not a calendar date`},
		{"alias_twice", `{"ticker":"A","symbol":"B"}`, false, envelope.UsageError, "twice"},
		{"not_json", `{`, false, envelope.UsageError, "not valid JSON"},
		{"second_object_after_the_first", `{"ticker":"A"}{"month":13}`, false, envelope.UsageError, `unexpected "{"month":13}" after the object`},
		{"whole_number_with_fraction_for_integer", `{"ticker":"A","month":4.0}`, true, "", ""},
		{"whole_number_with_exponent_for_integer", `{"ticker":"A","month":"4e0"}`, true, "", ""},
		{"fraction_for_integer", `{"ticker":"A","month":4.5}`, false, envelope.InvalidArgument, "month = 4.5"},
		{"nan_string_for_integer_names_the_value", `{"ticker":"A","month":"NaN"}`, false, envelope.InvalidArgument, `month = "NaN"`},
		{"inf_string_for_integer_names_the_value", `{"ticker":"A","month":"Inf"}`, false, envelope.InvalidArgument, `month = "Inf"`},
		{"huge_negative_exponent", `{"ticker":"A","month":1e-999999999}`, false, envelope.InvalidArgument, "month = 1e-999999999"},
		{"panic_is_internal_error", `{"ticker":"PANIC"}`, false, envelope.InternalError, "failed unexpectedly"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := r.Execute(ctx, "test.echo", json.RawMessage(tc.args))
			if res.OK != tc.ok {
				t.Fatalf("ok=%v, error=%+v", res.OK, res.Error)
			}
			if !tc.ok && (res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.inMessage)) {
				t.Errorf("got %s %q, want %s containing %q", res.Error.Code, res.Error.Message, tc.code, tc.inMessage)
			}
			if res.Warnings == nil {
				t.Error("warnings must never be nil")
			}
		})
	}
	res := r.Execute(ctx, "echo", json.RawMessage(`{"ticker":"AAPL"}`))
	if got := res.Data.(echoResult).Args.Month; got != 3 {
		t.Errorf("default month not applied: %d", got)
	}
	res = r.Execute(ctx, "echo", json.RawMessage(`{"ticker":"AAPL","month":4.0}`))
	if got := res.Data.(echoResult).Args.Month; got != 4 {
		t.Errorf("month 4.0 read as %d", got)
	}
	res = r.Execute(ctx, "echo", json.RawMessage(`{"ticker":"FAIL"}`))
	if res.OK || len(res.Warnings) != 1 {
		t.Errorf("warnings lost on failure: %+v", res)
	}
	res = r.Execute(ctx, "echo", json.RawMessage(`{"ticker":"A","colour":"red"}`))
	if res.OK || len(res.Error.Examples) != 1 || res.Error.Examples[0] != "cgt test.echo AAPL" {
		t.Errorf("an unknown argument should carry the command's example: %+v", res.Error)
	}
	res = r.Execute(ctx, "tset.echo", nil)
	if res.OK || res.Error.Code != envelope.UsageError {
		t.Errorf("unknown command: %+v", res.Error)
	}
}

// A value outside an argument's values that is one of them but for case, or two edits or
// fewer from exactly one, is answered with that value; otherwise with the list alone.
func TestEnumValueSuggestion(t *testing.T) {
	r := echoRegistry(t)
	for given, want := range map[string]string{
		"gbp": `Did you mean "GBP"? `, "GPB": `Did you mean "GBP"? `, "USDD": `Did you mean "USD"? `,
		"EUR": "", "XXXXX": "", "": "",
	} {
		res := r.Execute(context.Background(), "test.echo", json.RawMessage(`{"ticker":"A","currency":`+strconv.Quote(given)+`}`))
		if res.OK {
			t.Fatalf("%q accepted", given)
		}
		hint := res.Error.Hint
		if !strings.HasPrefix(hint, want) || want == "" && strings.HasPrefix(hint, "Did you mean") || !strings.Contains(hint, "one of [GBP USD]") {
			t.Errorf("%q: hint %q, want it to begin %q and list the values", given, hint, want)
		}
	}
}

func TestArgSpecs(t *testing.T) {
	r := echoRegistry(t)
	c, _ := r.Lookup("echo")
	specs := c.Args()
	if specs[0].Name != "ticker" || !specs[0].Required || *specs[0].Positional != 0 || specs[0].Aliases[0] != "symbol" {
		t.Errorf("ticker spec %+v", specs[0])
	}
	if specs[1].Type != "integer|string" {
		t.Errorf("year type %q", specs[1].Type)
	}
	if !specs[3].Variadic {
		t.Errorf("path should be variadic: %+v", specs[3])
	}
}

func TestUnknownCommandSuggestion(t *testing.T) {
	r := echoRegistry(t)
	cases := []struct{ name, suggest string }{
		{"tset.echo", "test.echo"},
		{"ech", "test.echo"},
		{"test", "test.echo"},
		{"x", ""},
		{"", ""},
		{"te", ""},
		{"echoes", "test.echo"},
	}
	for _, tc := range cases {
		hint := r.Execute(context.Background(), tc.name, nil).Error.Hint
		got := ""
		if s, ok := strings.CutPrefix(hint, "Did you mean "); ok {
			got, _, _ = strings.Cut(s, "?")
		}
		if got != tc.suggest {
			t.Errorf("%q: suggested %q, want %q (hint %q)", tc.name, got, tc.suggest, hint)
		}
	}
}

// noSchemas is a schema source with nothing in it, as for a command added without make gen.
type noSchemas struct{}

func (noSchemas) Schema(command, role string, _ reflect.Type) (map[string]any, error) {
	return nil, fmt.Errorf("no %s schema for %s: run make gen after adding or changing a command", role, command)
}

func TestCommandWithoutSchemaSaysToRunGen(t *testing.T) {
	cmd := NewCommand(Meta{Name: "test.new", MCPName: "new", Summary: "new"},
		func(_ context.Context, _ *Deps, a echoArgs) (echoResult, []string, error) {
			return echoResult{a}, nil, nil
		})
	r, err := New(&Deps{Schemas: noSchemas{}}, cmd)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Execute(context.Background(), "test.new", json.RawMessage(`{"ticker":"X"}`))
	if res.OK || res.Error.Code != envelope.InternalError || !strings.Contains(res.Error.Hint, "make gen") ||
		strings.Contains(res.Error.Message, "nil pointer") {
		t.Errorf("got %+v, want an internal_error whose hint says to run make gen", res.Error)
	}
}

// TestArgumentErrorExample: an argument error's example gives that argument: the command's
// first example that does, else the first with a valid value added when the schema tells one.
func TestArgumentErrorExample(t *testing.T) {
	cmd := NewCommand(Meta{Name: "test.echo", MCPName: "echo", Summary: "echo", Examples: []Example{
		{"plain", []string{"AAPL"}},
		{"a month", []string{"VOD", "month=4"}},
		{"a file, by its alias", []string{"VOD", "file=a.cgt"}},
	}}, func(_ context.Context, _ *Deps, a echoArgs) (echoResult, []string, error) {
		return echoResult{a}, nil, nil
	})
	r, err := New(&Deps{Schemas: reflectschema.Live{}}, cmd)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := r.Lookup("test.echo")
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"ticker": "X", "month": 13}, "cgt test.echo VOD month=4"},
		{map[string]any{"ticker": "X", "date": "2024-13-01"}, "cgt test.echo AAPL date=2024-04-06"},
		{map[string]any{"ticker": "X", "currency": "EUR"}, "cgt test.echo AAPL currency=GBP"},
		{map[string]any{"ticker": "X", "verbose": "maybe"}, "cgt test.echo AAPL"},
		{map[string]any{"ticker": "X", "path": 7}, "cgt test.echo VOD file=a.cgt"},
	}
	for _, tc := range cases {
		res := r.ExecuteArgs(context.Background(), c, tc.args)
		if res.OK || len(res.Error.Examples) != 1 || res.Error.Examples[0] != tc.want {
			t.Errorf("%v: %+v, want the example %q", tc.args, res.Error, tc.want)
		}
	}
}
