package commands

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
)

// Rows dated after the last month of rates available wait for their rate (engine.RatesPending):
// a result that does not need them is given with a warning naming them; a result that does
// is an fx_rate_unavailable error naming them and the fix.

// ratesUpdateHint is how to get the months the rates lack.
const ratesUpdateHint = "Run `cgt fx.update` in a terminal to fetch HMRC's monthly rate files published since (every command then reads them), or download the month's XML file and give it in rates (--rates FILE|DIR). " + ratesDownload

// maxRowsNamed bounds the rows a message names one by one.
const maxRowsNamed = 5

// pendingWarnings is the warning of a result that stands without the rows waiting for a rate,
// naming them and what the result leaves out; none when no row waits.
func pendingWarnings(p *engine.RatesPending) []string {
	if p == nil {
		return nil
	}
	return []string{pendingWarning(p)}
}

func pendingWarning(p *engine.RatesPending) string {
	var left []string
	if len(p.Years) > 0 {
		left = append(left, "tax years "+strings.Join(p.Years, ", "))
	}
	if d := p.KnownBefore(); d != 0 {
		left = append(left, "the holdings, disposals and pool changes from "+d.String())
	}
	msg := fmt.Sprintf("%s no HMRC exchange rate yet: %s. The figures given do not depend on them", rowsHave(p.Rows), namedRows(p.Rows))
	if len(left) > 0 {
		msg += "; left out until their rates are available: " + strings.Join(left, "; ")
	}
	return msg + ". Run `cgt fx.update` to fetch HMRC's newer monthly files, or give them in rates."
}

// pendingError is the error of a result (what) that needs rows with no rate yet; now says
// what can be had without them, if anything.
func pendingError(what string, rows []engine.PendingRow, now string, examples ...string) error {
	msg := fmt.Sprintf("%s cannot be worked out yet: it needs exchange rates HMRC has not published, or that are not fetched: %s", what, namedRows(rows))
	hint := ratesUpdateHint
	if now != "" {
		hint += " " + now
	}
	periods := make([]string, len(rows))
	for i, r := range rows {
		periods[i] = r.Currency + " " + r.Period
	}
	e := envelope.New(envelope.FXRateUnavailable, msg, hint, append([]string{"cgt fx.update"}, examples...)...).
		With("months", dedupe(periods)).With("rows", len(rows)).With("value", rows[0].Currency+" "+rows[0].Period)
	if src := rows[0].Source; src.Line > 0 {
		e.With("line", src.Line)
		if src.File != "" {
			e.With("file", src.File)
		}
	}
	return e
}

// reportNeedsRates is the error of a report whose year (or, without one, any year with
// figures) needs a row with no rate yet; nil when the report stands without them.
func reportNeedsRates(p *engine.RatesPending, y taxyear.Year, hasYear bool, ledger string) error {
	switch {
	case p == nil:
		return nil
	case hasYear && p.Needs(y):
		return yearNeedsRates(p, y, ledger)
	case !hasYear && len(p.Years) > 0:
		first, _ := taxyear.Parse(p.Years[0])
		return yearNeedsRates(p, first, ledger)
	}
	return nil
}

// yearNeedsRates is report.calculate's error for a year that needs a pending row, naming the
// last earlier year that can be reported now.
func yearNeedsRates(p *engine.RatesPending, y taxyear.Year, ledger string) error {
	now, ex := "", []string{}
	for prev := y.Prev(); prev.Start >= taxyear.First; prev = prev.Prev() {
		if !p.Needs(prev) {
			now = fmt.Sprintf("Earlier tax years can be reported now: year=%d gives %s.", prev.Start, prev.Period())
			ex = append(ex, fmt.Sprintf("cgt report.calculate %s year=%d", ledger, prev.Start))
			break
		}
	}
	return pendingError("tax year "+y.Period(), p.NeededBy(y), now, ex...)
}

// rowsHave is "1 row has" or "3 rows have".
func rowsHave(rows []engine.PendingRow) string {
	if len(rows) == 1 {
		return "1 row has"
	}
	return fmt.Sprintf("%d rows have", len(rows))
}

// namedRows names the first rows, with the month each needs and the last month there is.
func namedRows(rows []engine.PendingRow) string {
	parts := make([]string, 0, maxRowsNamed+1)
	for i, r := range rows {
		if i == maxRowsNamed {
			parts = append(parts, fmt.Sprintf("and %d more", len(rows)-maxRowsNamed))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s %s) needs the %s rate for %s, and the rates end at %s", r.Where(), r.Date, r.Action, r.Currency, r.Period, r.Last))
	}
	return strings.Join(parts, "; ")
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// holdingsNeedRates is holdings.list's error when the holdings asked for (now, or at date)
// need a row with no rate yet.
func holdingsNeedRates(p *engine.RatesPending, date, ledger string) error {
	known := p.KnownBefore()
	if known == 0 {
		return nil
	}
	if date != "" {
		if d, err := model.ParseDate(date); err != nil || d < known {
			return nil // a bad date is holdings.list's own error
		}
	}
	last := known.AddDays(-1)
	return pendingError("the holdings", p.Rows,
		fmt.Sprintf("Holdings up to %s can be listed now: date=%s.", last, last),
		fmt.Sprintf("cgt holdings.list %s date=%s", ledger, last))
}
