package fx

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// memDir is a cache folder in memory.
type memDir map[string]string

func (d memDir) List() ([]string, error) {
	var out []string
	for n := range d {
		out = append(out, n)
	}
	return out, nil
}

func (d memDir) Read(name string) ([]byte, error) {
	s, ok := d[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	return []byte(s), nil
}

func cachedXML(period, usd string) string {
	t, _ := time.Parse("2006-01", period)
	last := t.AddDate(0, 1, -1)
	return fmt.Sprintf(`<exchangeRateMonthList Period="01/%s to %s"><exchangeRate><countryName>USA</countryName><currencyCode>USD</currencyCode><rateNew>%s</rateNew></exchangeRate></exchangeRateMonthList>`,
		t.Format("Jan/2006"), last.Format("02/Jan/2006"), usd)
}

func TestCacheAddsMonthsAfterTheBundledTable(t *testing.T) {
	_, last := Embedded().Months()
	lastM, _ := parsePeriod(last)
	next, after := (lastM + 1).String(), (lastM + 2).String()
	dir := memDir{
		CacheName(next, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)): cachedXML(next, "1.1111"),
		CacheName(next, time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)): cachedXML(next, "1.2222"), // fetched later: wins
		CacheName(last, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)): cachedXML(last, "9.9999"), // bundled wins
		"notes.txt": "not a cache file",
	}
	c := WithCache(Embedded(), dir)
	y, m := lastM.year(), lastM.mon()
	r, err := c.Rate("USD", y, m)
	if err != nil || r.Text() == "9.9999" || strings.Contains(r.Source, "fetched") {
		t.Errorf("bundled month: %+v %v", r, err)
	}
	r, err = c.Rate("USD", (lastM + 1).year(), (lastM + 1).mon())
	if err != nil || r.Text() != "1.2222" || r.Source != CachedSource(next, "2026-10-03") {
		t.Errorf("cached month: %+v %v", r, err)
	}
	if _, err := c.Rate("USD", (lastM + 2).year(), (lastM + 2).mon()); err == nil {
		t.Fatal("a month in neither has no rate")
	}
	// A month fetched while the program runs is read at the next lookup that misses.
	dir[CacheName(after, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))] = cachedXML(after, "1.3333")
	c.now = func() time.Time { return time.Now().Add(2 * time.Second) }
	if r, err := c.Rate("USD", (lastM + 2).year(), (lastM + 2).mon()); err != nil || r.Text() != "1.3333" {
		t.Errorf("after an update: %+v %v", r, err)
	}
	if _, l := c.Months(); l != after {
		t.Errorf("newest month %s, want %s", l, after)
	}
}

func TestCacheFileProblemsAreNamed(t *testing.T) {
	_, last := Embedded().Months()
	lastM, _ := parsePeriod(last)
	next, after := (lastM + 1).String(), (lastM + 2).String()
	day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	dir := memDir{
		CacheName(next, day):  "<html>",
		CacheName(after, day): cachedXML(next, "1.2"), // the wrong month inside
	}
	c := WithCache(Embedded(), dir)
	p := c.Problems()
	if len(p) != 2 || !strings.Contains(p[0], CacheName(next, day)) || !strings.Contains(p[1], "not the month of its name") {
		t.Errorf("problems %q", p)
	}
}

func TestMonthsToFetch(t *testing.T) {
	got := MonthsToFetch("2026-08", time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	if strings.Join(got, ",") != "2026-09,2026-10,2026-11" {
		t.Errorf("got %v", got)
	}
	if got := MonthsToFetch("2026-11", time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)); len(got) != 0 {
		t.Errorf("up to date: %v", got)
	}
}
