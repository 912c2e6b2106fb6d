//go:build !js

package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
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
	found, err := rep.FindDisposals(date, strings.ToUpper(strings.TrimSpace(a.Ticker)))
	if err != nil {
		return MatchingExplainResult{}, warnings, err
	}
	period := taxyear.For(date).Period()
	res := MatchingExplainResult{Period: period, Disposal: found[0]}
	for _, d := range found {
		// a negligible value claim and a sale, or a sale and a transfer to a spouse, on one date
		res.Explanation = append(res.Explanation, engine.Explain(period, d)...)
	}
	if len(found) > 1 {
		warnings = append(warnings, fmt.Sprintf("%s has %d disposals on %s (%s): disposal is the first, and the explanation covers each",
			found[0].Ticker, len(found), date, engine.Kinds(found)))
	}
	return res, warnings, nil
}
