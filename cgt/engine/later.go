package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/shopspring/decimal"
)

// A tax year's figures depend only on the rows that can change them: every row up to 30 days
// after the year's end (a sale on 5 April is matched with purchases up to 5 May, TCGA92
// s106A(5)), and the dividends inside the year. So a row dated after the last month of the
// rates available (HMRC has not published it yet, or it was not fetched) stops only the
// figures that need it. With Options.DeferLaterRates the engine finds those rows, works the
// ledger out again without them and without everything dated on or after the first of them
// that moves shares or cost (so no figure rests on a stand-in rate), and leaves out of the
// report whatever they could change. RatesPending says what was left out and why.

// bedAndBreakfastDays is the 30-day window of TCGA92 s106A(5): a disposal is matched with
// acquisitions up to this many days after it.
const bedAndBreakfastDays = 30

// maxDeferPasses bounds the recalculations: each pass can only move the cut earlier.
const maxDeferPasses = 4

// RatesPending describes the rows whose month is after the last month of exchange rates
// available, and what the report leaves out because of them.
type RatesPending struct {
	// Rows are every row converted on a month with no rate yet, in date order.
	Rows []PendingRow
	// From is the date of the first of Rows that moves shares or cost (anything but a
	// dividend); zero when only dividends wait for a rate. Disposals from 30 days before it,
	// the pools' events from then, and the holdings are left out.
	From model.Date
	// Years are the tax years (periods, "2026/27") with disposals or dividends whose figures
	// need one of Rows: they are left out of the report.
	Years []string

	incomeYears map[string]bool // years whose dividends need a rate
}

// PendingRow is one ledger row converted on a month that has no rate yet.
type PendingRow struct {
	_ model.NotComparable

	Source   model.Source
	Date     model.Date
	Action   model.Action
	Currency string
	Period   string // the month with no rate, "2026-10"
	Last     string // the last month the rates have for Currency, "2026-08"
}

// String names the row for a message: "ledger.cgt:3 (2026-10-15 BUY, USD)".
func (r PendingRow) String() string {
	return fmt.Sprintf("%s (%s %s, %s)", r.Where(), r.Date, r.Action, r.Currency)
}

// Where is the row's place as reports cite it: "ledger.cgt:3".
func (r PendingRow) Where() string { return sourceRef(r.Source).String() }

// KnownBefore is the first date whose disposals, pool events and holdings may need a row of
// Rows; zero when every such figure is known (only dividends wait for a rate).
func (p *RatesPending) KnownBefore() model.Date {
	if p == nil || p.From == 0 {
		return 0
	}
	return p.From.AddDays(-bedAndBreakfastDays)
}

// cutYear is the first tax year whose gains may need a row of Rows.
func (p *RatesPending) cutYear() (taxyear.Year, bool) {
	if p.From == 0 {
		return taxyear.Year{}, false
	}
	return taxyear.For(p.KnownBefore()), true
}

// Needs reports whether a tax year's figures depend on a row of Rows: the year has disposals
// or dividends that need one, or it follows such a year whose losses it would carry.
func (p *RatesPending) Needs(y taxyear.Year) bool {
	if p == nil {
		return false
	}
	if slices.Contains(p.Years, y.Period()) {
		return true
	}
	cut, ok := p.cutYear()
	if !ok || y.Start < cut.Start {
		return false
	}
	for _, period := range p.Years {
		if s := periodStart(period); s >= cut.Start && s < y.Start {
			return true
		}
	}
	return false
}

// NeededBy lists the rows a tax year's figures need: every row that moves shares or cost up
// to 30 days after the year's end, and the year's dividends.
func (p *RatesPending) NeededBy(y taxyear.Year) []PendingRow {
	if p == nil {
		return nil
	}
	var out []PendingRow
	last := y.EndDate().AddDays(bedAndBreakfastDays)
	for _, r := range p.Rows {
		if (r.Action == model.Dividend && y.Contains(r.Date)) || (r.Action != model.Dividend && r.Date <= last) {
			out = append(out, r)
		}
	}
	return out
}

// periodStart is the first year of a tax year's period, 2024 for "2024/25" (0 for none).
func periodStart(period string) int {
	y, err := strconv.Atoi(period[:len(period)-len(strings.TrimLeft(period, "0123456789"))])
	if err != nil {
		return 0
	}
	return y
}

// laterRows records, during a lenient pass, the rows converted on a month with no rate yet.
// It is shared by the pass's workers.
type laterRows struct {
	mu   sync.Mutex
	seen map[pendingKey]bool
	rows []PendingRow
}

type pendingKey struct {
	src      model.Source
	date     model.Date
	currency string
}

