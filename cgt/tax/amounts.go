package tax

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
)

// Amounts is an amount of pounds given once, for every tax year, or per tax year: the taxable
// income and the basic band's extension. Over JSON a number or a string (one amount, or
// "2023:52000,2024:60000"), or an object keyed by tax year ({"2023/24": 52000, "2024": "60000"}).
type Amounts struct {
	all     *decimal.Decimal
	byYear  map[int]decimal.Decimal
	ordered []int // the years given, in order
}

// ReadAmounts reads the argument named arg from its JSON value. Its errors are
// invalid_argument naming the argument and the value, with both forms as examples.
func ReadAmounts(arg string, raw []byte) (*Amounts, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, amountError(arg, string(raw), "is not valid JSON")
	}
	switch t := v.(type) {
	case json.Number:
		return one(arg, t.String())
	case string:
		if !strings.Contains(t, ":") {
			if strings.Contains(t, "=") {
				return nil, amountError(arg, t, "joins a tax year and its amount with =: write YEAR:AMOUNT, e.g. 2023:52000,2024:60000")
			}
			return one(arg, t)
		}
		r := &Amounts{byYear: map[int]decimal.Decimal{}}
		for _, pair := range strings.Split(t, ",") {
			year, amount, ok := strings.Cut(pair, ":")
			if !ok {
				return nil, amountError(arg, pair, "is not YEAR:AMOUNT")
			}
			if strings.Contains(amount, ":") {
				return nil, amountError(arg, pair, "holds two tax years: separate them with commas, e.g. 2023:52000,2024:60000")
			}
			if err := r.add(arg, year, amount); err != nil {
				return nil, err
			}
		}
		return r, nil
	case map[string]any:
		r := &Amounts{byYear: map[int]decimal.Decimal{}}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		order.Ascending(keys)
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
	return nil, amountError(arg, string(raw), "is neither an amount nor amounts by tax year")
}

// one is one amount for every year.
func one(arg, s string) (*Amounts, error) {
	d, err := parseAmount(arg, s)
	if err != nil {
		return nil, err
	}
	return &Amounts{all: &d}, nil
}

func (r *Amounts) add(arg, year, amount string) error {
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

// For is the amount for a tax year; ok is false when the amounts name other years only (or r
// is nil: none was given).
func (r *Amounts) For(y taxyear.Year) (decimal.Decimal, bool) {
	if r == nil {
		return decimal.Zero, false
	}
	if r.all != nil {
		return *r.all, true
	}
	d, ok := r.byYear[y.Start]
	return d, ok
}

// Years are the first calendar years of the tax years named, in the order given; none for one
// amount for every year.
func (r *Amounts) Years() []int {
	if r == nil {
		return nil
	}
	return r.ordered
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
	case err != nil || text == "" || !model.PlainNumber(text):
		return decimal.Zero, amountError(arg, s, "is not an amount of GBP")
	case d.Exponent() < -2 && !d.Equal(d.Round(2)):
		return decimal.Zero, amountError(arg, s, "has more than two decimal places")
	}
	return d, nil
}

func amountError(arg, value, why string) error {
	return &model.Error{Code: model.CodeInvalidArgument,
		Message:  fmt.Sprintf("%s %q %s", arg, clip(value), why),
		Hint:     "Give one amount of GBP for every year (52000), or amounts per tax year: 2023:52000,2024:60000 in the CLI, {\"2023/24\": 52000, \"2024/25\": 60000} over JSON.",
		Examples: []string{arg + "=52000", arg + "=2023:52000,2024:60000"},
		Context:  map[string]any{"argument": arg, "value": value}} // the value even when empty
}

// clip shortens a value quoted in a message to 60 characters.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// IncomeFor is a tax year's income from the taxable income and the band extension given, or
// nil when the taxable income gives none for the year.
func IncomeFor(taxable, extension *Amounts, y taxyear.Year) *Income {
	ti, ok := taxable.For(y)
	if !ok {
		return nil
	}
	ext, _ := extension.For(y)
	return &Income{TaxableIncome: ti, BandExtension: ext}
}
