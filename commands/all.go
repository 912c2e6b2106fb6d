// Package commands holds every cgt command, one file each: its arguments, its result, its
// registration (metadata and agent hints) and its handler. All lists them; nothing registers
// itself.
package commands

import (
	"slices"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/registry"
)

// All is the one explicit list of commands, grouped by namespace, in the order the overview
// and the contract list them. The browser module leaves out the commands its page does not run
// (browser_js.go).
func All() []registry.Command {
	return slices.DeleteFunc([]registry.Command{
		// Ledgers: reading and writing transactions.
		TransactionsParse,
		TransactionsToDSL,
		TransactionsImport,
		// The calculation and its explanation.
		ReportCalculate,
		MatchingExplain,
		HoldingsList,
		// Planning: sales that have not happened, worked out by the same engine.
		PlanSale,
		PlanAllowance,
		PlanHarvest,
		// Reference data: exchange rates and tax years.
		FXRate,
		FXUpdate,
		TaxYearInfo,
	}, func(c registry.Command) bool { return c == nil })
}

// NewRegistry builds the registry with the given dependencies; nil Rates means HMRC's
// bundled monthly rates, with the months of the rate cache after them when the front end has
// one.
func NewRegistry(deps *registry.Deps) (*registry.Registry, error) {
	if deps.Rates == nil && deps.RatesCache != nil {
		deps.Rates = withCache(deps.RatesCache)
	}
	if deps.Rates == nil {
		deps.Rates = fx.Embedded()
	}
	if deps.Schemas == nil {
		deps.Schemas = Schemas
	}
	return registry.New(deps, All()...)
}
