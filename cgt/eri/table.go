// Package eri holds the excess reportable income (ERI) per unit that offshore reporting funds
// publish each year (Offshore Funds (Tax) Regulations 2009, reg 92 and 94), as a table built at
// build time by cmd/erigen from the fund managers' reports, and the rules that place a figure
// in time: the period end it belongs to and the fund distribution date on which it is treated
// as received.
package eri

import (
	_ "embed"
	"strings"
	"sync"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/shopspring/decimal"
)

// Figure is one published ERI figure: the excess of a share class's reported income over its
// distributions for the reporting period ending on PeriodEnd, per unit, in the share class's
// currency, exactly as published (PerUnit keeps the manager's digits).
type Figure struct {
	_ model.NotComparable

	PeriodEnd model.Date
	Currency  string
	PerUnit   string
}

// Value is the per-unit figure as a decimal.
func (f Figure) Value() decimal.Decimal {
	v, err := decimal.NewFromString(f.PerUnit)
	if err != nil {
		return decimal.Decimal{} // the table holds only checked decimals (Parse)
	}
	return v
}

// DistributionDate is the fund distribution date of the reporting period (FundDistributionDate).
func (f Figure) DistributionDate() model.Date { return FundDistributionDate(f.PeriodEnd) }

// Fund is one share class: its ISIN, the tickers UK brokers use for it (none when unknown),
// and its figures in period order.
type Fund struct {
	ISIN    string
	Tickers []string
	Figures []Figure
}

// Table is a set of funds by ISIN. It is read-only once built and safe for concurrent use.
type Table struct {
	newest   model.Date
	funds    map[string]*Fund
	byTicker map[string]string // ticker → ISIN, for funds with figures
}

// FundDistributionDate is the fund distribution date of a reporting period that ends on
// periodEnd: the date six months after the period end (reg 94(4), as HMRC's OFM24530 reads
// it), by the corresponding-date rule: the same day of the month six months later, or that
// month's last day when it has no such day (31 August → 28 or 29 February).
func FundDistributionDate(periodEnd model.Date) model.Date {
	t := periodEnd.Time()
	y, m := t.Year(), t.Month()+6
	if m > 12 {
		y, m = y+1, m-12
	}
	last := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return model.NewDate(y, m, min(t.Day(), last))
}

// Fund returns the share class with the ISIN, or nil when the table has none.
func (t *Table) Fund(isin string) *Fund {
	if t == nil {
		return nil
	}
	return t.funds[isin]
}

// ISINOfTicker returns the ISIN of the fund with figures that the ticker table gives for a
// ticker (in upper case, with or without an exchange suffix such as .L), if any. It is a hint
// only: tickers are ambiguous across exchanges.
func (t *Table) ISINOfTicker(ticker string) (string, bool) {
	if t == nil {
		return "", false
	}
	tk := strings.ToUpper(ticker)
	if isin, ok := t.byTicker[tk]; ok {
		return isin, true
	}
	if i := strings.LastIndexByte(tk, '.'); i > 0 {
		isin, ok := t.byTicker[tk[:i]]
		return isin, ok
	}
	if i := strings.IndexByte(tk, ':'); i > 0 {
		isin, ok := t.byTicker[tk[i+1:]]
		return isin, ok
	}
	return "", false
}

// Newest is the latest period end of any figure in the table.
func (t *Table) Newest() model.Date {
	if t == nil {
		return 0
	}
	return t.newest
}

// Len is the number of funds in the table.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return len(t.funds)
}

// FigureCount is the number of figures in the table.
func (t *Table) FigureCount() int {
	n := 0
	if t != nil {
		for _, f := range t.funds {
			n += len(f.Figures)
		}
	}
	return n
}

// ISINs lists the table's ISINs in order.
func (t *Table) ISINs() []string {
	if t == nil {
		return nil
	}
	out := make([]string, 0, len(t.funds))
	for k := range t.funds {
		out = append(out, k)
	}
	order.Ascending(out)
	return out
}

// Notice is the source and licence of the bundled figures (NOTICE.txt).
//
//go:embed NOTICE.txt
var Notice string

var (
	bundledOnce sync.Once
	bundled     *Table
)

// UseBundled makes data, the table as cmd/erigen writes it (table.txt), the bundled table. The
// browser module is built without it; the page fetches the file beside the module (make web)
// and gives it here before the first command runs, so the figures are the command line's.
// Not for use once commands are running.
func UseBundled(data string) {
	bundledOnce = sync.Once{}
	bundled = nil
	embeddedTable = data
}

// Bundled is the table built into the program, parsed on first use.
func Bundled() *Table {
	bundledOnce.Do(func() {
		t, err := Parse(embeddedTable)
		if err != nil { // never in a release: a test parses the embedded table
			t = &Table{}
		}
		bundled = t
	})
	return bundled
}
