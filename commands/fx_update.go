//go:build !js

package commands

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// HMRCMonthlyURL is where HMRC publishes its monthly exchange-rate files (the Online Trade
// Tariff's API): the file of a month is monthly_xml_YYYY-MM.xml under it.
const HMRCMonthlyURL = "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/"

// FXUpdateArgs are the arguments of fx.update.
type FXUpdateArgs struct {
	BaseURL string `json:"base_url,omitempty" jsonschema_description:"Folder URL of HMRC's monthly_xml_YYYY-MM.xml files; default HMRC's." cgt:"pos=0"`
}

// FXUpdateResult says what fx.update fetched into the rate cache.
type FXUpdateResult struct {
	_       struct{}       `record:"kind=fx_update"`
	Cache   string         `json:"cache" record:"entity" jsonschema_description:"The rate cache folder every command reads after the bundled rates."`
	From    string         `json:"newest_before" record:"period" jsonschema_description:"The newest month with rates before the update, YYYY-MM (bundled or cached)."`
	Newest  string         `json:"newest" jsonschema_description:"The newest month with rates after the update, YYYY-MM."`
	Fetched []FetchedMonth `json:"fetched" jsonschema_description:"The months fetched and stored, in order." record:"rows=fetched_month"`
	// NotYet is the first month HMRC has not published (it answered 404); "" when every
	// month up to the current one was there.
	NotYet string `json:"not_yet_published,omitempty" jsonschema_description:"The first month HMRC has not published yet (404), where the update stopped."`
}

// FetchedMonth is one monthly file fetched and stored in the cache.
type FetchedMonth struct {
	Period     string `json:"period" record:"period" jsonschema_description:"The month, YYYY-MM."`
	Currencies int    `json:"currencies" jsonschema_description:"Currencies with a rate in the file."`
	URL        string `json:"url" record:"source" jsonschema_description:"Where it was fetched from."`
	File       string `json:"file" jsonschema_description:"The file written in the cache folder."`
	Source     string `json:"source" jsonschema_description:"How its rates are cited."`
}

// FXUpdate fetches HMRC's monthly rate files published since the newest month cgt has.
var FXUpdate = registry.NewCommand(registry.Meta{
	Name:        "fx.update",
	MCPName:     "update_fx_rates",
	Summary:     "Fetch HMRC's monthly exchange-rate files published since the bundled rates",
	Description: "Fetches HMRC's monthly exchange-rate files (XML) for each month after the newest month cgt has (the bundled table, or the rate cache) up to the current month, checks each is HMRC's file for that month, and stores them in the rate cache folder (the user's cache directory, cgt/rates; CGT_RATES_CACHE moves it), each written whole. Every command then reads the cache after the bundled rates (files given in rates win over both), citing \"HMRC monthly exchange rates, MONTH, fetched DATE\". It stops quietly at the first month HMRC has not published yet (404) and fails on anything else (unreachable, another status, a file that is not HMRC's XML for the month) without writing anything. It is the one command that uses the network, and only when run: the MCP and tool servers do not offer it.",
	Usage:       "cgt fx.update [base_url=URL]",
	Examples: []registry.Example{
		{Description: "Fetch the months published since the bundled rates", Args: []string{}},
		{Description: "Fetch from a mirror of HMRC's files", Args: []string{"base_url=http://127.0.0.1:8000/"}},
	},
	SideEffects:    registry.CacheUpdate,
	RateLimitNotes: "One request per month missing, only when run; HMRC publishes each month's file shortly before the month starts.",
	CitationFields: []string{"fetched[].url", "fetched[].source"},
	Agent: registry.Agent{
		UseWhen:   []string{"A result says a row needs an exchange rate HMRC has not published or that is not fetched (fx_rate_unavailable naming fx.update)."},
		AvoidWhen: []string{"You are a server's client: servers do not offer it; ask the person to run cgt fx.update in a terminal."},
		NextSteps: []string{"report.calculate", "fx.rate"},
	},
}, fxUpdate)

