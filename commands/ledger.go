package commands

import (
	"context"
	"errors"
	"io"
	"path/filepath"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/sources"
	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/cgt-tools/cgt/registry"
)

// ledgerExample is a small valid ledger used in hints.
const ledgerExample = "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD\n2024-06-20 SELL AAPL 50 @ 180.00 USD"

// LedgerArgs are the arguments of every command that reads a ledger: paths, inline content,
// a transactions array and extra lines, in any combination (at least one), and the accounts
// the files are in.
type LedgerArgs struct {
	Path         []string         `json:"path,omitempty" jsonschema_description:"Ledger files or broker exports, combined." cgt:"pos=0,alias=file"`
	Files        []FileArg        `json:"files,omitempty" jsonschema_description:"More files: a path, or {name, content} inline."`
	CGTContent   string           `json:"cgt_content,omitempty" jsonschema_description:"Ledger text (cgt lines, or a JSON array)." cgt:"alias=content"`
	Transactions []map[string]any `json:"transactions,omitempty" jsonschema_description:"Transaction objects {date, action, ticker, quantity, price, fees}."`
	Extra        []string         `json:"extra,omitempty" jsonschema_description:"More ledger lines (cited extra:N)."`
	Accounts     *AccountsArg     `json:"accounts,omitempty" jsonschema_description:"Each file's account: GLOB=LABEL:TYPE,... (TYPE ISA LISA JISA SIPP GIA)."`
}

func (a LedgerArgs) ledger() ledgerInput {
	in := ledgerInput{content: a.CGTContent, transactions: a.Transactions, paths: a.Path, extra: a.Extra, accounts: a.Accounts}
	in.addFiles(a.Files)
	return in
}

// addFiles adds the files argument's items: paths after the paths given, inline files as
// inline files.
func (in *ledgerInput) addFiles(files []FileArg) {
	for _, f := range files {
		if f.inline {
			in.files = append(in.files, InlineFile{Name: f.Name, Content: f.Content})
		} else {
			in.paths = append(in.paths, f.Path)
		}
	}
}

// ledgerInput is the ways a ledger-reading command receives its ledger; they combine.
type ledgerInput struct {
	content      string
	transactions []map[string]any
	paths        []string
	extra        []string
	accounts     *AccountsArg
	files        []InlineFile
}

// InlineFile is a file given by its content: a ledger or a broker export, cited by its name.
type InlineFile struct {
	_ model.NotComparable

	Name    string `json:"name"`
	Content string `json:"content"`
}

// FileArg is an item of the files argument: a path (a string), or a file given inline as
// {"name": "t212.csv", "content": "..."}, read as the file of that name would be and cited
// by that name with the same line numbers.
type FileArg struct {
	_ model.NotComparable

	Path    string
	Name    string
	Content string
	inline  bool
}

// UnmarshalJSON reads a path or an inline file.
func (f *FileArg) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &f.Path); err == nil {
		return nil
	}
	var obj struct {
		Name    *string `json:"name"`
		Content *string `json:"content"`
	}
	if err := json.Unmarshal(b, &obj); err != nil || obj.Name == nil || obj.Content == nil || *obj.Name == "" {
		return envelope.New(envelope.InvalidArgument, "a files item is a path, or an object {\"name\": \"...\", \"content\": \"...\"} with both",
			"Give the file's name (how it is cited) and its text.", `files=[{"name": "t212.csv", "content": "Action,Time,..."}]`).With("argument", "files")
	}
	f.Name, f.Content, f.inline = *obj.Name, *obj.Content, true
	return nil
}

// MarshalJSON writes the item as given.
func (f FileArg) MarshalJSON() ([]byte, error) {
	if f.inline {
		return json.Marshal(InlineFile{Name: f.Name, Content: f.Content})
	}
	return json.Marshal(f.Path)
}

// SchemaMap is an item's schema: a path, or a file inline.
func (FileArg) SchemaMap() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "required": []any{"name", "content"}, "properties": map[string]any{
			"name": map[string]any{"type": "string"}, "content": map[string]any{"type": "string"}}},
	}}
}

// readLedger reads the inputs given (files, then inline content, then the extra lines, then a
// transactions array) into transactions, with the warnings the reader raised (overlapping files).
func readLedger(deps *registry.Deps, in ledgerInput) ([]model.Transaction, []string, error) {
	if in.content == "" && in.transactions == nil && len(in.paths) == 0 && len(in.extra) == 0 && len(in.files) == 0 {
		return nil, nil, envelope.New(envelope.UsageError,
			"give a ledger: path (ledger files), cgt_content (ledger text), transactions (a JSON array) or extra (ledger lines)",
			"Pass the ledger inline as cgt_content, or name files with path; they combine.", `cgt_content="`+ledgerExample+`"`).
			With("given", 0)
	}
	loaded, warnings, err := loadInput(deps, in, imports.Options{})
	if err != nil {
		return nil, warnings, err
	}
	if len(loaded.Transactions) == 0 {
		// An empty result from an empty ledger looks like a clean bill; say why it is empty.
		warnings = append(warnings, "the ledger has no transactions (is it empty, or all comments?)")
	}
	return loaded.Transactions, warnings, nil
}

