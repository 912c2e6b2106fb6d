//go:build !js

package commands

import (
	"context"
	"time"

	"github.com/cgt-tools/cgt/registry"
)

// FXRateArgs are the arguments of fx.rate.
type FXRateArgs struct {
	Currency string `json:"currency" jsonschema:"required,minLength=3,maxLength=3" jsonschema_description:"ISO 4217 currency code, e.g. USD (case-insensitive)." cgt:"pos=0,alias=ccy"`
	Year     int    `json:"year" jsonschema:"required,minimum=2000,maximum=2100" jsonschema_description:"Calendar year of the month, e.g. 2024." cgt:"pos=1"`
	Month    int    `json:"month" jsonschema:"required,minimum=1,maximum=12" jsonschema_description:"Calendar month 1-12." cgt:"pos=2"`
	RatesArgs
}

// FXRateResult is HMRC's monthly rate for one currency and month.
type FXRateResult struct {
	_        struct{} `record:"kind=fx_rate"`
	Currency string   `json:"currency" record:"entity" jsonschema_description:"ISO 4217 code."`
	Period   string   `json:"period" record:"period" jsonschema_description:"The month the rate applies to, YYYY-MM."`
	Rate     string   `json:"rate" jsonschema_description:"Units of the currency per £1, exactly as HMRC publishes it. GBP amount = foreign amount ÷ rate."`
	Source   string   `json:"source" jsonschema_description:"Citation for the rate: HMRC monthly exchange rates, the period, the licence, and the file it was read from when it came from rates."`
}

// FXRate answers HMRC's monthly exchange rate.
var FXRate = registry.NewCommand(registry.Meta{
	Name:        "fx.rate",
	MCPName:     "get_fx_rate",
	Summary:     "HMRC monthly exchange rate for a currency and month",
	Description: "Returns the HMRC monthly exchange rate (units of currency per £1) that cgt uses to convert foreign-currency trades made in that calendar month. Rates are HMRC's published monthly rates (Open Government Licence v3.0), bundled with cgt from February 2014. For a month HMRC has published since the bundled table ends, run cgt fx.update (it fetches HMRC's files into the rate cache, read after the bundled table; the source says when it was fetched), or pass its monthly XML file in rates (--rates FILE|DIR): a month read from a file takes precedence over both, and the source names the file. A month with no rate is an fx_rate_unavailable error naming the nearest months available.",
	Usage:       "cgt fx.rate CURRENCY YEAR MONTH [--rates FILE|DIR]...",
	Examples: []registry.Example{
		{Description: "The US dollar rate for March 2024", Args: []string{"USD", "2024", "3"}},
		{Description: "The euro rate for December 2023, as key=value words", Args: []string{"currency=EUR", "year=2023", "month=12"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None: the rates are bundled, read from the rate cache fx.update fills, or from the files given in rates; no network.",
	CitationFields: []string{"source", "period", "rate"},
	Agent: registry.Agent{
		UseWhen:   []string{"Checking the exchange rate cgt applied to a foreign-currency trade, or converting an amount the way HMRC expects."},
		AvoidWhen: []string{"You need a daily or spot rate: HMRC's monthly rate is what cgt uses, and it is not a market rate."},
		NextSteps: []string{"report.calculate", "matching.explain"},
	},
}, fxRate)

func fxRate(_ context.Context, deps *registry.Deps, a FXRateArgs) (FXRateResult, []string, error) {
	rates, warnings, err := a.source(deps)
	if err != nil {
		return FXRateResult{}, warnings, err
	}
	r, err := rates.Rate(a.Currency, a.Year, time.Month(a.Month))
	if err != nil {
		return FXRateResult{}, warnings, withRatesRemedy(err, rates)
	}
	return FXRateResult{Currency: r.Currency, Period: r.Period, Rate: r.Text(), Source: r.Source}, warnings, nil
}
