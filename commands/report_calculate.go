package commands

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
	"github.com/cgt-tools/cgt/reportview"
)

// ReportCalculateArgs are the arguments of report.calculate.
type ReportCalculateArgs struct {
	LedgerArgs
	Year                 any          `json:"year,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Tax year; omit for every year." cgt:"alias=tax_year"`
	LossesBroughtForward string       `json:"losses_brought_forward,omitempty" jsonschema:"pattern=^[0-9]+(\\.[0-9]+)?$" jsonschema_description:"Losses from before the ledger (GBP)." cgt:"alias=losses"`
	TaxableIncome        *YearAmounts `json:"taxable_income,omitempty" jsonschema_description:"Income after allowances (GBP): 60000 or \"2023:52000,2024:60000\"." cgt:"alias=income"`
	BasicBandExtension   *YearAmounts `json:"basic_band_extension,omitempty" jsonschema_description:"Gross Gift Aid and pension contributions (GBP)." cgt:"alias=band_extension"`
	Detail               string       `json:"detail,omitempty" jsonschema:"enum=summary,enum=disposals,enum=full,default=full" jsonschema_description:"Rows: summary (totals, SA108, tax), disposals or full."`
	FilterArgs
	RatesArgs
	FundArgs
}

// The values of report.calculate's detail argument.
const (
	DetailSummary   = "summary"
	DetailDisposals = "disposals"
	DetailFull      = "full"
)

// ReportResult is the report with the name of the ledger it was calculated from, which
// names the records that belong to no ticker (a tax year's).
type ReportResult struct {
	_ model.NotComparable

	*engine.Report
	ledger string
	// filing, for the summary and disposals details, is what the dense formats write:
	// the figures that go on the return (report_filing.go).
	filing *filingView
}

// RecordView gives the dense formats the filing view when the detail asked for one.
func (r ReportResult) RecordView() any {
	if r.filing == nil {
		return nil
	}
	return *r.filing
}

// RecordViewTypes names the filing view, whose fields the fields argument takes too.
func (ReportResult) RecordViewTypes() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[filingView]()}
}

// WriteText is the report for the person filing (--output text).
func (r ReportResult) WriteText(w io.Writer, warnings []string) error {
	return reportview.Text(w, r.Report, r.ledger, warnings)
}

// WriteHTML is the report as one self-contained page (--output html).
func (r ReportResult) WriteHTML(w io.Writer, warnings []string) error {
	return reportview.HTML(w, r.Report, r.ledger, warnings)
}

// RecordEntity names the report's own records: the ledger.
func (r ReportResult) RecordEntity() string { return r.ledger }

