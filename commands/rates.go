package commands

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// ratesExample is a valid use of the rates argument, quoted in error examples.
const ratesExample = "cgt fx.rate USD 2026 10 --rates 2026-10.xml"

// ratesDownload says where HMRC publishes the files the rates argument reads.
const ratesDownload = "HMRC's monthly rate files (\"exchange rates for customs and VAT\", XML) are at https://www.trade-tariff.service.gov.uk/exchange_rates."

// RatesArgs is the argument of every command that converts currencies: HMRC's monthly
// exchange-rate files, for months the bundled table lacks or that the user wants replaced.
type RatesArgs struct {
	Rates []string `json:"rates,omitempty" jsonschema_description:"HMRC rate XML files or folders." cgt:"alias=rate_file,alias=rate_files"`
}

// source returns the rates to convert with: the front end's (the bundled table), or the
// months read from the rates files over it, with warnings naming those months.
func (a RatesArgs) source(deps *registry.Deps) (fx.Source, []string, error) {
	var cacheNotes []string
	if c, ok := deps.Rates.(*fx.Cached); ok {
		cacheNotes = c.Problems()
	}
	if len(a.Rates) == 0 {
		return deps.Rates, cacheNotes, nil
	}
	files, err := readRateFiles(deps, a.Rates)
	if err != nil {
		return nil, nil, err
	}
	months, warnings, err := readMonths(files)
	if err != nil {
		return nil, warnings, err
	}
	src := newFileRates(months, deps.Rates)
	return src, append(append(cacheNotes, warnings...), src.summary()), nil
}

// rateKey is a currency and calendar month, the lookup key of fileRates.
type rateKey struct {
	code  string
	year  int
	month time.Month
}

// fileRates answers from the months read from files, and otherwise from the base (the bundled
// table): a file's rate replaces the bundled rate for its currency and month, as
// (*fx.Table).Merge does, and a currency the file does not list keeps the bundled rate.
type fileRates struct {
	rates  map[rateKey]fx.Rate
	base   fx.Source
	months []fileMonth
}

func newFileRates(months []fileMonth, base fx.Source) *fileRates {
	if base == nil {
		base = fx.NewTable()
	}
	f := &fileRates{rates: map[rateKey]fx.Rate{}, base: base, months: months}
	for _, fm := range months {
		t, err := time.Parse("2006-01", fm.month.Period)
		if err != nil {
			continue // the reader returns only YYYY-MM periods
		}
		for _, r := range fm.month.Rates {
			if r.Currency == model.GBP {
				continue // sterling is always 1, whatever a file says
			}
			r.Source = fx.SourceFor(fm.month.Period) + ", read from " + fm.file
			f.rates[rateKey{r.Currency, t.Year(), t.Month()}] = r
		}
	}
	return f
}

// Rate is the file's rate for the month when a file gave one, the base's otherwise. The map
// holds no GBP, so "GBp" (pence, which upper-cases to GBP) still reaches the base's refusal.
func (f *fileRates) Rate(currency string, year int, month time.Month) (fx.Rate, error) {
	if r, ok := f.rates[rateKey{strings.ToUpper(strings.TrimSpace(currency)), year, month}]; ok {
		return r, nil
	}
	return f.base.Rate(currency, year, month)
}

// periods lists the months read from files.
func (f *fileRates) periods() []string {
	out := make([]string, len(f.months))
	for i, m := range f.months {
		out[i] = m.month.Period
	}
	return out
}

// summary is the warning that keeps figures citable: which months came from which file, and
// which of them replaced bundled months.
func (f *fileRates) summary() string {
	first, last := "", ""
	if t, ok := f.base.(interface{ Months() (string, string) }); ok {
		first, last = t.Months()
	}
	parts := make([]string, len(f.months))
	for i, m := range f.months {
		parts[i] = m.month.Period + " from " + m.file
		if first != "" && m.month.Period >= first && m.month.Period <= last {
			parts[i] += " (replacing the bundled rates for that month)"
		}
	}
	return "HMRC monthly rates read from files take precedence over the bundled rates: " + strings.Join(parts, "; ")
}

