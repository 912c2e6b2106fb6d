package taxyear

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

func date(y int, m time.Month, d int) model.Date { return model.NewDate(y, m, d) }

func TestScopeStart_is_6_April_2008(t *testing.T) {
	if ScopeStart != date(2008, time.April, 6) {
		t.Fatalf("ScopeStart = %s", ScopeStart)
	}
	if InScope(date(2008, time.April, 5)) || !InScope(date(2008, time.April, 6)) {
		t.Error("InScope boundary wrong")
	}
}

func TestFor_boundaries_every_year(t *testing.T) {
	for start := First; start <= 2030; start++ {
		y := Year{Start: start}
		cases := []struct {
			d    model.Date
			want int
		}{
			{date(start, time.April, 5), start - 1},
			{date(start, time.April, 6), start},
			{date(start, time.December, 31), start},
			{date(start+1, time.January, 1), start},
			{date(start+1, time.April, 5), start},
			{date(start+1, time.April, 6), start + 1},
		}
		for _, c := range cases {
			if got := For(c.d); got.Start != c.want {
				t.Errorf("For(%s) = %s, want start %d", c.d, got.Period(), c.want)
			}
		}
		if y.StartDate() != date(start, time.April, 6) || y.EndDate() != date(start+1, time.April, 5) {
			t.Errorf("%s runs %s to %s", y.Period(), y.StartDate(), y.EndDate())
		}
		if !y.Contains(y.StartDate()) || !y.Contains(y.EndDate()) || y.Contains(y.EndDate()+1) || y.Contains(y.StartDate()-1) {
			t.Errorf("%s Contains boundaries wrong", y.Period())
		}
	}
}

func TestPeriod(t *testing.T) {
	for start, want := range map[int]string{2008: "2008/09", 2009: "2009/10", 2024: "2024/25", 2099: "2099/00"} {
		if got := (Year{Start: start}).Period(); got != want {
			t.Errorf("Period(%d) = %s, want %s", start, got, want)
		}
	}
}

func TestAnnualExemptAmount_every_year(t *testing.T) {
	want := map[int]int64{
		2008: 9600, 2009: 10100, 2010: 10100, 2011: 10600, 2012: 10600, 2013: 10900, 2014: 11000,
		2015: 11100, 2016: 11100, 2017: 11300, 2018: 11700, 2019: 12000, 2020: 12300, 2021: 12300,
		2022: 12300, 2023: 6000,
	}
	for start := First; start <= 2030; start++ {
		w, ok := want[start]
		if !ok {
			w = 3000
		}
		y := Year{Start: start}
		if got := y.AnnualExemptAmount(); !got.Equal(decimal.NewFromInt(w)) {
			t.Errorf("%s AEA = %s, want %d", y.Period(), got, w)
		}
		if y.AnnualExemptReference() == "" {
			t.Errorf("%s AEA has no reference", y.Period())
		}
	}
	if !(Year{Start: 2007}).AnnualExemptAmount().IsZero() {
		t.Error("2007/08 has an AEA")
	}
}

// rates writes a year's rate periods compactly: "2024-04-06..2024-10-29 0.1/0.2".
func rates(y Year) []string {
	var out []string
	for _, p := range y.RatePeriods() {
		out = append(out, p.From.String()+".."+p.To.String()+" "+p.Basic.String()+"/"+p.Higher.String())
	}
	return out
}

