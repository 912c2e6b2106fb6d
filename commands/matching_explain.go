package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// MatchingExplainArgs are the arguments of matching.explain.
type MatchingExplainArgs struct {
	LedgerArgs
	DisposalDate string `json:"disposal_date" jsonschema:"required,format=date" jsonschema_description:"Date of the disposal, YYYY-MM-DD." cgt:"alias=date"`
	Ticker       string `json:"ticker,omitempty" jsonschema_description:"Ticker of the disposal (case-insensitive); without it, the day's one disposal, or a list of the day's disposals." cgt:"alias=symbol"`
	RatesArgs
	FundArgs
}

// MatchingExplainResult explains one disposal.
type MatchingExplainResult struct {
	_           struct{}        `record:"kind=explanation"`
	Period      string          `json:"period" record:"period" jsonschema_description:"Tax year of the disposal, YYYY/YY."`
	Disposal    engine.Disposal `json:"disposal" record:"rows=disposal" jsonschema_description:"The disposal with its match legs, each with the rule, statutory reference, quantities, cost arithmetic and (for pool legs) the pool before and after."`
	Explanation []string        `json:"explanation" jsonschema_description:"The identification as readable steps, rule by rule, ending with the gain."`
}

// RecordEntity names the explanation's record after the security disposed of: every record
// has an entity.
func (r MatchingExplainResult) RecordEntity() string { return r.Disposal.Ticker }

