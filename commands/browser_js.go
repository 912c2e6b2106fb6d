//go:build js

package commands

import "github.com/cgt-tools/cgt/registry"

// The browser module (cmd/cgt-wasm) registers only the commands the page runs: reading
// broker exports and ledgers into one ledger, the report, and the three plans. The others are
// left out of it (their files are built for every other program): nil here, and All leaves
// them out.
var (
	TransactionsParse, TransactionsToDSL, MatchingExplain, HoldingsList registry.Command
	FXRate, FXUpdate, TaxYearInfo                                       registry.Command
)