func TestRatePeriods(t *testing.T) {
	cases := map[string]struct {
		start int
		want  []string
	}{
		"flat_18_2008":        {2008, []string{"2008-04-06..2009-04-05 0.18/0.18"}},
		"split_2010_23_june":  {2010, []string{"2010-04-06..2010-06-22 0.18/0.18", "2010-06-23..2011-04-05 0.18/0.28"}},
		"18_28_2015":          {2015, []string{"2015-04-06..2016-04-05 0.18/0.28"}},
		"10_20_from_2016":     {2016, []string{"2016-04-06..2017-04-05 0.1/0.2"}},
		"10_20_2023":          {2023, []string{"2023-04-06..2024-04-05 0.1/0.2"}},
		"split_2024_30_oct":   {2024, []string{"2024-04-06..2024-10-29 0.1/0.2", "2024-10-30..2025-04-05 0.18/0.24"}},
		"18_24_2025":          {2025, []string{"2025-04-06..2026-04-05 0.18/0.24"}},
		"projected_2030":      {2030, []string{"2030-04-06..2031-04-05 0.18/0.24"}},
		"out_of_scope_2007_8": {2007, nil},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := rates(Year{Start: c.start})
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestRatePeriods_cover_each_year(t *testing.T) {
	for start := First; start <= 2030; start++ {
		y := Year{Start: start}
		ps := y.RatePeriods()
		if ps[0].From != y.StartDate() || ps[len(ps)-1].To != y.EndDate() {
			t.Errorf("%s periods do not span the year", y.Period())
		}
		for i, p := range ps {
			if p.Reference == "" || p.From > p.To || (i > 0 && p.From != ps[i-1].To+1) {
				t.Errorf("%s period %d is malformed: %+v", y.Period(), i, p)
			}
		}
	}
}

func TestRatesOn(t *testing.T) {
	cases := []struct {
		d             model.Date
		basic, higher string
	}{
		{date(2010, time.June, 22), "0.18", "0.18"},
		{date(2010, time.June, 23), "0.18", "0.28"},
		{date(2016, time.April, 5), "0.18", "0.28"},
		{date(2016, time.April, 6), "0.1", "0.2"},
		{date(2024, time.October, 29), "0.1", "0.2"},
		{date(2024, time.October, 30), "0.18", "0.24"},
	}
	for _, c := range cases {
		p, ok := RatesOn(c.d)
		if !ok || p.Basic.String() != c.basic || p.Higher.String() != c.higher {
			t.Errorf("RatesOn(%s) = %s/%s %v, want %s/%s", c.d, p.Basic, p.Higher, ok, c.basic, c.higher)
		}
	}
	if _, ok := RatesOn(date(2008, time.April, 5)); ok {
		t.Error("rates before 6 April 2008")
	}
}

func TestNotes(t *testing.T) {
	if n := (Year{Start: 2023}).Notes(); len(n) != 0 {
		t.Errorf("2023/24 notes = %q", n)
	}
	n := (Year{Start: 2024}).Notes()
	if len(n) != 1 || !strings.Contains(n[0], "10%/20% to 29 October 2024, 18%/24% from 30 October 2024") {
		t.Errorf("2024/25 notes = %q", n)
	}
	n = (Year{Start: 2010}).Notes()
	if len(n) != 1 || !strings.Contains(n[0], "18% flat to 22 June 2010, 18%/28% from 23 June 2010") {
		t.Errorf("2010/11 notes = %q", n)
	}
	if (Year{Start: LastKnown}).Projected() || !(Year{Start: LastKnown + 1}).Projected() {
		t.Error("Projected boundary wrong")
	}
	if n := (Year{Start: LastKnown + 1}).Notes(); len(n) != 1 || !strings.Contains(n[0], "assumed unchanged") {
		t.Errorf("projected notes = %q", n)
	}
	if n := (Year{Start: 2007}).Notes(); len(n) != 1 || !strings.Contains(n[0], "out of scope") {
		t.Errorf("2007/08 notes = %q", n)
	}
}

func TestParse(t *testing.T) {
	ok := map[string]int{
		"2024": 2024, "2024/25": 2024, "2024-25": 2024, "2024/2025": 2024, "2024-2025": 2024,
		" 2024 / 25 ": 2024, "2024–25": 2024, "2008/09": 2008, "2099/00": 2099, "2030": 2030,
	}
	for s, want := range ok {
		y, err := Parse(s)
		if err != nil || y.Start != want {
			t.Errorf("Parse(%q) = %v, %v; want start %d", s, y, err, want)
		}
	}
	bad := map[string]string{
		"2024/26":    "inconsistent",
		"2024/2026":  "inconsistent",
		"2024/24":    "inconsistent",
		"2024/5":     "not in the form",
		"24/25":      "not in the form",
		"":           "not in the form",
		"abcd":       "not in the form",
		"2024/":      "not in the form",
		"2024/+5":    "inconsistent",
		"2007/08":    "out of scope",
		"1999":       "out of scope",
		"9999":       "out of range",
		"2024/25/26": "not in the form",
	}
	for s, want := range bad {
		_, err := Parse(s)
		var me *model.Error
		if !errors.As(err, &me) || me.Code != model.CodeInvalidArgument || me.Hint == "" || len(me.Examples) == 0 || me.Value != s {
			t.Errorf("Parse(%q) error = %#v", s, err)
			continue
		}
		if !strings.Contains(me.Message, want) {
			t.Errorf("Parse(%q) message %q does not contain %q", s, me.Message, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2024", "2024/25", "2024-2025", "2024/26", "", "2099/00", "2024–25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		y, err := Parse(s)
		if err != nil {
			if _, ok := err.(*model.Error); !ok {
				t.Fatalf("error %T is not a *model.Error", err)
			}
			return
		}
		if !y.InScope() || y.Start > maxStart {
			t.Fatalf("Parse(%q) = %d", s, y.Start)
		}
		if again, err := Parse(y.Period()); err != nil || again != y {
			t.Fatalf("Parse(Period()) of %q = %v, %v", s, again, err)
		}
	})
}

func TestBasicRateLimit_every_year(t *testing.T) {
	want := map[int]int64{
		2008: 34800, 2009: 37400, 2010: 37400, 2011: 35000, 2012: 34370, 2013: 32010, 2014: 31865,
		2015: 31785, 2016: 32000, 2017: 33500, 2018: 34500, 2019: 37500, 2020: 37500,
	}
	for start := First; start <= 2030; start++ {
		w, ok := want[start]
		if !ok {
			w = 37700
		}
		y := Year{Start: start}
		if got := y.BasicRateLimit(); !got.Equal(decimal.NewFromInt(w)) {
			t.Errorf("%s basic rate limit = %s, want %d", y.Period(), got, w)
		}
		if !strings.Contains(y.BasicRateLimitReference(), "Scottish") {
			t.Errorf("%s reference %q", y.Period(), y.BasicRateLimitReference())
		}
	}
	if !(Year{Start: 2007}).BasicRateLimit().IsZero() {
		t.Error("2007/08 has a basic rate limit")
	}
}

func TestReportingThreshold(t *testing.T) {
	for start, want := range map[int]int64{2008: 38400, 2019: 48000, 2022: 49200, 2023: 50000, 2024: 50000, 2030: 50000} {
		if got := (Year{Start: start}).ReportingThreshold(); !got.Equal(decimal.NewFromInt(want)) {
			t.Errorf("%d threshold = %s, want %d", start, got, want)
		}
	}
}
