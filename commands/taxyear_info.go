//go:build !js

package commands

import (
	"context"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/registry"
)

// TaxYearInfoArgs are the arguments of taxyear.info.
type TaxYearInfoArgs struct {
	Year any `json:"year" jsonschema:"required,oneof_type=integer;string" jsonschema_description:"The tax year: its start year (2024 means 2024/25) or \"2024/25\"." cgt:"pos=0,alias=tax_year"`
}

// TaxYearInfoResult describes a tax year.
type TaxYearInfoResult struct {
	_                     struct{}           `record:"kind=tax_year"`
	Period                string             `json:"period" record:"period" jsonschema_description:"The tax year, YYYY/YY."`
	StartDate             model.Date         `json:"start_date" jsonschema_description:"First day (6 April)."`
	EndDate               model.Date         `json:"end_date" jsonschema_description:"Last day (5 April)."`
	AnnualExemptAmount    model.Money        `json:"annual_exempt_amount" jsonschema_description:"Annual exempt amount for an individual (GBP)."`
	AnnualExemptReference string             `json:"annual_exempt_reference" jsonschema_description:"Where the annual exempt amount is set."`
	BasicRateLimit        model.Money        `json:"basic_rate_limit" jsonschema_description:"UK basic rate limit (GBP): gains up to the part of it taxable income leaves unused (plus gross Gift Aid and relief-at-source pension contributions) are charged at the basic rate. CGT uses the UK figure for every taxpayer, Scottish taxpayers included."`
	BasicRateReference    string             `json:"basic_rate_limit_reference" jsonschema_description:"Where the basic rate limit is set."`
	ReportingThreshold    model.Money        `json:"reporting_threshold" jsonschema_description:"Disposal proceeds (GBP) above which disposals must be reported on the SA108 pages even without a gain: 50,000 from 2023/24, four times the annual exempt amount before."`
	RatePeriods           []taxyear.RatePart `json:"rate_periods" record:"rows=rate_period" jsonschema_description:"The parts of the year with one pair of CGT rates on gains from shares; 2024/25 and 2010/11 have two."`
	RateChangeDates       []model.Date       `json:"rate_change_dates" jsonschema_description:"Days inside the year on which the rates changed."`
	Projected             bool               `json:"projected" jsonschema_description:"True when the year is after the last one whose figures are legislated; the latest known figures are shown."`
	Notes                 []string           `json:"notes" jsonschema_description:"Anything to know about the year's figures."`
}

// TaxYearInfo describes a UK tax year.
var TaxYearInfo = registry.NewCommand(registry.Meta{
	Name:        "taxyear.info",
	MCPName:     "get_tax_year",
	Summary:     "Dates, annual exempt amount, basic rate band and CGT rates of a tax year",
	Description: "Gives a UK tax year's dates (6 April to 5 April), the annual exempt amount, and the Capital Gains Tax rates on gains from shares in force on each part of the year, the UK basic rate limit that decides which gains are charged at the lower rate (the same for Scottish taxpayers), and the disposal proceeds above which disposals must be reported — 2024/25 changed from 10%/20% to 18%/24% on 30 October 2024, and 2010/11 from 18% to 18%/28% on 23 June 2010 — with the legislation behind each figure.",
	Usage:       "cgt taxyear.info YEAR",
	Examples: []registry.Example{
		{Description: "The year with the mid-year rate change", Args: []string{"2024"}},
		{Description: "Written as a tax year", Args: []string{"2023/24"}},
	},
	SideEffects:    registry.PureCalculation,
	RateLimitNotes: "None.",
	CitationFields: []string{"period", "annual_exempt_reference", "rate_periods[].reference", "basic_rate_limit_reference"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user asks about the annual exempt amount, CGT rates, the basic rate band, the reporting threshold, or which dates a tax year covers."},
		AvoidWhen: []string{"You need the user's own figures: report.calculate gives them with the year's allowance applied."},
		NextSteps: []string{"report.calculate"},
	},
}, taxYearInfo)

func taxYearInfo(_ context.Context, _ *registry.Deps, a TaxYearInfoArgs) (TaxYearInfoResult, []string, error) {
	y, _, err := parseYear(a.Year)
	if err != nil {
		return TaxYearInfoResult{}, nil, err
	}
	r := TaxYearInfoResult{Period: y.Period(), StartDate: y.StartDate(), EndDate: y.EndDate(),
		AnnualExemptAmount: model.NewMoney(y.AnnualExemptAmount()), AnnualExemptReference: y.AnnualExemptReference(),
		BasicRateLimit: model.NewMoney(y.BasicRateLimit()), BasicRateReference: y.BasicRateLimitReference(),
		ReportingThreshold: model.NewMoney(y.ReportingThreshold()),
		RateChangeDates:    []model.Date{}, Projected: y.Projected(), Notes: append([]string{}, y.Notes()...)}
	for i, p := range y.RatePeriods() {
		r.RatePeriods = append(r.RatePeriods, p.Part())
		if i > 0 {
			r.RateChangeDates = append(r.RateChangeDates, p.From)
		}
	}
	var warnings []string
	if y.Projected() {
		warnings = r.Notes
	}
	return r, warnings, nil
}
