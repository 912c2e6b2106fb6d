package fx

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cgt-tools/cgt/internal/order"
)

// The rate cache holds HMRC's monthly files fetched after the bundled table (cgt fx.update).
// Each file is HMRC's XML unchanged, named for its month and the day it was fetched
// ("2026-10.fetched-2026-11-02.xml"), so its rates can be cited with that day. The domain does
// no I/O: the front end gives the folder as a CacheDir.

// CacheDir is the folder of fetched monthly files, as the front end reads it.
type CacheDir interface {
	// List names the files in the folder; a folder that does not exist yet has none.
	List() ([]string, error)
	// Read returns a file's bytes.
	Read(name string) ([]byte, error)
}

// cacheSuffix ends every cache file's name.
const cacheSuffix = ".xml"

// CacheName is the name a fetched month is stored under: "2026-10.fetched-2026-11-02.xml".
func CacheName(period string, fetched time.Time) string {
	return period + ".fetched-" + fetched.UTC().Format("2006-01-02") + cacheSuffix
}

// parseCacheName reads "2026-10.fetched-2026-11-02.xml" as its month and fetch day.
func parseCacheName(name string) (m month, fetched string, ok bool) {
	base, found := strings.CutSuffix(name, cacheSuffix)
	period, day, cut := strings.Cut(base, ".fetched-")
	if !found || !cut {
		return 0, "", false
	}
	m, ok = parsePeriod(period)
	if _, err := time.Parse("2006-01-02", day); err != nil {
		return 0, "", false
	}
	return m, day, ok
}

// CachedSource cites a rate read from the cache.
func CachedSource(period, fetched string) string {
	return "HMRC monthly exchange rates, " + period + " (" + Licence + "), fetched " + fetched + " by cgt fx.update"
}

// Cached is the bundled table with the months of the rate cache after it. The bundled table
// wins a month both have (the cache only ever adds months after it). A lookup of a month
// after the rates it has reads the cache folder again, at most once a second, so a program
// left running sees the months fx.update fetched since it started. It is safe for concurrent
// use.
type Cached struct {
	table *Table
	dir   CacheDir
	now   func() time.Time

	mu       sync.Mutex
	read     map[string]bool // cache file names merged
	scanned  time.Time
	problems []string
}

// WithCache layers the cache folder over base (the bundled table). base must not be shared:
// the cache's months are merged into it.
func WithCache(base *Table, dir CacheDir) *Cached {
	c := &Cached{table: base, dir: dir, now: time.Now, read: map[string]bool{}}
	c.scan()
	return c
}

// Rate is the table's rate, reading the cache folder again when the month is after the
// rates the table has.
func (c *Cached) Rate(currency string, year int, mon time.Month) (Rate, error) {
	r, err := c.table.Rate(currency, year, mon)
	if _, later := Later(err); later && c.rescan() {
		return c.table.Rate(currency, year, mon)
	}
	return r, err
}

// Table is the table the cache was merged into.
func (c *Cached) Table() *Table { return c.table }

// Problems are the cache files that could not be used (unreadable, not HMRC's format, a
// month other than their name's), each naming the file: a command may show them as warnings.
func (c *Cached) Problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.problems...)
}

// rescan reads the folder again unless it was read within the last second; it reports
// whether a new month was merged.
func (c *Cached) rescan() bool {
	c.mu.Lock()
	recent := c.now().Sub(c.scanned) < time.Second
	c.mu.Unlock()
	if recent {
		return false
	}
	return c.scan()
}

// scan merges the cache files not read yet whose month the bundled table lacks.
func (c *Cached) scan() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scanned = c.now()
	names, err := c.dir.List()
	if err != nil {
		c.problems = append(c.problems, "the rate cache could not be listed: "+err.Error())
		return false
	}
	_, bundledLast := c.table.baseMonths()
	merged := false
	for _, name := range latestPerMonth(names) {
		m, fetched, _ := parseCacheName(name)
		if c.read[name] || (bundledLast >= 0 && m <= bundledLast) {
			continue
		}
		c.read[name] = true
		if err := c.merge(name, m, fetched); err != nil {
			c.problems = append(c.problems, err.Error())
			continue
		}
		merged = true
	}
	return merged
}

// merge reads one cache file and merges its rates, cited with the day it was fetched.
func (c *Cached) merge(name string, m month, fetched string) error {
	data, err := c.dir.Read(name)
	if err != nil {
		return fmt.Errorf("rate cache file %s could not be read: %v", name, err)
	}
	mo, err := ReadMonthly(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("rate cache file %s is not an HMRC monthly file (%v); run cgt fx.update again", name, err)
	}
	if mo.Period != m.String() {
		return fmt.Errorf("rate cache file %s holds %s, not the month of its name; run cgt fx.update again", name, mo.Period)
	}
	for i := range mo.Rates {
		mo.Rates[i].Source = CachedSource(mo.Period, fetched)
	}
	return c.table.Merge(mo.Period, mo.Rates)
}

// latestPerMonth keeps, of the cache file names, the latest fetched of each month, in month
// order; names that are not cache files are left out.
func latestPerMonth(names []string) []string {
	best := map[month]string{}
	day := map[month]string{}
	var months []month
	for _, n := range names {
		m, fetched, ok := parseCacheName(n)
		if !ok {
			continue
		}
		if _, seen := best[m]; !seen {
			months = append(months, m)
		}
		if fetched >= day[m] {
			best[m], day[m] = n, fetched
		}
	}
	order.Ascending(months)
	out := make([]string, len(months))
	for i, m := range months {
		out[i] = best[m]
	}
	return out
}

// Months is the first and last month of the rates, cache included (Table.Months).
func (c *Cached) Months() (first, last string) { return c.table.Months() }

// baseMonths is the first and last month of the bundled layer; -1, -1 when there is none.
func (t *Table) baseMonths() (month, month) {
	if t.base == nil {
		return -1, -1
	}
	_, first, last := t.base.summary()
	return first, last
}

// MonthsToFetch lists the months ("2026-09", ...) after newest ("2026-08") up to the month of
// today, in order: what fx.update asks HMRC for.
func MonthsToFetch(newest string, today time.Time) []string {
	m, ok := parsePeriod(newest)
	if !ok {
		return nil
	}
	end := monthOf(today.Year(), today.Month())
	var out []string
	for m++; m <= end; m++ {
		out = append(out, m.String())
	}
	return out
}

// CheckFetched reads a file fetched as period's: it must be HMRC's monthly XML for that very
// month, with at least one rate (ReadMonthly's rules).
func CheckFetched(data []byte, period string) (Month, error) {
	mo, err := ReadMonthly(bytes.NewReader(data))
	if err != nil {
		return Month{}, err
	}
	if mo.Period != period {
		return Month{}, parseError(0, fmt.Sprintf("the file fetched for %s holds the rates of %s", period, mo.Period))
	}
	return mo, nil
}