// standIn returns the rate a lenient pass converts a later month at. Its figures are never
// reported: the rows it converts are left out of the pass that is.
func (l *laterRows) standIn(t *model.Transaction, currency, period, last string) fx.Rate {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := pendingKey{t.Source, t.Date, currency}
	if !l.seen[k] {
		if l.seen == nil {
			l.seen = map[pendingKey]bool{}
		}
		l.seen[k] = true
		l.rows = append(l.rows, PendingRow{Source: t.Source, Date: t.Date, Action: t.Action, Currency: currency, Period: period, Last: last})
	}
	return fx.Rate{Currency: currency, Period: period, PerGBP: decimal.NewFromInt(1), Source: "no rate yet"}
}

func (l *laterRows) empty() bool { return len(l.rows) == 0 }

// deferLater works the ledger out without the rows found by a lenient pass (first is its
// report) and what they could change, and trims the report to the figures that stand.
func deferLater(txns []model.Transaction, opts Options, first *Report, found *laterRows) (*Report, error) {
	p := &RatesPending{}
	if opts.Today == 0 {
		opts.Today = lastDateOf(txns) // as the whole ledger would have it
	}
	rows := found.rows
	for pass := 0; pass < maxDeferPasses; pass++ {
		p.set(rows, first)
		again := &laterRows{}
		rep, err := calculate(p.keep(txns), opts, again)
		if err != nil {
			return nil, err
		}
		if again.empty() {
			p.trim(rep)
			rep.Pending = p
			return rep, nil
		}
		rows = append(rows, again.rows...)
	}
	return nil, &model.Error{Code: model.CodeFXUnavailable,
		Message: "exchange rates are missing for rows the report cannot leave out",
		Hint:    "Give HMRC's monthly rate files for the months after the last bundled month."}
}

// set works out From, the years left out and the dividend years from the rows found.
func (p *RatesPending) set(rows []PendingRow, first *Report) {
	order.Stable(rows, func(a, b PendingRow) int {
		if a.Date != b.Date {
			return int(a.Date - b.Date)
		}
		return strings.Compare(sourceRef(a.Source).String(), sourceRef(b.Source).String())
	})
	p.Rows, p.From, p.incomeYears = rows, 0, map[string]bool{}
	for _, r := range rows {
		if r.Action == model.Dividend {
			p.incomeYears[taxyear.For(r.Date).Period()] = true
		} else if p.From == 0 || r.Date < p.From {
			p.From = r.Date
		}
	}
	p.Years = nil
	for _, ty := range first.TaxYears {
		if p.leftOut(ty) {
			p.Years = append(p.Years, ty.Period)
		}
	}
}

// leftOut reports whether a tax year's figures may need a pending row.
func (p *RatesPending) leftOut(ty TaxYear) bool {
	if p.incomeYears[ty.Period] {
		return true
	}
	cut, ok := p.cutYear()
	return ok && ty.StartDate >= cut.StartDate()
}

// keep is the ledger without the pending dividends and without every row, declarations
// aside (they apply to the whole ledger), dated on or after From.
func (p *RatesPending) keep(txns []model.Transaction) []model.Transaction {
	income := map[pendingKey]bool{}
	for _, r := range p.Rows {
		if r.Action == model.Dividend {
			income[pendingKey{r.Source, r.Date, ""}] = true
		}
	}
	out := make([]model.Transaction, 0, len(txns))
	for _, t := range txns {
		if t.Action == model.Dividend && income[pendingKey{t.Source, t.Date, ""}] {
			continue
		}
		if p.From != 0 && t.Date >= p.From && !isDeclaration(t.Action) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// trim leaves out of a report worked without the pending rows what they could change.
func (p *RatesPending) trim(rep *Report) {
	years := rep.TaxYears[:0]
	for _, ty := range rep.TaxYears {
		if !p.leftOut(ty) {
			years = append(years, ty)
		}
	}
	rep.TaxYears = years
	cut, ok := p.cutYear()
	if !ok {
		return
	}
	before := p.KnownBefore()
	rep.LossesCarriedForward = rep.LossesBroughtForward
	for _, ty := range rep.TaxYears {
		if ty.StartDate < cut.StartDate() {
			rep.LossesCarriedForward = ty.LossesCarriedForward
		}
	}
	rep.Holdings = []Holding{}
	pools := rep.Pools[:0]
	for _, ph := range rep.Pools {
		n := 0
		for n < len(ph.Events) && ph.Events[n].Date < before {
			n++
		}
		if n > 0 {
			ph.Events = ph.Events[:n]
			pools = append(pools, ph)
		}
	}
	rep.Pools = pools
	rep.ExemptDisposals = disposalsBefore(rep.ExemptDisposals, before)
	rep.OffshoreIncomeGains = disposalsBefore(rep.OffshoreIncomeGains, before)
	rep.NoGainNoLoss = disposalsBefore(rep.NoGainNoLoss, before)
}

func disposalsBefore(ds []Disposal, d model.Date) []Disposal {
	if ds == nil {
		return nil
	}
	out := ds[:0]
	for _, x := range ds {
		if x.Date < d {
			out = append(out, x)
		}
	}
	return out
}

func lastDateOf(txns []model.Transaction) model.Date {
	var last model.Date
	for i := range txns {
		last = max(last, txns[i].Date)
	}
	return last
}
