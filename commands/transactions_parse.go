//go:build !js

package commands

import (
	"context"
	"fmt"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/registry"
)

// TransactionsParseArgs are the arguments of transactions.parse.
type TransactionsParseArgs struct {
	LedgerArgs
	FilterArgs
}

// TransactionsParseResult is the normalized ledger.
type TransactionsParseResult struct {
	Count        int                   `json:"count" jsonschema_description:"Number of transactions read (that match the filters, when given)."`
	Transactions []dsl.JSONTransaction `json:"transactions" record:"rows=transaction" jsonschema_description:"The transactions in input order, in the JSON transaction form."`
}

// TransactionsParse reads and normalizes a ledger.
var TransactionsParse = registry.NewCommand(registry.Meta{
	Name:        "transactions.parse",
	MCPName:     "parse_transactions",
	Summary:     "Read a ledger (text or JSON) into normalized transactions",
	Description: "Reads a ledger in cgt's line format (or a JSON array of transactions) and returns every transaction in the normalized JSON form: upper-case ticker and action, exact decimal quantities, every amount with its currency, and the file and line it came from. Use it to check a ledger before calculating; errors name the line, the offending value and a valid example.",
	Usage:       "cgt transactions.parse FILE... | cgt_content=TEXT | --json '{\"transactions\":[...]}'",
	Examples: []registry.Example{
		{Description: "Read the bundled example ledger", Args: []string{"examples/portfolio.cgt"}},
		{Description: "Read one line given inline", Args: []string{"cgt_content=2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None.",
	CitationFields: []string{"transactions[].source"},
	Agent: registry.Agent{
		UseWhen:   []string{"Checking that a ledger reads as intended, or converting broker rows to the normalized form before calculating."},
		AvoidWhen: []string{"You want gains or tax figures: use report.calculate, which parses too."},
		NextSteps: []string{"report.calculate", "transactions.to_dsl"},
	},
}, transactionsParse)

func transactionsParse(_ context.Context, deps *registry.Deps, a TransactionsParseArgs) (TransactionsParseResult, []string, error) {
	f, err := a.FilterArgs.filter()
	if err != nil {
		return TransactionsParseResult{}, nil, err
	}
	txns, warnings, err := readLedger(deps, a.ledger())
	if err != nil {
		return TransactionsParseResult{}, warnings, err
	}
	if err := f.Check(txns); err != nil {
		return TransactionsParseResult{}, warnings, err
	}
	if f.Active() {
		all := len(txns)
		kept := txns[:0:0]
		for _, t := range txns {
			if f.Ticker(t.Ticker) && f.Date(t.Date) {
				kept = append(kept, t)
			}
		}
		txns = kept
		warnings = append(warnings, fmt.Sprintf("%d of the ledger's %d transactions match the filters", len(txns), all))
	}
	return TransactionsParseResult{Count: len(txns), Transactions: dsl.ToJSONAll(txns)}, warnings, nil
}
