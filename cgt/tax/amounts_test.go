package tax

import (
	"errors"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
)

func TestReadAmountsOnceOrPerYear(t *testing.T) {
	cases := map[string]string{
		`52000`:                        "2023/24=52000 2024/25=52000",
		`"52000.5"`:                    "2023/24=52000.5 2024/25=52000.5",
		`"2023:1,2024/25:2"`:           "2023/24=1 2024/25=2",
		`{"2024-2025":"3.25"}`:         "2023/24=- 2024/25=3.25",
		`" 2023 / 24 : 7 , 2024 : 8 "`: "2023/24=7 2024/25=8",
	}
	for raw, want := range cases {
		r, err := ReadAmounts("taxable_income", []byte(raw))
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		got := ""
		{
			for _, start := range []int{2023, 2024} {
				y := taxyear.Year{Start: start}
				v, ok := r.For(y)
				s := "-"
				if ok {
					s = v.String()
				}
				if got != "" {
					got += " "
				}
				got += y.Period() + "=" + s
			}
		}
		if got != want {
			t.Errorf("%s: got %s, want %s", raw, got, want)
		}
	}
}

// The typos that read as a year and an amount are refused with what to write: = for :, and
// a space where the comma between two years goes.
func TestReadAmountsTypos(t *testing.T) {
	for raw, want := range map[string]string{
		`"2023=52000,2024=60000"`: "joins a tax year and its amount with =",
		`"2024=60000"`:            "joins a tax year and its amount with =",
		`"2023:52000 2024:60000"`: "holds two tax years: separate them with commas",
		`"52,000"`:                "has a comma or a £ sign",
	} {
		_, err := ReadAmounts("taxable_income", []byte(raw))
		var e *model.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, want) || e.Code != model.CodeInvalidArgument || len(e.Examples) == 0 {
			t.Errorf("%s: error %v, want %q", raw, err, want)
		}
	}
}

func FuzzReadAmounts(f *testing.F) {
	for _, s := range []string{`52000`, `"2023:1,2024:2"`, `{"2024/25":1}`, `"52,000"`, `{"x":{}}`, `[1]`, `"2023:"`, `"::"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := ReadAmounts("taxable_income", []byte(raw))
		if err != nil {
			var e *model.Error
			if !errors.As(err, &e) || e.Code != model.CodeInvalidArgument || e.Hint == "" {
				t.Fatalf("%q: error %#v", raw, err)
			}
			return
		}
		for start := taxyear.First; r != nil && start <= 2030; start++ {
			if v, ok := r.For(taxyear.Year{Start: start}); ok && (v.IsNegative() || v.Exponent() < -2 && !v.Equal(v.Round(2))) {
				t.Fatalf("%q: amount %s accepted", raw, v)
			}
		}
	})
}
