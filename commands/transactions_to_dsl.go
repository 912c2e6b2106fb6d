//go:build !js

package commands

import (
	"context"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/registry"
)

// TransactionsToDSLArgs are the arguments of transactions.to_dsl.
type TransactionsToDSLArgs struct {
	Transactions []map[string]any `json:"transactions,omitempty" jsonschema_description:"Transaction objects {date, action, ticker, quantity, price, fees, total}; money a GBP string or {amount, currency}."`
	CGTContent   string           `json:"cgt_content,omitempty" jsonschema_description:"A JSON array of transactions as text (or ledger text, which is rewritten canonically)." cgt:"alias=content"`
}

// TransactionsToDSLResult is the canonical ledger text.
type TransactionsToDSLResult struct {
	_     struct{} `record:"kind=ledger"`
	Count int      `json:"count" jsonschema_description:"Number of transactions written."`
	DSL   string   `json:"dsl" jsonschema_description:"The ledger in cgt's canonical line format, one transaction a line, currencies always written, fees only when non-zero."`
}

// TransactionsToDSL writes transactions as canonical ledger text.
var TransactionsToDSL = registry.NewCommand(registry.Meta{
	Name:        "transactions.to_dsl",
	MCPName:     "convert_to_dsl",
	Summary:     "Write JSON transactions as canonical ledger lines",
	Description: "Converts transactions in the JSON form into cgt's canonical ledger text: `YYYY-MM-DD BUY TICKER QUANTITY @ PRICE CURRENCY [FEES AMOUNT CURRENCY]` and the like, currencies always written. Reading the text back gives the same transactions. Use it to save a ledger an agent assembled from broker statements.",
	Usage:       "cgt transactions.to_dsl --json '{\"transactions\":[...]}'",
	Examples: []registry.Example{
		{Description: "One purchase in US dollars", Args: []string{"--json", `{"transactions":[{"date":"2024-04-01","action":"buy","ticker":"aapl","quantity":"100","price":{"amount":"150.00","currency":"USD"},"fees":{"amount":"5.00","currency":"USD"}}]}`}},
	},
	SideEffects:    registry.PureCalculation,
	RateLimitNotes: "None.",
	CitationFields: []string{},
	Agent: registry.Agent{
		UseWhen:   []string{"Turning transactions gathered as JSON into a ledger file the user can keep and edit."},
		AvoidWhen: []string{"You only need figures: report.calculate accepts the JSON transactions directly."},
		NextSteps: []string{"transactions.parse", "report.calculate"},
	},
}, transactionsToDSL)

func transactionsToDSL(_ context.Context, deps *registry.Deps, a TransactionsToDSLArgs) (TransactionsToDSLResult, []string, error) {
	txns, warnings, err := readLedger(&registry.Deps{}, ledgerInput{content: a.CGTContent, transactions: a.Transactions})
	if err != nil {
		return TransactionsToDSLResult{}, warnings, err
	}
	return TransactionsToDSLResult{Count: len(txns), DSL: dsl.FormatAll(txns)}, warnings, nil
}