// ReportCalculate is the full capital gains report.
var ReportCalculate = registry.NewCommand(registry.Meta{
	Name:        "report.calculate",
	MCPName:     "calculate_report",
	Summary:     "Capital gains report: tax years, disposals, matches, pools, holdings",
	Description: "Calculates UK Capital Gains Tax on a ledger of share and fund transactions. Each disposal is identified with acquisitions by HMRC's rules — same day (TCGA92/S105(1)(b)), the following 30 days (TCGA92/S106A(5)), then the Section 104 pool (TCGA92/S104) — foreign amounts are converted at HMRC's monthly rates (bundled; months published since can be supplied as HMRC's XML files in rates, and take precedence), and the figures are totalled per tax year: SA108 figures, gains, losses, net gain, annual exempt amount, losses used and carried forward, taxable gain, the split of 2024/25 at 30 October 2024, the SA108 boxes in whole pounds, and dividend income. Given taxable_income, each year also gets the tax payable (gains in the unused basic rate band at the lower rate, losses and the annual exempt amount set where they save most, TCGA92/S1F) and 2024/25 its box 51 adjustment. Every disposal carries its match legs with the cost arithmetic and its ledger line. All money is GBP, as strings with two decimals.",
	Usage:       "cgt report.calculate FILE... [year=2024] [losses_brought_forward=AMOUNT] [taxable_income=AMOUNT|YEAR:AMOUNT,...] [basic_band_extension=AMOUNT|YEAR:AMOUNT,...] [--rates FILE|DIR]...",
	Examples: []registry.Example{
		{Description: "Every tax year of the bundled example ledger", Args: []string{"examples/portfolio.cgt"}},
		{Description: "One tax year, as dense records", Args: []string{"examples/portfolio.cgt", "year=2024", "--output", "compact"}},
		{Description: "Tax payable for 2024/25, with the box 51 adjustment, for a higher-rate taxpayer", Args: []string{"examples/portfolio.cgt", "year=2024", "taxable_income=60000"}},
		{Description: "Taxable income per tax year", Args: []string{"examples/portfolio.cgt", "taxable_income=2023:52000,2024:30000"}},
		{Description: "One ticker's Section 104 pool over time (pool_event rows: each change with its ledger line), with its disposals and matches", Args: []string{"examples/portfolio.cgt", "ticker=AAPL", "detail=full", "--output", "compact"}},
		{Description: "An inline ledger in US dollars", Args: []string{"cgt_content=2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD", "year=2024"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None: computed locally from the ledger and HMRC's rates (bundled, or read from the rates files given).",
	CitationFields: []string{"tax_years[].period", "tax_years[].disposals[].source", "tax_years[].disposals[].matches[].reference", "tax_years[].disposals[].original[].price.rate_period", "tax_years[].tax.reference"},
	KeyFields:      []string{"taxable_gain", "tax_due", "net_gain", "gains", "losses", "proceeds", "allowable_costs", "losses_carried_forward", "sa108.box24"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks for their gains, the SA108 figures or the CGT they owe (pass taxable_income)."},
		AvoidWhen: []string{"The question is about one disposal's matching: matching.explain is shorter.", "Only holdings are wanted: holdings.list."},
		NextSteps: []string{"matching.explain", "holdings.list", "taxyear.info"},
	},
}, reportCalculate)

func reportCalculate(_ context.Context, deps *registry.Deps, a ReportCalculateArgs) (ReportResult, []string, error) {
	year, hasYear, err := parseYear(a.Year)
	if err != nil {
		return ReportResult{}, nil, err
	}
	lbf, err := parseLosses(a.LossesBroughtForward)
	if err != nil {
		return ReportResult{}, nil, err
	}
	f, err := a.FilterArgs.filter()
	if err != nil {
		return ReportResult{}, nil, err
	}
	inc, err := readIncome(a.TaxableIncome, a.BasicBandExtension)
	if err != nil {
		return ReportResult{}, nil, err
	}
	funds, err := a.FundArgs.table()
	if err != nil {
		return ReportResult{}, nil, err
	}
	rep, txns, warnings, err := calculateLedger(deps, a.LedgerArgs, a.RatesArgs, engine.Options{LossesBroughtForward: lbf, Income: inc.forYear, ERI: funds})
	if err != nil {
		return ReportResult{}, warnings, err
	}
	if err := f.Check(txns); err != nil {
		return ReportResult{}, warnings, err
	}
	if err := rep.Pending.ReportError(year, hasYear, a.ledgerName()); err != nil {
		return ReportResult{}, warnings, err
	}
	warnings = append(warnings, rep.Pending.Warnings()...)
	if hasYear {
		empty := rep.EmptyYearWarning(year, fmt.Sprint(a.Year))
		warnings = append(warnings, empty...)
		ty := rep.Year(year)
		engine.ApplyTax(&ty, inc.forYear(year))
		rep.TaxYears = []engine.TaxYear{ty}
		if ty.DisposalCount == 0 && len(empty) == 0 {
			warnings = append(warnings, "tax year "+ty.Period+" has no disposals in the ledger: its totals are zero")
		}
		warnings = append(warnings, projectedWarning(year, warnings)...)
	}
	warnings = append(warnings, rep.IncomeWarnings(inc.taxable, inc.extension)...)
	warnings = append(warnings, rep.ProceedsWarnings()...)
	warnings = append(warnings, f.Apply(rep)...)
	if len(rep.TaxYears) == 0 && f.Active() {
		warnings = append(warnings, "no tax year falls within from/to")
	}
	res := ReportResult{Report: rep, ledger: a.ledgerName()}
	switch a.Detail {
	case DetailSummary, DetailDisposals:
		rep.Summarize(a.Detail == DetailDisposals)
		v := newFilingView(rep, res.ledger)
		res.filing = &v
	}
	// A match's steps are written as the result is rendered (Match.AppendJSON, Match.Prose),
	// not kept: a large report's steps run to hundreds of megabytes. The transactions are no
	// longer needed: the command line collects them now, before the writing (a no-op in the
	// servers and for small ledgers).
	engine.ReportComputed()
	return res, warnings, nil
}

// income is the taxable_income and basic_band_extension arguments, read.
type income struct {
	taxable, extension *tax.Amounts
}

func readIncome(taxable, extension *YearAmounts) (income, error) {
	t, err := taxable.Resolve("taxable_income")
	if err != nil {
		return income{}, err
	}
	e, err := extension.Resolve("basic_band_extension")
	if err != nil {
		return income{}, err
	}
	return income{taxable: t, extension: e}, nil
}

// forYear is the year's income, or nil when taxable_income gives none for it.
func (in income) forYear(y taxyear.Year) *tax.Income {
	return tax.IncomeFor(in.taxable, in.extension, y)
}

func parseLosses(s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Zero, nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil || d.IsNegative() {
		return decimal.Zero, envelope.New(envelope.InvalidArgument, "losses_brought_forward "+s+" is not a positive GBP amount",
			"Give the losses as a plain positive number of pounds.", "losses_brought_forward=1250.00").With("value", s)
	}
	return d, nil
}

// projectedWarning is the warning about a year= whose figures are assumed from an earlier
// year, unless the report's warnings (which name every such year it has) already carry it.
func projectedWarning(y taxyear.Year, have []string) []string {
	if !y.Projected() {
		return nil
	}
	w := engine.ProjectedWarning(y)
	if slices.Contains(have, w) {
		return nil
	}
	return []string{w}
}