// MatchingExplain shows how a disposal was matched.
var MatchingExplain = registry.NewCommand(registry.Meta{
	Name:        "matching.explain",
	MCPName:     "explain_matching",
	Summary:     "How one disposal was matched, with the arithmetic",
	Description: "Explains how the disposal of a ticker on a date was identified with acquisitions: each rule applied in HMRC's order (same day, 30 days, Section 104 pool), the acquisitions matched with their dates and quantities, the cost-basis arithmetic as numbers and as readable steps, the pool before and after with the average cost for pool legs, and the gain. When there is no such disposal the error (not_found) lists the disposals that exist.",
	Usage:       "cgt matching.explain FILE... date=YYYY-MM-DD [ticker=TICKER] [--rates FILE|DIR]...",
	Examples: []registry.Example{
		{Description: "A Section 104 pool disposal in the bundled ledger", Args: []string{"examples/portfolio.cgt", "date=2024-06-20", "ticker=AAPL"}},
		{Description: "A 30-day (bed and breakfast) match", Args: []string{"examples/portfolio.cgt", "date=2023-03-10", "ticker=VOD.L"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None.",
	CitationFields: []string{"period", "disposal.source", "disposal.matches[].reference", "disposal.matches[].sources"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks why a gain is what it is, which purchase a sale was matched with, or how the 30-day rule applied."},
		AvoidWhen: []string{"The user wants year totals: report.calculate."},
		NextSteps: []string{"report.calculate", "holdings.list", "fx.rate"},
	},
}, matchingExplain)

func matchingExplain(_ context.Context, deps *registry.Deps, a MatchingExplainArgs) (MatchingExplainResult, []string, error) {
	date, err := model.ParseDate(a.DisposalDate)
	if err != nil {
		return MatchingExplainResult{}, nil, envelope.New(envelope.InvalidArgument, "disposal_date: "+err.Error(),
			"Give the date as YYYY-MM-DD.", "date=2024-06-20").With("value", a.DisposalDate)
	}
	funds, err := a.FundArgs.table()
	if err != nil {
		return MatchingExplainResult{}, nil, err
	}
	rep, warnings, err := calculate(deps, a.LedgerArgs, a.RatesArgs, engine.Options{ERI: funds})
	if err != nil {
		return MatchingExplainResult{}, warnings, err
	}
	if d := rep.Pending.KnownBefore(); d != 0 && date >= d {
		return MatchingExplainResult{}, warnings, engine.PendingError("the disposal on "+date.String(), rep.Pending.Rows,
			fmt.Sprintf("Disposals before %s can be explained now.", d))
	}
	warnings = append(warnings, rep.Pending.Warnings()...)
	ticker := strings.ToUpper(strings.TrimSpace(a.Ticker))
	if ticker == "" {
		t, err := dayTicker(rep, date)
		if err != nil {
			return MatchingExplainResult{}, warnings, err
		}
		ticker = t
	}
	var found []engine.Disposal
	for _, ty := range rep.TaxYears {
		for _, d := range ty.Disposals {
			if d.Date == date && d.Ticker == ticker {
				found = append(found, d)
			}
		}
	}
	// disposals outside the CGT totals: transfers to a spouse, offshore income gains, exempt
	for _, list := range [][]engine.Disposal{rep.NoGainNoLoss, rep.OffshoreIncomeGains, rep.ExemptDisposals} {
		for _, d := range list {
			if d.Date == date && d.Ticker == ticker {
				found = append(found, d)
			}
		}
	}
	if len(found) == 0 {
		return MatchingExplainResult{}, warnings, disposalNotFound(rep, date, ticker)
	}
	res := explain(taxyear.For(date).Period(), found[0])
	for _, d := range found[1:] {
		// a negligible value claim and a sale, or a sale and a transfer to a spouse, on one date
		more := explain(res.Period, d)
		res.Explanation = append(res.Explanation, more.Explanation...)
	}
	if len(found) > 1 {
		warnings = append(warnings, fmt.Sprintf("%s has %d disposals on %s (%s): disposal is the first, and the explanation covers each",
			ticker, len(found), date, kinds(found)))
	}
	return res, warnings, nil
}

// kinds names the kinds of the disposals for a message.
func kinds(ds []engine.Disposal) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = kindName(d.Kind)
	}
	return strings.Join(names, ", ")
}

// kindName is what a disposal is, in words.
func kindName(kind string) string {
	switch kind {
	case engine.KindSpouseTransfer:
		return "a transfer to a spouse or civil partner"
	case engine.KindNegligible:
		return "a negligible value claim"
	case engine.KindCapitalDistribution:
		return "a capital distribution"
	}
	return "a sale"
}

func explain(period string, d engine.Disposal) MatchingExplainResult {
	head := "Disposal"
	switch d.Kind {
	case engine.KindSpouseTransfer:
		head = "Transfer to a spouse or civil partner (no gain, no loss; not counted on the SA108)"
	case engine.KindNegligible:
		head = "Negligible value claim, a deemed sale and reacquisition at the value claimed (" + d.Reference + ")"
	case engine.KindCapitalDistribution:
		head = "Capital distribution treated as a part disposal"
	}
	switch d.Reference {
	case engine.RefOffshoreIncome:
		head += " of a non-reporting fund: an offshore income gain, charged to income tax (SA106), outside the CGT totals"
	case engine.RefOffshoreLoss:
		head += " of a non-reporting fund at a loss: no offshore income gain (" + d.Reference + "), an allowable capital loss"
	case engine.RefExempt:
		head += " of an exempt security (" + d.Reference + "): no chargeable gain or allowable loss"
	}
	lines := []string{fmt.Sprintf("%s of %s %s on %s (tax year %s): proceeds %s, sale fees %s.",
		head, d.Quantity.String(), d.Ticker, d.Date, period, pounds(d.Proceeds), pounds(d.SaleFees))}
	for i := range d.Matches {
		m := &d.Matches[i]
		m.Steps = m.Explain()
		lines = append(lines, fmt.Sprintf("%d. %s (%s): %s shares, cost %s, gain %s.", i+1, ruleName(m.Rule), m.Reference, m.Quantity.String(), pounds(m.Cost), pounds(m.Gain)))
		for _, s := range m.Steps {
			lines = append(lines, "   "+s)
		}
	}
	lines = append(lines, allowableLine(d))
	return MatchingExplainResult{Period: period, Disposal: d, Explanation: lines}
}

func pounds(m model.Money) string { return records.Pounds(m.String()) }

// allowableLine is the disposal's allowable cost as the sum of its parts as shown (each to the
// penny), so the line adds up as it reads; the cost used, worked from the figures before
// rounding, follows when it differs.
func allowableLine(d engine.Disposal) string {
	parts := []string{"identified cost " + pounds(d.IdentifiedCost), "sale fees " + pounds(d.SaleFees)}
	sum := d.IdentifiedCost.Rounded().Add(d.SaleFees.Rounded())
	for _, a := range d.Adjustments {
		parts = append(parts, a.Reason+" "+pounds(a.Cost))
		sum = sum.Add(a.Cost.Rounded())
	}
	line := fmt.Sprintf("Allowable cost %s (%s)", pounds(model.NewMoney(sum)), strings.Join(parts, " + "))
	if !sum.Equal(d.AllowableCost.Rounded()) {
		line += fmt.Sprintf("; %s from the figures before rounding is the cost used", pounds(d.AllowableCost))
	}
	return line + fmt.Sprintf(", gain %s.", pounds(d.Gain))
}

func ruleName(rule string) string {
	switch rule {
	case engine.RuleSameDay:
		return "Same-day rule"
	case engine.RuleBedAndBreakfast:
		return "30-day (bed and breakfast) rule"
	case engine.RuleSection104:
		return "Section 104 pool"
	}
	return rule
}

// disposalNotFound lists the ticker's disposals, or every ticker with disposals.
// allDisposals lists every disposal of the report: the years' and those outside the totals.
func allDisposals(rep *engine.Report) []engine.Disposal {
	var out []engine.Disposal
	for _, ty := range rep.TaxYears {
		out = append(out, ty.Disposals...)
	}
	for _, list := range [][]engine.Disposal{rep.NoGainNoLoss, rep.OffshoreIncomeGains, rep.ExemptDisposals} {
		out = append(out, list...)
	}
	return out
}

// dayTicker is the ticker of the one security disposed of on a date, when no ticker was given;
// several, or none, is an error listing the day's disposals (or the dates that have some).
func dayTicker(rep *engine.Report, date model.Date) (string, error) {
	var tickers, dates []string
	for _, d := range allDisposals(rep) {
		if d.Date == date && !slices.Contains(tickers, d.Ticker) {
			tickers = append(tickers, d.Ticker)
		}
		if ds := d.Date.String(); !slices.Contains(dates, ds) {
			dates = append(dates, ds)
		}
	}
	switch len(tickers) {
	case 1:
		return tickers[0], nil
	case 0:
		slices.Sort(dates)
		e := envelope.New(envelope.NotFound, "no disposal on "+date.String()+" in the ledger",
			"Pick a date with disposals: "+strings.Join(dates[:min(len(dates), 20)], ", ")+".")
		if len(dates) > 0 {
			e.Examples = []string{"date=" + dates[0]}
		}
		return "", e.With("dates_with_disposals", nonNilStrings(dates))
	}
	slices.Sort(tickers)
	e := envelope.New(envelope.InvalidArgument, fmt.Sprintf("%d securities were disposed of on %s: %s", len(tickers), date, strings.Join(tickers, ", ")),
		"Give the ticker of the one to explain.", "date="+date.String()+" ticker="+tickers[0])
	return "", e.With("disposals", tickers).With("argument", "ticker")
}

func disposalNotFound(rep *engine.Report, date model.Date, ticker string) error {
	var same, tickers []string
	seen := map[string]bool{}
	for _, ty := range rep.TaxYears {
		for _, d := range ty.Disposals {
			if d.Ticker == ticker {
				same = append(same, d.Date.String())
			}
			if !seen[d.Ticker] {
				seen[d.Ticker] = true
				tickers = append(tickers, d.Ticker)
			}
		}
	}
	e := envelope.New(envelope.NotFound, fmt.Sprintf("no disposal of %s on %s in the ledger", ticker, date),
		"Pick one of the disposals listed in context.")
	if len(same) > 0 {
		e.Hint = fmt.Sprintf("%s has disposals on %s.", ticker, strings.Join(same, ", "))
		e.Examples = []string{"date=" + same[0] + " ticker=" + ticker}
		return e.With("disposals", same).With("ticker", ticker)
	}
	e.Hint = "No disposals of " + ticker + "; tickers with disposals: " + strings.Join(tickers, ", ") + "."
	return e.With("tickers_with_disposals", nonNilStrings(tickers)).With("ticker", ticker)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