func fxUpdate(ctx context.Context, deps *registry.Deps, a FXUpdateArgs) (FXUpdateResult, []string, error) {
	if deps.Fetch == nil || deps.RatesCache == nil {
		return FXUpdateResult{}, nil, envelope.New(envelope.PermissionDenied, "fx.update runs only from the command line: this front end does not use the network",
			"Run `cgt fx.update` in a terminal; the commands served here read the rates it fetches.", "cgt fx.update")
	}
	base, err := monthlyBase(a.BaseURL)
	if err != nil {
		return FXUpdateResult{}, nil, err
	}
	res := FXUpdateResult{Cache: deps.RatesCache.Path(), Fetched: []FetchedMonth{}}
	res.From = newestMonth(deps.Rates)
	res.Newest = res.From
	today := time.Now()
	if deps.Today != nil {
		today = deps.Today().Time()
	}
	type fetched struct {
		month FetchedMonth
		data  []byte
	}
	var got []fetched
	for _, period := range fx.MonthsToFetch(res.From, today) {
		u := base + "monthly_xml_" + period + ".xml"
		status, body, err := deps.Fetch(ctx, u)
		if err != nil {
			return FXUpdateResult{}, nil, fetchError(u, period, err)
		}
		if status == 404 {
			res.NotYet = period
			break
		}
		if status != 200 {
			return FXUpdateResult{}, nil, fetchError(u, period, fmt.Errorf("the server answered HTTP %d", status))
		}
		mo, err := fx.CheckFetched(body, period)
		if err != nil {
			return FXUpdateResult{}, nil, envelope.New(envelope.ParseError, fmt.Sprintf("the file fetched for %s from %s is not HMRC's monthly rate file for that month: %s", period, u, errMessage(err)),
				"Nothing was written. Check base_url points at HMRC's monthly files (monthly_xml_YYYY-MM.xml); the default is HMRC's own: "+HMRCMonthlyURL,
				"cgt fx.update").With("url", u).With("period", period).With("value", period)
		}
		name := fx.CacheName(period, today)
		got = append(got, fetched{FetchedMonth{Period: period, Currencies: len(mo.Rates), URL: u, File: name,
			Source: fx.CachedSource(period, today.Format("2006-01-02"))}, body})
	}
	for _, f := range got { // every month checked before any is written
		if err := deps.RatesCache.Write(f.month.File, f.data); err != nil {
			return FXUpdateResult{}, nil, envelope.New(envelope.IOError, "cannot write "+f.month.File+" in the rate cache "+res.Cache+": "+unwrapPathError(err),
				"Check the folder can be written, or move the cache with CGT_RATES_CACHE=DIR.", "CGT_RATES_CACHE=/tmp/cgt-rates cgt fx.update").With("path", res.Cache)
		}
		res.Fetched = append(res.Fetched, f.month)
		res.Newest = f.month.Period
	}
	return res, updateWarnings(res), nil
}

// updateWarnings says when nothing was fetched, and why.
func updateWarnings(res FXUpdateResult) []string {
	if len(res.Fetched) > 0 {
		return nil
	}
	if res.NotYet != "" {
		return []string{fmt.Sprintf("nothing fetched: HMRC has not published %s yet; the rates run to %s", res.NotYet, res.Newest)}
	}
	return []string{"nothing fetched: the rates already run to " + res.Newest + ", the current month"}
}

// monthlyBase checks base_url and ends it with a slash; "" is HMRC's endpoint.
func monthlyBase(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return HMRCMonthlyURL, nil
	}
	if !isFolderURL(s) {
		return "", envelope.New(envelope.InvalidArgument, fmt.Sprintf("base_url %q is not an http(s) folder URL", clipText(s)),
			"Give the URL of the folder holding monthly_xml_YYYY-MM.xml files, or leave base_url out for HMRC's.",
			"cgt fx.update base_url="+HMRCMonthlyURL).With("argument", "base_url").With("value", clipText(s))
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s, nil
}

// newestMonth is the last month the rates have (bundled table and cache).
func newestMonth(src any) string {
	if t, ok := src.(interface{ Months() (string, string) }); ok {
		_, last := t.Months()
		return last
	}
	_, last := fx.Embedded().Months()
	return last
}

func fetchError(u, period string, err error) error {
	return envelope.New(envelope.IOError, fmt.Sprintf("cannot fetch HMRC's rates for %s from %s: %s", period, u, err.Error()),
		"Nothing was written. Check the connection (or base_url) and run cgt fx.update again; HMRC's files are at "+HMRCMonthlyURL+" (monthly_xml_YYYY-MM.xml).",
		"cgt fx.update").With("url", u).With("period", period)
}

// errMessage is an error's message without its code.
func errMessage(err error) string {
	if e := envelope.FromError(err); e != nil {
		return e.Message
	}
	return err.Error()
}

// clipText shortens text quoted back to the user.
func clipText(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// isFolderURL reports whether s is an http(s) URL with a host and no query or fragment.
func isFolderURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.RawQuery == "" && u.Fragment == ""
}
