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
	"github.com/cgt-tools/cgt/cgt/sources"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// ledgerExample is a small valid ledger used in hints.
const ledgerExample = "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD"

// LedgerArgs are the arguments of every command that reads a ledger: paths, inline content,
// a transactions array and extra lines, in any combination (at least one).
type LedgerArgs struct {
	Path         []string         `json:"path,omitempty" jsonschema_description:"Ledger files or broker exports, combined." cgt:"pos=0,alias=file,alias=files"`
	CGTContent   string           `json:"cgt_content,omitempty" jsonschema_description:"Ledger text (cgt lines, or a JSON array)." cgt:"alias=content"`
	Transactions []map[string]any `json:"transactions,omitempty" jsonschema_description:"Transaction objects {date, action, ticker, quantity, price, fees}."`
	Extra        []string         `json:"extra,omitempty" jsonschema_description:"More ledger lines (cited extra:N)."`
}

func (a LedgerArgs) ledger() ledgerInput {
	return ledgerInput{a.CGTContent, a.Transactions, a.Path, a.Extra}
}

// ledgerInput is the ways a ledger-reading command receives its ledger; they combine.
type ledgerInput struct {
	content      string
	transactions []map[string]any
	paths        []string
	extra        []string
}

// extraFile is the name the extra lines are read under, so they are cited as extra:N.
const extraFile = "extra"

// readLedger reads the inputs given (files, then inline content, then the extra lines, then a
// transactions array) into transactions, with the warnings the reader raised (overlapping files).
func readLedger(deps *registry.Deps, in ledgerInput) ([]model.Transaction, []string, error) {
	if in.content == "" && in.transactions == nil && len(in.paths) == 0 && len(in.extra) == 0 {
		return nil, nil, envelope.New(envelope.UsageError,
			"give a ledger: path (ledger files), cgt_content (ledger text), transactions (a JSON array) or extra (ledger lines)",
			"Pass the ledger inline as cgt_content, or name files with path; they combine.", `cgt_content="`+ledgerExample+`"`).
			With("given", 0)
	}
	txns, warnings, err := readInput(deps, in)
	if err == nil && len(txns) == 0 {
		// An empty result from an empty ledger looks like a clean bill; say why it is empty.
		warnings = append(warnings, "the ledger has no transactions (is it empty, or all comments?)")
	}
	return txns, warnings, err
}

func readInput(deps *registry.Deps, in ledgerInput) ([]model.Transaction, []string, error) {
	if in.content != "" && in.transactions == nil && len(in.paths) == 0 && len(in.extra) == 0 {
		return readFiles([]dsl.Input{{Content: []byte(in.content)}}, imports.Options{})
	}
	inputs, pathWarnings, err := readPaths(deps, in.paths)
	if err != nil {
		return nil, nil, err
	}
	if in.content != "" {
		name := ""
		if len(inputs) > 0 || len(in.extra) > 0 {
			name = "content" // cited as content:N beside the files
		}
		inputs = append(inputs, dsl.Input{File: name, Content: []byte(in.content)})
	}
	if len(in.extra) > 0 {
		inputs = append(inputs, dsl.Input{File: extraFile, Content: []byte(strings.Join(in.extra, "\n"))})
	}
	srcs, err := readSources(inputs, imports.Options{})
	if err != nil {
		return nil, pathWarnings, err
	}
	if in.transactions != nil {
		arr, err := parseTransactionArray(in.transactions)
		if err != nil {
			return nil, pathWarnings, err
		}
		srcs = append(srcs, sources.Source{Transactions: arr})
	}
	txns, warnings := sources.Combine(srcs)
	return txns, append(pathWarnings, warnings...), nil
}

// readFiles reads ledgers and broker exports, told apart by their content: a file an
// importer recognises is converted (opts may force the format and label the account), any
// other is read as a ledger. The sources are combined (cgt/sources): transactions keep the
// order of the files, and a row a second source gives again counts once, with a warning.
func readFiles(inputs []dsl.Input, opts imports.Options) ([]model.Transaction, []string, error) {
	srcs, err := readSources(inputs, opts)
	if err != nil {
		return nil, nil, err
	}
	txns, warnings := sources.Combine(srcs)
	return txns, warnings, nil
}

// readSources parses each input: an export through its importer, anything else as a ledger.
func readSources(inputs []dsl.Input, opts imports.Options) ([]sources.Source, error) {
	srcs := make([]sources.Source, 0, len(inputs))
	for _, in := range inputs {
		if imports.Detect(in.Content) == nil && (opts.Broker == "" || opts.Broker == "auto") {
			if looksTabular(in.Content) {
				return nil, imports.Unrecognised(displayName(in.File), in.Content)
			}
			txns, err := dsl.ParseAuto(in.File, in.Content)
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, sources.Source{File: in.File, Transactions: txns})
			continue
		}
		imp, err := imports.Read(in.File, in.Content, opts)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, sources.Source{File: in.File, Import: imp})
	}
	return srcs, nil
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

// parseTransactionArray reads the transactions given as JSON objects.
func parseTransactionArray(items []map[string]any) ([]model.Transaction, error) {
	raw := make([]json.RawMessage, len(items))
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		raw[i] = b
	}
	return dsl.ParseJSONArray("", raw)
}

// readPaths reads the files named. A path named twice, in the same or another spelling
// (a.csv and ./a.csv), is read once, with a warning; the same file reached another way (a
// link, a copy) is read again and its rows count once when the sources are combined.
func readPaths(deps *registry.Deps, paths []string) ([]dsl.Input, []string, error) {
	inputs := make([]dsl.Input, 0, len(paths))
	seen := make(map[string]string, len(paths))
	var warnings []string
	for _, p := range paths {
		key := filepath.Clean(p)
		if first, ok := seen[key]; ok {
			same := "is given twice"
			if first != p {
				same = "and " + first + " name the same file"
			}
			warnings = append(warnings, "path "+p+" "+same+": read once")
			continue
		}
		seen[key] = p
		b, err := readPath(deps, p)
		if err != nil {
			return nil, nil, err
		}
		name := p
		if p == "-" {
			name = "stdin"
		}
		inputs = append(inputs, dsl.Input{File: name, Content: b})
	}
	return inputs, warnings, nil
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
