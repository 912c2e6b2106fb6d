package commands

import (
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// ledgerExample is a small valid ledger used in hints.
const ledgerExample = "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD"

// LedgerArgs are the arguments of every command that reads a ledger: exactly one of a path,
// inline content or a transactions array.
type LedgerArgs struct {
	Path         []string         `json:"path,omitempty" jsonschema_description:"Ledger files or broker exports (recognised by content), combined. Give exactly one of path, cgt_content, transactions." cgt:"pos=0,alias=file,alias=files"`
	CGTContent   string           `json:"cgt_content,omitempty" jsonschema_description:"Ledger text in cgt's line format, or a JSON array of transactions as text." cgt:"alias=content"`
	Transactions []map[string]any `json:"transactions,omitempty" jsonschema_description:"Transactions as JSON objects {date, action, ticker, quantity, price, fees, total, tax, ratio}; money as a GBP string or {amount, currency}."`
}

func (a LedgerArgs) ledger() ledgerInput { return ledgerInput{a.CGTContent, a.Transactions, a.Path} }

// ledgerInput is the three ways a ledger-reading command receives its ledger.
type ledgerInput struct {
	content      string
	transactions []map[string]any
	paths        []string
}

// readLedger reads exactly one of the three inputs into transactions, with the warnings the
// reader raised (overlapping files).
func readLedger(deps *registry.Deps, in ledgerInput) ([]model.Transaction, []string, error) {
	given := 0
	for _, ok := range []bool{in.content != "", in.transactions != nil, len(in.paths) > 0} {
		if ok {
			given++
		}
	}
	if given != 1 {
		return nil, nil, envelope.New(envelope.UsageError,
			"give exactly one of cgt_content (ledger text), transactions (a JSON array) or path (ledger files)",
			"Pass the ledger inline as cgt_content, or name files with path.", `cgt_content="`+ledgerExample+`"`).
			With("given", given)
	}
	txns, warnings, err := readInput(deps, in)
	if err == nil && len(txns) == 0 {
		// An empty result from an empty ledger looks like a clean bill; say why it is empty.
		warnings = append(warnings, "the ledger has no transactions (is it empty, or all comments?)")
	}
	return txns, warnings, err
}

func readInput(deps *registry.Deps, in ledgerInput) ([]model.Transaction, []string, error) {
	switch {
	case in.content != "":
		return readFiles([]dsl.Input{{Content: []byte(in.content)}}, imports.Options{})
	case in.transactions != nil:
		return readTransactionArray(in.transactions)
	}
	inputs, err := readPaths(deps, in.paths)
	if err != nil {
		return nil, nil, err
	}
	return readFiles(inputs, imports.Options{})
}

// readFiles reads ledgers and broker exports, told apart by their content: a file an
// importer recognises is converted (opts may force the format and label the account), any
// other is read as a ledger. Transactions keep the order of the files; rows repeated across
// exports (one broker reference) count once, with a warning.
func readFiles(inputs []dsl.Input, opts imports.Options) ([]model.Transaction, []string, error) {
	var exports []*imports.Import
	perInput := make([]*imports.Import, len(inputs))
	var ledgers []dsl.Input
	for i, in := range inputs {
		if imports.Detect(in.Content) == nil && (opts.Broker == "" || opts.Broker == "auto") {
			if looksTabular(in.Content) {
				return nil, nil, imports.Unrecognised(displayName(in.File), in.Content)
			}
			ledgers = append(ledgers, in)
			continue
		}
		imp, err := imports.Read(in.File, in.Content, opts)
		if err != nil {
			return nil, nil, err
		}
		perInput[i] = imp
		exports = append(exports, imp)
	}
	if exports == nil {
		return dsl.ReadAll(inputs)
	}
	ledgerTxns, warnings, err := dsl.ReadAll(ledgers)
	if err != nil {
		return nil, nil, err
	}
	_, importWarnings := imports.Merge(exports)
	warnings = append(warnings, importWarnings...)
	txns := make([]model.Transaction, 0, len(ledgerTxns))
	for i, in := range inputs {
		if imp := perInput[i]; imp != nil {
			txns = append(txns, imp.Transactions...)
			continue
		}
		// The ledger's transactions, in order: those whose source is this file.
		for len(ledgerTxns) > 0 && ledgerTxns[0].Source.File == in.File {
			txns = append(txns, ledgerTxns[0])
			ledgerTxns = ledgerTxns[1:]
		}
	}
	return append(txns, ledgerTxns...), warnings, nil
}

// looksTabular reports content that is plainly not a ledger, so that an unrecognised export
// is reported as one (with the formats cgt knows) rather than as a ledger syntax error on its
// first line: XML, or a first line of comma-separated names.
func looksTabular(src []byte) bool {
	c := imports.Sniff(src)
	if c.XMLRoot != "" || c.JSONKeys != nil {
		return true
	}
	h := strings.TrimSpace(c.Header)
	if strings.HasPrefix(h, "[") { // a JSON ledger, on one line or several
		return false
	}
	return strings.Count(h, ",") >= 2 && !strings.HasPrefix(h, "#") &&
		(len(h) == 0 || h[0] < '0' || h[0] > '9')
}

func displayName(file string) string {
	if file == "" {
		return "the content"
	}
	return file
}

func readTransactionArray(items []map[string]any) ([]model.Transaction, []string, error) {
	raw := make([]json.RawMessage, len(items))
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, nil, err
		}
		raw[i] = b
	}
	txns, err := dsl.ParseJSONArray("", raw)
	return txns, nil, err
}

func readPaths(deps *registry.Deps, paths []string) ([]dsl.Input, error) {
	inputs := make([]dsl.Input, 0, len(paths))
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		// A file read twice would count every transaction in it twice.
		key := filepath.Clean(p)
		if seen[key] {
			return nil, envelope.New(envelope.InvalidArgument, "path "+p+" is given more than once",
				"Name each ledger file once; files that overlap (two exports of one account) are combined with a warning.",
				"cgt report.calculate 2023.cgt 2024.cgt").With("value", p).With("argument", "path")
		}
		seen[key] = true
		b, err := readPath(deps, p)
		if err != nil {
			return nil, err
		}
		name := p
		if p == "-" {
			name = "stdin"
		}
		inputs = append(inputs, dsl.Input{File: name, Content: b})
	}
	return inputs, nil
}

func readPath(deps *registry.Deps, p string) ([]byte, error) {
	if p == "-" {
		if deps.Stdin == nil {
			return nil, envelope.New(envelope.UsageError, "path - (standard input) is not available here", "Pass the ledger as cgt_content.")
		}
		return io.ReadAll(deps.Stdin)
	}
	if deps.ReadFile == nil {
		return nil, envelope.New(envelope.PermissionDenied, "this front end cannot read files (path "+p+")",
			"Pass the ledger text as cgt_content instead.").With("path", p)
	}
	b, err := deps.ReadFile(p)
	if err != nil {
		var ee *envelope.Error
		if errors.As(err, &ee) {
			return nil, ee
		}
		return nil, envelope.New(envelope.IOError, "cannot read ledger "+p+": "+unwrapPathError(err),
			"Check the path; relative paths are relative to the working directory.").With("path", p)
	}
	return b, nil
}

func unwrapPathError(err error) string {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}