// withRatesRemedy adds the rates argument to a missing-month fx_rate_unavailable error (the
// month is not bundled: the user can supply HMRC's file), and lists the months that came
// from files, so the error says what was tried.
func withRatesRemedy(err error, src fx.Source) error {
	var me *model.Error
	if !errors.As(err, &me) || me.Code != model.CodeFXUnavailable {
		return err
	}
	e := envelope.FromError(err)
	if _, missingMonth := me.Context["nearest"]; missingMonth {
		if _, later := fx.Later(err); later {
			e.Hint += " `cgt fx.update` fetches the months HMRC has published since into the rate cache every command reads."
			e.Examples = append(e.Examples, "cgt fx.update")
		}
		e.Hint += " Give the file (or a directory of them) in rates: --rates FILE|DIR in the CLI. " + ratesDownload
		e.Examples = append(e.Examples, ratesCommand(me.Context))
	}
	if f, ok := src.(*fileRates); ok {
		e.With("months_from_files", f.periods())
		if n, ok := me.Context["nearest"].(map[string]string); ok {
			code, _ := me.Context["currency"].(string)
			period, _ := me.Context["period"].(string)
			e.With("nearest", f.nearest(n, code, period))
		}
	}
	return e
}

// nearest widens the base table's nearest months before and after period with the months
// the files give a rate for code.
func (f *fileRates) nearest(base map[string]string, code, period string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for _, m := range f.months {
		p := m.month.Period
		if !hasCurrency(m.month.Rates, code) || p == period {
			continue
		}
		if p < period && p > out["before"] {
			out["before"] = p
		}
		if p > period && (out["after"] == "" || p < out["after"]) {
			out["after"] = p
		}
	}
	return out
}

func hasCurrency(rates []fx.Rate, code string) bool {
	for _, r := range rates {
		if r.Currency == code {
			return true
		}
	}
	return false
}

// ratesCommand is an fx.rate call with --rates for the currency and month of the error.
func ratesCommand(ctx map[string]any) string {
	code, _ := ctx["currency"].(string)
	period, _ := ctx["period"].(string)
	t, err := time.Parse("2006-01", period)
	if code == "" || err != nil {
		return ratesExample
	}
	return fmt.Sprintf("cgt fx.rate %s %d %d --rates %s.xml", code, t.Year(), int(t.Month()), period)
}

// calculate reads the ledger and the rates files and runs the engine: the steps every
// ledger-reading command that converts currencies shares. Warnings gathered before a failure
// are kept.
func calculate(deps *registry.Deps, ledger LedgerArgs, rates RatesArgs, opts engine.Options) (*engine.Report, []string, error) {
	rep, _, warnings, err := calculateLedger(deps, ledger, rates, opts)
	return rep, warnings, err
}

// calculateLedger is calculate that also returns the transactions read.
func calculateLedger(deps *registry.Deps, ledger LedgerArgs, rates RatesArgs, opts engine.Options) (*engine.Report, []model.Transaction, []string, error) {
	txns, warnings, err := readLedger(deps, ledger.ledger())
	if err != nil {
		return nil, nil, warnings, err
	}
	rep, warnings, err := calculateTxns(deps, txns, warnings, rates, opts)
	return rep, txns, warnings, err
}

func calculateTxns(deps *registry.Deps, txns []model.Transaction, warnings []string, rates RatesArgs, opts engine.Options) (*engine.Report, []string, error) {
	src, more, err := rates.source(deps)
	warnings = append(warnings, more...)
	if err != nil {
		return nil, warnings, err
	}
	opts.Rates = src
	// Extra lines are what-if lines: one dated past the rates available is converted at the
	// latest month, with a warning, as the plans do.
	var what *latestRates
	if months := extraMonths(txns); months != nil {
		what = &latestRates{base: src, only: months}
		opts.Rates = what
	}
	if deps.Today != nil {
		opts.Today = deps.Today()
	}
	opts.Context = deps.Context
	opts.DeferLaterRates = true // each command checks whether its result needs them (rates_pending.go)
	rep, err := engine.Calculate(txns, opts)
	if err != nil {
		return nil, warnings, withRatesRemedy(err, src)
	}
	warnings = append(warnings, rep.Warnings...)
	if what != nil {
		warnings = append(warnings, what.notes()...)
	}
	return rep, warnings, nil
}
