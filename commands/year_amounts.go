package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/plan"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
)

// YearAmounts is an argument giving an amount of GBP either once, for every tax year, or per
// tax year. Over JSON it is a number or a string (one amount, or "2023:52000,2024:60000"), or
// an object keyed by tax year ({"2023/24": 52000, "2024": "60000"}); in the CLI the string
// forms. The value is kept as given and read by Resolve, so errors can name the argument.
type YearAmounts struct {
	raw json.RawMessage
}

// UnmarshalJSON keeps the value as given; Resolve reads it.
func (a *YearAmounts) UnmarshalJSON(b []byte) error {
	a.raw = append(json.RawMessage(nil), b...)
	return nil
}

// SchemaMap publishes the three forms as alternatives of the one property (read by the schema
// reflector of cgt gen; a plain map, so that running a command links no reflector). The
// alternatives sit inside the property, not at the top of the input schema, which some MCP
// clients refuse. Amounts are checked by Resolve, whose errors say more than a schema failure
// would.
func (YearAmounts) SchemaMap() map[string]any {
	amount := map[string]any{"oneOf": []any{map[string]any{"type": "number"}, map[string]any{"type": "string"}}}
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "number"},
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "additionalProperties": amount},
	}}
}

// resolvedAmounts is a YearAmounts read: one amount for every year, or one per year.
type resolvedAmounts struct {
	all     *decimal.Decimal
	byYear  map[int]decimal.Decimal
	ordered []int // the years given, in order
}

// given reports whether the argument was passed.
func (a *YearAmounts) given() bool {
	return a != nil && len(a.raw) > 0 && !bytes.Equal(bytes.TrimSpace(a.raw), []byte("null"))
}

// Resolve reads the argument named arg; a nil result means it was not given.
func (a *YearAmounts) Resolve(arg string) (*resolvedAmounts, error) {
	if !a.given() {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(a.raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, amountError(arg, string(a.raw), "is not valid JSON")
	}
	switch t := v.(type) {
	case json.Number:
		d, err := parseAmount(arg, t.String())
		if err != nil {
			return nil, err
		}
		return &resolvedAmounts{all: &d}, nil
	case string:
		if !strings.Contains(t, ":") {
			d, err := parseAmount(arg, t)
			if err != nil {
				return nil, err
			}
			return &resolvedAmounts{all: &d}, nil
		}
		r := &resolvedAmounts{byYear: map[int]decimal.Decimal{}}
		for _, pair := range strings.Split(t, ",") {
			year, amount, ok := strings.Cut(pair, ":")
			if !ok {
				return nil, amountError(arg, pair, "is not YEAR:AMOUNT")
			}
			if err := r.add(arg, year, amount); err != nil {
				return nil, err
			}
		}
		return r, nil
	case map[string]any:
		r := &resolvedAmounts{byYear: map[int]decimal.Decimal{}}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := r.add(arg, k, fmt.Sprint(t[k])); err != nil {
				return nil, err
			}
		}
		if len(r.byYear) == 0 {
			return nil, amountError(arg, "{}", "names no tax year")
		}
		return r, nil
	}
	return nil, amountError(arg, string(a.raw), "is neither an amount nor amounts by tax year")
}

func (r *resolvedAmounts) add(arg, year, amount string) error {
	y, err := taxyear.Parse(year)
	if err != nil {
		return amountError(arg, year, "does not name a tax year: "+err.Error())
	}
	if _, dup := r.byYear[y.Start]; dup {
		return amountError(arg, year, "names "+y.Period()+" twice")
	}
	d, err := parseAmount(arg, amount)
	if err != nil {
		return err
	}
	r.byYear[y.Start] = d
	r.ordered = append(r.ordered, y.Start)
	return nil
}

// For is the amount for a tax year; ok is false when the argument names other years only.
func (r *resolvedAmounts) For(y taxyear.Year) (decimal.Decimal, bool) {
	if r == nil {
		return decimal.Zero, false
	}
	if r.all != nil {
		return *r.all, true
	}
	d, ok := r.byYear[y.Start]
	return d, ok
}

// parseAmount reads a non-negative amount of GBP with at most two decimal places.
func parseAmount(arg, s string) (decimal.Decimal, error) {
	text := strings.TrimSpace(s)
	if strings.ContainsAny(text, ",£") {
		return decimal.Zero, amountError(arg, s, "has a comma or a £ sign: write the plain number, e.g. 52000")
	}
	d, err := decimal.NewFromString(text)
	switch {
	case err == nil && d.IsNegative():
		return decimal.Zero, amountError(arg, s, "is negative")
	case err != nil || text == "" || !isPlainNumber(text):
		return decimal.Zero, amountError(arg, s, "is not an amount of GBP")
	case d.Exponent() < -2 && !d.Equal(d.Round(2)):
		return decimal.Zero, amountError(arg, s, "has more than two decimal places")
	}
	return d, nil
}

// isPlainNumber accepts digits with at most one decimal point: no exponent, sign or spaces.
func isPlainNumber(s string) bool { return plan.PlainNumber(s) }

func amountError(arg, value, why string) *envelope.Error {
	return envelope.New(envelope.InvalidArgument,
		fmt.Sprintf("%s %q %s", arg, clipArg(value), why),
		"Give one amount of GBP for every year (52000), or amounts per tax year: 2023:52000,2024:60000 in the CLI, {\"2023/24\": 52000, \"2024/25\": 60000} over JSON.",
		arg+"=52000", arg+"=2023:52000,2024:60000").With("argument", arg).With("value", value)
}

func clipArg(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
