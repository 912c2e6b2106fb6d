package commands

import (
	"errors"
	"fmt"
	"time"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/sources"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// ratesExample is a valid use of the rates argument, quoted in error examples.
const ratesExample = "cgt fx.rate USD 2026 10 --rates 2026-10.xml"

// ratesDownload says where HMRC publishes the files the rates argument reads.
const ratesDownload = fx.DownloadHint

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
	src := fx.NewOverlay(months, deps.Rates)
	return src, append(append(cacheNotes, warnings...), src.Summary()), nil
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
	if f, ok := src.(*fx.Overlay); ok {
		e.With("months_from_files", f.Periods())
		if n, ok := me.Context["nearest"].(map[string]string); ok {
			code, _ := me.Context["currency"].(string)
			period, _ := me.Context["period"].(string)
			e.With("nearest", f.Nearest(n, code, period))
		}
	}
	return e
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
	var what *fx.Latest
	if months := sources.ExtraMonths(txns); months != nil {
		what = fx.NewLatest(src, months)
		opts.Rates = what
	}
	if deps.Today != nil {
		opts.Today = deps.Today()
	}
	opts.Context = deps.Context
	opts.DeferLaterRates = true // each command checks whether its result needs them (engine.RatesPending)
	rep, err := engine.Calculate(txns, opts)
	if err != nil {
		return nil, warnings, withRatesRemedy(err, src)
	}
	warnings = append(warnings, rep.Warnings...)
	if what != nil {
		warnings = append(warnings, what.Notes()...)
	}
	return rep, warnings, nil
}