// loadInput reads every input through cgt/sources: the files (paths), the inline content,
// the extra lines and a transactions array, in that order, with the accounts given.
func loadInput(deps *registry.Deps, in ledgerInput, opts imports.Options) (*sources.Loaded, []string, error) {
	rules, err := in.accounts.rules()
	if err != nil {
		return nil, nil, err
	}
	inputs, warnings, err := readPaths(deps, in.paths)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range in.files {
		inputs = append(inputs, sources.Input{File: f.Name, Content: []byte(f.Content)})
	}
	given := sources.Given{Files: inputs, Content: in.content, Extra: in.extra}
	if in.transactions != nil {
		arr, err := parseTransactionArray(in.transactions)
		if err != nil {
			return nil, warnings, err
		}
		given.Transactions = nonNil(arr)
	}
	ctx := deps.Context
	if ctx == nil {
		ctx = context.Background()
	}
	loaded, err := sources.Load(ctx, given.Inputs(), sources.Options{Import: opts, Accounts: rules, ReadFile: includeReader(deps)})
	if err != nil {
		return nil, warnings, err
	}
	return loaded, append(warnings, loaded.Warnings...), nil
}

func nonNil(t []model.Transaction) []model.Transaction {
	if t == nil {
		return []model.Transaction{}
	}
	return t
}

// includeReader reads the files a ledger's INCLUDE lines name, under the front end's rules.
func includeReader(deps *registry.Deps) func(string) ([]byte, error) {
	if deps.ReadFile == nil {
		return nil
	}
	return func(p string) ([]byte, error) { return readPath(deps, p) }
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
func readPaths(deps *registry.Deps, paths []string) ([]sources.Input, []string, error) {
	inputs := make([]sources.Input, 0, len(paths))
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
		name, at := p, p
		if p == "-" {
			name, at = "stdin", ""
		}
		inputs = append(inputs, sources.Input{File: name, Path: at, Content: b})
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

// AccountsArg is the accounts argument: which account (and type) each file's rows are in.
// Over JSON a string ("t212-isa*.csv=MYISA:ISA,ibkr.xml=IBKR:GIA"), a list of such items, or
// an object {"GLOB": "LABEL:TYPE"}; in the CLI the string.
type AccountsArg struct {
	raw json.RawMessage
}

// UnmarshalJSON keeps the value as given; rules reads it, so errors name the argument.
func (a *AccountsArg) UnmarshalJSON(b []byte) error {
	a.raw = append(json.RawMessage(nil), b...)
	return nil
}

// MarshalJSON writes the value as given.
func (a AccountsArg) MarshalJSON() ([]byte, error) {
	if len(a.raw) == 0 {
		return []byte("null"), nil
	}
	return a.raw, nil
}

// SchemaMap publishes the three forms as alternatives of the one property.
func (AccountsArg) SchemaMap() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
	}}
}

// rules reads the argument into the accounts rules (none when it was not given).
func (a *AccountsArg) rules() ([]sources.AccountRule, error) {
	if a == nil || len(a.raw) == 0 || string(a.raw) == "null" {
		return nil, nil
	}
	var items []string
	var one string
	var list []string
	var obj map[string]string
	switch {
	case json.Unmarshal(a.raw, &one) == nil:
		items = []string{one}
	case json.Unmarshal(a.raw, &list) == nil:
		items = list
	case json.Unmarshal(a.raw, &obj) == nil:
		// Each key is one glob, taken whole: a file's name may hold a comma.
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		order.Ascending(keys)
		var rules []sources.AccountRule
		for _, k := range keys {
			r, err := sources.ParseAccountPair(k, obj[k])
			if err != nil {
				return nil, err
			}
			rules = append(rules, r)
		}
		return rules, nil
	default:
		return nil, envelope.New(envelope.InvalidArgument, "accounts must be a string GLOB=LABEL:TYPE[,...], a list of them, or an object {GLOB: \"LABEL:TYPE\"}",
			"Say which account each file is in.", "accounts=t212-isa*.csv=MYISA:ISA").With("argument", "accounts")
	}
	return sources.ParseAccounts(items)
}

// ledgerName names a ledger for records (sources.LedgerName): the files in the order they
// are read, the paths named and then the files given inline, by their names.
func (a LedgerArgs) ledgerName() string {
	in := a.ledger()
	names := append([]string{}, in.paths...)
	for _, f := range in.files {
		names = append(names, f.Name)
	}
	return sources.LedgerName(names, a.CGTContent != "", a.Transactions != nil, len(a.Extra) > 0)
}
