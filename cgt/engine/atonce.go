//go:build !js

package engine

import (
	"runtime"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
)

// The browser module runs on one thread: it works the years and the notes out one after the
// other (atonce_js.go), and carries none of this.

// yearsAndNotes sets the report's tax years and returns its notes. Both read the results and
// write nothing the other reads, so a large ledger has them worked out at once.
func (c *calc) yearsAndNotes(opts Options, rep *Report, disposals []Disposal) notes {
	years := func() {
		rep.TaxYears, rep.LossesCarriedForward = taxYears(c.results, disposals, opts.LossesBroughtForward)
	}
	if len(c.txns) < parallelMin || runtime.GOMAXPROCS(0) < 2 {
		years()
		return c.notes(opts.Today, rep.NoGainNoLoss)
	}
	var n notes
	fanout.Each(2, func(k int) {
		if k == 0 {
			n = c.notes(opts.Today, rep.NoGainNoLoss)
		} else {
			years()
		}
	})
	return n
}

// totalYears totals each year (totalYear), the years at once when they hold enough
// disposals (of all of them) to share out: each year's totals are its own.
func totalYears(builds []*yearBuild, disposals int) []TaxYear {
	out := make([]TaxYear, len(builds))
	total := func(k int) { out[k] = totalYear(builds[k]) }
	if disposals < sumParallelMin {
		for k := range builds {
			total(k)
		}
		return out
	}
	fanout.Each(len(builds), total)
	return out
}
