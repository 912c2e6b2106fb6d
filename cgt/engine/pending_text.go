package engine

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
)

// Rows dated after the last month of rates available wait for their rate (RatesPending): a
// result that does not need them is given with a warning naming them; a result that does is
// an fx_rate_unavailable error naming them and the fix.

// ratesUpdateHint is how to get the months the rates lack.
const ratesUpdateHint = "Run `cgt fx.update` in a terminal to fetch HMRC's monthly rate files published since (every command then reads them), or download the month's XML file and give it in rates (--rates FILE|DIR). " + fx.DownloadHint

// maxRowsNamed bounds the rows a message names one by one.
const maxRowsNamed = 5

// Warnings are the warning of a result that stands without the rows waiting for a rate,
// naming them and what the result leaves out; none when no row waits (p is nil).
func (p *RatesPending) Warnings() []string {
	if p == nil {
		return nil
	}
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
	return []string{msg + ". Run `cgt fx.update` to fetch HMRC's newer monthly files, or give them in rates."}
}

// PendingError is the error of a result (what) that needs rows with no rate yet; now says
// what can be had without them, if anything, and examples show how.
func PendingError(what string, rows []PendingRow, now string, examples ...string) error {
	hint := ratesUpdateHint
	if now != "" {
		hint += " " + now
	}
	periods := make([]string, 0, len(rows))
	seen := map[string]bool{}
	for _, r := range rows {
		if p := r.Currency + " " + r.Period; !seen[p] {
			seen[p] = true
			periods = append(periods, p)
		}
	}
	ctx := map[string]any{"months": periods, "rows": len(rows)}
	if src := rows[0].Source; src.Line > 0 {
		ctx["line"] = src.Line
		if src.File != "" {
			ctx["file"] = src.File
		}
	}
	return &model.Error{Code: model.CodeFXUnavailable,
		Message:  fmt.Sprintf("%s cannot be worked out yet: it needs exchange rates HMRC has not published, or that are not fetched: %s", what, namedRows(rows)),
		Hint:     hint,
		Examples: append([]string{"cgt fx.update"}, examples...),
		Value:    rows[0].Currency + " " + rows[0].Period, Context: ctx}
}

// ReportError is report.calculate's error when its year (or, without one, any year with
// figures) needs a row with no rate yet, naming the last earlier year that can be reported
// now (for the ledger named ledger); nil when the report stands without them.
func (p *RatesPending) ReportError(y taxyear.Year, hasYear bool, ledger string) error {
	switch {
	case p == nil:
		return nil
	case hasYear && p.Needs(y):
		return p.yearError(y, ledger)
	case !hasYear && len(p.Years) > 0:
		first, _ := taxyear.Parse(p.Years[0])
		return p.yearError(first, ledger)
	}
	return nil
}

// yearError is ReportError for a year that needs a pending row.
func (p *RatesPending) yearError(y taxyear.Year, ledger string) error {
	now, ex := "", []string{}
	for prev := y.Prev(); prev.Start >= taxyear.First; prev = prev.Prev() {
		if !p.Needs(prev) {
			now = fmt.Sprintf("Earlier tax years can be reported now: year=%d gives %s.", prev.Start, prev.Period())
			ex = append(ex, fmt.Sprintf("cgt report.calculate %s year=%d", ledger, prev.Start))
			break
		}
	}
	return PendingError("tax year "+y.Period(), p.NeededBy(y), now, ex...)
}

// HoldingsError is holdings.list's error when the holdings asked for (now, or at date) need
// a row with no rate yet; nil when they do not (or p is nil).
func (p *RatesPending) HoldingsError(date, ledger string) error {
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
	return PendingError("the holdings", p.Rows,
		fmt.Sprintf("Holdings up to %s can be listed now: date=%s.", last, last),
		fmt.Sprintf("cgt holdings.list %s date=%s", ledger, last))
}

// rowsHave is "1 row has" or "3 rows have".
func rowsHave(rows []PendingRow) string {
	if len(rows) == 1 {
		return "1 row has"
	}
	return fmt.Sprintf("%d rows have", len(rows))
}

// namedRows names the first rows, with the month each needs and the last month there is.
func namedRows(rows []PendingRow) string {
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
