package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/sources"
	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/cgt-tools/cgt/registry"
)

// TransactionsImportArgs are the arguments of transactions.import.
type TransactionsImportArgs struct {
	Path        []string     `json:"path,omitempty" jsonschema_description:"Export files (any format)." cgt:"pos=0,alias=file"`
	Files       []FileArg    `json:"files,omitempty" jsonschema_description:"More files: a path, or {name, content} inline."`
	Content     string       `json:"content,omitempty" jsonschema_description:"An export's text." cgt:"alias=cgt_content"`
	FileName    string       `json:"file_name,omitempty" jsonschema_description:"Its file name (history.csv)." cgt:"alias=name"`
	Broker      BrokerName   `json:"broker,omitempty" jsonschema_description:"Format (default auto)." cgt:"alias=format"`
	Account     string       `json:"account,omitempty" jsonschema_description:"Account label for every row."`
	AccountType string       `json:"account_type,omitempty" jsonschema:"enum=ISA,enum=LISA,enum=JISA,enum=SIPP,enum=GIA" jsonschema_description:"Its type (wrappers: outside CGT)."`
	Accounts    *AccountsArg `json:"accounts,omitempty" jsonschema_description:"Each file's account: GLOB=LABEL:TYPE,... (TYPE ISA LISA JISA SIPP GIA)."`
}

// TransactionsImportResult is the imported ledger and the account of every file's rows.
type TransactionsImportResult struct {
	_            struct{}              `record:"kind=ledger"`
	Count        int                   `json:"count" jsonschema_description:"Number of transactions imported."`
	Transactions []ImportedTransaction `json:"transactions" record:"rows=transaction" jsonschema_description:"The transactions in date order, in the JSON transaction form with the security and account labels the files give."`
	Imports      []imports.Report      `json:"imports" record:"rows=import" jsonschema_description:"One entry per file: the format, and every data row accounted for (rows = imported + skipped)."`
	Ledger       string                `json:"ledger" jsonschema_description:"The transactions as canonical ledger lines, ready to save as a .cgt file."`

	reports []imports.Report
}

// ImportedTransaction is the JSON transaction form with the labels an import carries. A BUY
// or SELL whose export states the whole consideration (the sterling debited or credited) has
// total instead of price.
type ImportedTransaction struct {
	dsl.JSONTransaction
}

// TransactionsImport converts broker exports into ledger transactions.
var TransactionsImport = registry.NewCommand(registry.Meta{
	Name:        "transactions.import",
	MCPName:     "import_transactions",
	Summary:     "Convert broker export files into ledger transactions, every row accounted for",
	Description: "Reads broker exports (the formats of the broker argument: Trading 212, Interactive Brokers, Charles Schwab, Freetrade, interactive investor, AJ Bell, DEGIRO, eToro, Revolut and more), recognised from their content, and converts trades, dividends and splits into ledger transactions. Every data row is accounted for in imports[]: imported, or skipped with its type (deposit, withdrawal, interest, fx_conversion, fee...) and reason; a row that could change a gain and cannot be converted is also a warning saying what to add by hand. With a GBP account (Trading 212, Freetrade) the sterling actually debited or credited is the consideration and conversion fees are costs; foreign-currency accounts (IBKR, Schwab) keep their foreign amounts. --output text prints an editable ledger (`--out 2024.cgt`). Every ledger-reading command also accepts these files directly.",
	Usage:       "cgt transactions.import FILE... [content=TEXT file_name=NAME] [broker=auto|NAME] [account=LABEL [account_type=ISA|LISA|JISA|SIPP|GIA]] [--output text --out LEDGER.cgt]",
	Examples: []registry.Example{
		{Description: "Import a Trading 212 history export", Args: []string{"cgt/imports/testdata/trading212/kapji_2024_transactions.csv"}},
		{Description: "Import as an editable ledger, labelling the account", Args: []string{"cgt/imports/testdata/trading212/kapji_2026_transactions.csv", "account=t212", "--output", "text"}},
	},
	SideEffects:    registry.LocalFileRead,
	RateLimitNotes: "None: the files are read locally.",
	CitationFields: []string{"transactions[].source", "imports[].file", "imports[].skipped[].row"},
	Agent: registry.Agent{
		UseWhen:   []string{"The user has broker exports and needs a ledger or a check of what they hold."},
		AvoidWhen: []string{"You only need the figures: report.calculate reads the exports directly."},
		NextSteps: []string{"report.calculate", "holdings.list", "transactions.to_dsl"},
	},
}, transactionsImport)

