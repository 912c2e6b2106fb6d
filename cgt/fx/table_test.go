package fx

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// hmrcDir is HMRC's monthly files, shared beside the repository.
var hmrcDir = filepath.Join("..", "..", "..", "shared", "hmrc-rates", "monthly")

// requireHMRCDir skips when HMRC's files are absent, except in CI where they must be present.
func requireHMRCDir(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(hmrcDir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("HMRC monthly files not found at %s (required when CI=true): %v", hmrcDir, err)
		}
		t.Skipf("HMRC monthly files not found at %s; skipping", hmrcDir)
	}
}

func readXMLFile(t testing.TB, name string) Month {
	t.Helper()
	f, err := os.Open(filepath.Join(hmrcDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ReadMonthly(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

func fxError(t *testing.T, err error, code string) *model.Error {
	t.Helper()
	var me *model.Error
	if !errors.As(err, &me) {
		t.Fatalf("error = %v (%T), want *model.Error", err, err)
	}
	if me.Code != code {
		t.Fatalf("code = %q, want %q (%s)", me.Code, code, me.Message)
	}
	if me.Hint == "" || len(me.Examples) == 0 {
		t.Errorf("error %q lacks a hint or an example", me.Message)
	}
	return me
}

func TestEmbedded_matches_published_rate(t *testing.T) {
	requireHMRCDir(t)
	m := readXMLFile(t, "2024-03.xml")
	var want Rate
	for _, r := range m.Rates {
		if r.Currency == "USD" {
			want = r
		}
	}
	got, err := Embedded().Rate("USD", 2024, time.March)
	if err != nil {
		t.Fatal(err)
	}
	if got.Text() != want.Text() || !got.PerGBP.Equal(want.PerGBP) || got.Period != "2024-03" {
		t.Errorf("USD 2024-03 = %s (%s), want %s", got.Text(), got.Period, want.Text())
	}
	if got.Source != "HMRC monthly exchange rates, 2024-03 (Open Government Licence v3.0)" {
		t.Errorf("source = %q", got.Source)
	}
}

func TestEmbedded_every_rate_of_every_file(t *testing.T) {
	requireHMRCDir(t)
	names, _ := filepath.Glob(filepath.Join(hmrcDir, "*.xml"))
	tab := Embedded()
	for _, name := range names {
		m := readXMLFile(t, filepath.Base(name))
		p, _ := parsePeriod(m.Period)
		for _, want := range m.Rates {
			got, err := tab.Rate(want.Currency, int(p)/12, time.Month(int(p)%12+1))
			if err != nil || got.Text() != want.Text() {
				t.Fatalf("%s %s = %s, %v; want %s", want.Currency, m.Period, got.Text(), err, want.Text())
			}
		}
	}
}

func TestRate_GBP_and_case(t *testing.T) {
	tab := Embedded()
	r, err := tab.Rate("GBP", 2010, time.January) // before the table starts: GBP needs no rate
	if err != nil || !r.PerGBP.Equal(decimal.NewFromInt(1)) || r.Source != GBPSource || r.Period != "2010-01" {
		t.Fatalf("GBP = %+v, %v", r, err)
	}
	lower, err1 := tab.Rate(" usd ", 2024, time.March)
	upper, err2 := tab.Rate("USD", 2024, time.March)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(lower, upper) {
		t.Fatalf("usd = %+v %v; USD = %+v %v", lower, err1, upper, err2)
	}
}

func TestRate_pence_refused(t *testing.T) {
	for _, c := range []string{"GBp", "GBX", "gbx"} {
		_, err := Embedded().Rate(c, 2024, time.March)
		fxError(t, err, model.CodeInvalidArgument)
	}
}

func TestRate_invalid_arguments(t *testing.T) {
	cases := []struct {
		cur   string
		year  int
		month time.Month
	}{
		{"US Dollar", 2024, 3}, {"", 2024, 3}, {"US1", 2024, 3},
		{"USD", 2024, 0}, {"USD", 2024, 13}, {"USD", -5, 3}, {"USD", 100000, 3},
	}
	for _, c := range cases {
		_, err := Embedded().Rate(c.cur, c.year, c.month)
		fxError(t, err, model.CodeInvalidArgument)
	}
}

func TestRate_missing_month_inside_range(t *testing.T) {
	// HMRC published no Mauritanian ouguiya rate for February 2020.
	_, err := Embedded().Rate("MRU", 2020, time.February)
	me := fxError(t, err, model.CodeFXUnavailable)
	if !strings.Contains(me.Message, "MRU") || !strings.Contains(me.Message, "2020-02") {
		t.Errorf("message %q does not name currency and month", me.Message)
	}
	near := me.Context["nearest"].(map[string]string)
	if near["before"] != "2020-01" || near["after"] != "2020-03" {
		t.Errorf("nearest = %v", near)
	}
	if me.Context["currency"] != "MRU" || me.Context["period"] != "2020-02" {
		t.Errorf("context = %v", me.Context)
	}
	if r := me.Context["available_range"].(map[string]string); r["first"] != "2020-01" {
		t.Errorf("available_range = %v", r)
	}
}

func TestRate_month_outside_table(t *testing.T) {
	tab := Embedded()
	first, last := tab.Months()
	cases := []struct {
		name        string
		year        int
		month       time.Month
		key, expect string
	}{
		{"before_first", 2013, time.December, "after", first},
		{"after_last", 2099, time.January, "before", last},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tab.Rate("USD", c.year, c.month)
			me := fxError(t, err, model.CodeFXUnavailable)
			near := me.Context["nearest"].(map[string]string)
			if near[c.key] != c.expect || len(near) != 1 {
				t.Errorf("nearest = %v, want %s=%s", near, c.key, c.expect)
			}
		})
	}
}

func TestRate_unknown_currency(t *testing.T) {
	_, err := Embedded().Rate("USX", 2024, time.March)
	me := fxError(t, err, model.CodeFXUnavailable)
	if !strings.Contains(me.Message, "HMRC publishes no") || !strings.Contains(me.Message, "USD") {
		t.Errorf("message = %q", me.Message)
	}
	_, err = Embedded().Rate("QQQ", 2024, time.March)
	me = fxError(t, err, model.CodeFXUnavailable)
	if _, ok := me.Context["close_matches"]; ok || strings.Contains(me.Message, "did you mean") {
		t.Errorf("QQQ should have no close matches: %q", me.Message)
	}
	_, err = Embedded().Rate("UDS", 2024, time.March)
	if me = fxError(t, err, model.CodeFXUnavailable); !strings.Contains(me.Message, "USD") {
		t.Errorf("transposition not suggested: %q", me.Message)
	}
}

func TestTable_summary(t *testing.T) {
	tab := Embedded()
	first, last := tab.Months()
	if first != "2014-02" || last < "2026-08" {
		t.Errorf("Months = %s..%s", first, last)
	}
	cs := tab.Currencies()
	if len(cs) < 150 || cs[0] != "AED" {
		t.Errorf("Currencies = %d codes starting %v", len(cs), cs[:1])
	}
	if f, l, ok := tab.Range("ZIG"); !ok || f != "2024-06" || l != "2024-07" {
		t.Errorf("Range(ZIG) = %s %s %v", f, l, ok)
	}
	if _, _, ok := tab.Range("QQQ"); ok {
		t.Error("Range(QQQ) ok")
	}
}

func TestTable_merge_over_embedded(t *testing.T) {
	tab := Embedded()
	future := []Rate{{Currency: "USD", PerGBP: decimal.RequireFromString("1.3000")}, {Currency: "ABC", PerGBP: decimal.RequireFromString("2")}}
	if err := tab.Merge("2099-01", future); err != nil {
		t.Fatal(err)
	}
	r, err := tab.Rate("USD", 2099, time.January)
	if err != nil || r.Text() != "1.3000" || r.Source != SourceFor("2099-01") || r.Period != "2099-01" {
		t.Fatalf("merged USD = %+v, %v", r, err)
	}
	if _, last := tab.Months(); last != "2099-01" {
		t.Errorf("Months last = %s", last)
	}
	if _, err := Embedded().Rate("USD", 2099, time.January); err == nil {
		t.Error("merging into one table changed another")
	}
	if !contains(tab.Currencies(), "ABC") {
		t.Error("merged currency not listed")
	}
}

func TestTable_merge_rejects_bad_input(t *testing.T) {
	tab := NewTable()
	if err := tab.Merge("2024-3", nil); err == nil {
		t.Error("bad period accepted")
	}
	if err := tab.Merge("2024-03", []Rate{{Currency: "USD", PerGBP: decimal.Zero}}); err == nil {
		t.Error("zero rate accepted")
	}
	if f, l := tab.Months(); f != "" || l != "" {
		t.Errorf("empty table Months = %q %q", f, l)
	}
}

func TestTable_concurrent_use(t *testing.T) {
	tab := Embedded()
	codes := []string{"USD", "EUR", "JPY", "MRU", "QQQ", "CHF"}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				_, _ = tab.Rate(codes[(g+i)%len(codes)], 2014+i%12, time.Month(i%12+1))
				if i%50 == 0 {
					_ = tab.Merge(fmt.Sprintf("2090-%02d", g+1), []Rate{{Currency: "USD", PerGBP: decimal.NewFromInt(int64(g + 1))}})
					_, _ = tab.Months()
					_ = tab.Currencies()
				}
			}
		}(g)
	}
	wg.Wait()
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func BenchmarkEmbeddedLookup(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p := &packed{data: embeddedRates} // a fresh reader: nothing indexed yet
			tab := &Table{base: p}
			if _, err := tab.Rate("USD", 2024, time.March); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		tab := Embedded()
		if _, err := tab.Rate("USD", 2024, time.March); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := tab.Rate("USD", 2024, time.March); err != nil {
				b.Fatal(err)
			}
		}
	})
}