func transactionsImport(_ context.Context, deps *registry.Deps, a TransactionsImportArgs) (TransactionsImportResult, []string, error) {
	if len(a.Path) == 0 && a.Content == "" && len(a.Files) == 0 {
		return TransactionsImportResult{}, nil, envelope.New(envelope.UsageError, "name at least one broker export file, or give an export's content",
			"Give the files as path (positional in the CLI), or the export's text as content with its file_name.", "cgt transactions.import history.csv")
	}
	if a.AccountType != "" && a.Account == "" {
		return TransactionsImportResult{}, nil, envelope.New(envelope.InvalidArgument, "account_type="+a.AccountType+" needs the account it declares",
			"Give the account label with account, and its type with account_type.", "cgt transactions.import isa.csv account=T212-ISA account_type=ISA").
			With("argument", "account_type")
	}
	in := ledgerInput{paths: a.Path, accounts: a.Accounts}
	in.addFiles(a.Files)
	opts := imports.Options{Broker: string(a.Broker), Account: a.Account}
	if a.AccountType != "" {
		typ, msg, hint := dsl.CheckAccountType(a.AccountType)
		if msg != "" {
			return TransactionsImportResult{}, nil, envelope.New(envelope.InvalidArgument, msg, hint, "account_type=ISA").With("argument", "account_type")
		}
		rule := a.Account + ":" + typ
		raw, _ := json.Marshal(map[string]string{"*": rule})
		if a.Accounts != nil && len(a.Accounts.raw) > 0 {
			extra, err := a.Accounts.rules()
			if err != nil {
				return TransactionsImportResult{}, nil, err
			}
			items := []string{"*=" + rule}
			for _, r := range extra {
				items = append(items, r.Glob+"="+r.Label+":"+r.Type)
			}
			raw, _ = json.Marshal(items)
		}
		in.accounts = &AccountsArg{raw: raw}
		opts.Account = ""
	}
	loaded, warnings, err := loadContent(deps, in, a.Content, a.FileName, opts)
	if err != nil {
		return TransactionsImportResult{}, nil, err
	}
	txns := loaded.Transactions
	warnings = append(warnings, engine.WrapperWarnings(txns)...)
	order.HotStable(txns, func(x, y model.Transaction) int { return int(x.Date - y.Date) })
	res := TransactionsImportResult{Count: len(txns), Transactions: make([]ImportedTransaction, len(txns))}
	for i, t := range txns {
		res.Transactions[i] = importedJSON(t)
	}
	res.Imports = []imports.Report{}
	for _, imp := range loaded.Imports {
		res.Imports = append(res.Imports, imp.Report)
	}
	res.reports = res.Imports
	res.Ledger = dsl.FormatAll(txns)
	if len(txns) == 0 {
		warnings = append(warnings, "no transactions were imported: every row was skipped (see imports[].skipped)")
	}
	return res, warnings, nil
}

// loadContent is loadInput with an export's content given inline under its file name.
func loadContent(deps *registry.Deps, in ledgerInput, content, fileName string, opts imports.Options) (*sources.Loaded, []string, error) {
	if content == "" {
		return loadInput(deps, in, opts)
	}
	if fileName == "" {
		fileName = "content"
	}
	in.files = append(in.files, InlineFile{Name: fileName, Content: content})
	return loadInput(deps, in, opts)
}

// importedJSON is the JSON form of an imported transaction with its labels.
func importedJSON(t model.Transaction) ImportedTransaction {
	j := ImportedTransaction{JSONTransaction: dsl.ToJSON(t)}
	if (t.Action == model.Buy || t.Action == model.Sell) && t.Price.IsZero() && t.Price.Currency == "" && !t.Total.IsZero() {
		j.Price = nil
		j.Total = &dsl.JSONAmount{Amount: scaledString(t.Total.Value), Currency: t.Total.Currency}
	}
	return j
}

// scaledString writes a decimal at the scale it was read with (12.50 stays 12.50).
func scaledString(d model.Decimal) string { return string(d.AppendExact(nil)) }

// WriteText renders the import as an editable ledger: a comment block per file accounting for
// its rows (every skipped row with its reason), the warnings as comments, then one canonical
// ledger line per transaction in date order.
func (r TransactionsImportResult) WriteText(w io.Writer, warnings []string) error {
	var b strings.Builder
	b.WriteString("# Ledger imported by cgt transactions.import. Check it, then keep it as your ledger.\n")
	for _, rep := range r.reports {
		fmt.Fprintf(&b, "#\n# %s (%s", oneLine(rep.File), rep.Broker)
		if rep.Account != "" {
			fmt.Fprintf(&b, ", account %s", oneLine(rep.Account))
		}
		fmt.Fprintf(&b, "): %d rows, %d imported, %d skipped\n", rep.Rows, rep.Imported, len(rep.Skipped))
		for _, s := range rep.Skipped {
			fmt.Fprintf(&b, "#   row %d skipped (%s): %s\n", s.Row, oneLine(s.Type), oneLine(s.Reason))
		}
	}
	if len(warnings) > 0 {
		b.WriteString("#\n")
		for _, wn := range warnings {
			fmt.Fprintf(&b, "# warning: %s\n", oneLine(wn))
		}
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	_, err := io.WriteString(w, r.Ledger) // the transactions' lines, written once by the handler
	return err
}

// oneLine makes text from a file (its name, a skipped row's description) safe for a comment:
// control characters and line separators become spaces.
func oneLine(s string) string { return dsl.CommentText(s) }

// BrokerName is the broker argument: auto, or an importer's name. Its schema lists the names
// of the importers registered in cgt/imports, so the published list cannot go stale.
type BrokerName string

// SchemaMap is the argument's schema: a string, one of auto and the importers' names.
func (BrokerName) SchemaMap() map[string]any {
	enum := []any{"auto"}
	for _, n := range imports.Names() {
		enum = append(enum, n)
	}
	return map[string]any{"type": "string", "enum": enum}
}

// RecordEntity names the result's own record, which carries the count and the ledger text.
func (r TransactionsImportResult) RecordEntity() string { return "import" }
