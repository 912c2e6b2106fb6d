package sources

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
)

// Input is one file given to a command (or inline text), its bytes read by the caller.
type Input struct {
	// File names it in citations and warnings: the path as given, or the name given with
	// inline content.
	File string
	// Path is where it was read from, so that the files its INCLUDE lines name are found
	// beside it; "" for inline content (its INCLUDE lines are relative to the working folder).
	Path string
	// Content is its text.
	Content []byte
	// Transactions, when not nil, are a ledger given already read (a JSON array of
	// transaction objects); Content is then unused.
	Transactions []model.Transaction
}

// Options tune Load.
type Options struct {
	// Import forces a format for every file (Broker), as transactions.import's broker does.
	Import imports.Options
	// Accounts are the accounts argument's rules (ParseAccounts).
	Accounts []AccountRule
	// ReadFile reads a file an INCLUDE line names, under the caller's rules (its roots); nil
	// when this front end reads no files, and an INCLUDE line is then an error.
	ReadFile func(path string) ([]byte, error)
}

// Loaded is what Load read: the combined transactions, the warnings, and each export's import
// (its report accounts for every row) in the order read.
type Loaded struct {
	Transactions []model.Transaction
	Warnings     []string
	Imports      []*imports.Import
	// Unread names the rows that could change a figure and were not converted ("a.csv row 3");
	// the first warning is then UnreadNotice's.
	Unread []string
}

// UnreadNotice starts the warning, always the first, that rows of the files that could change
// a figure were not read: a report's "No disposals" is then not a clean bill.
const UnreadNotice = "NOT READ:"

func unreadNotice(rows []string) string {
	listed := strings.Join(rows[:min(len(rows), 5)], ", ")
	if len(rows) > 5 {
		listed += fmt.Sprintf(" and %d more", len(rows)-5)
	}
	what := fmt.Sprintf("%d rows of the files that could change a figure were", len(rows))
	if len(rows) == 1 {
		what = "1 row of the files that could change a figure was"
	}
	return fmt.Sprintf("%s %s not converted (%s): every figure leaves them out, so a year with \"No disposals\" may have some. "+
		"Add them to a ledger by hand: the warnings below say what each holds", UnreadNotice, what, listed)
}

// maxIncludeDepth bounds ledgers that include ledgers.
const maxIncludeDepth = 8

// Load reads the inputs — ledgers and broker exports, told apart by their content (an export
// through its importer, anything else as a ledger), a ledger's INCLUDE lines followed — puts
// each file's rows in the account the rules and INCLUDE lines give, and combines them
// (Combine). It stops when ctx is cancelled.
func Load(ctx context.Context, inputs []Input, opts Options) (*Loaded, error) {
	l := loader{opts: opts, seen: map[string]string{}}
	for _, in := range inputs {
		if in.Path != "" {
			l.seen[filepath.Clean(in.Path)] = in.File
		}
	}
	for _, in := range inputs {
		if err := l.read(in, 0); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	srcs, warnings, err := applyAccounts(l.srcs, append(l.rules, opts.Accounts...))
	if err != nil {
		return nil, err
	}
	txns, combined, err := CombineContext(ctx, srcs)
	if err != nil {
		return nil, err
	}
	out := &Loaded{Transactions: txns, Warnings: append(append(l.warnings, warnings...), combined...)}
	for s := range srcs {
		if imp := srcs[s].Import; imp != nil {
			out.Imports = append(out.Imports, imp)
			for _, sk := range imp.Report.Skipped {
				if sk.Unread {
					out.Unread = append(out.Unread, fmt.Sprintf("%s row %d", name(imp.Report.File), sk.Row))
				}
			}
		}
	}
	if n := len(out.Unread); n > 0 {
		out.Warnings = append([]string{unreadNotice(out.Unread)}, out.Warnings...)
	}
	return out, nil
}

// loader holds the work of Load.
type loader struct {
	opts     Options
	srcs     []Source
	rules    []AccountRule
	warnings []string
	seen     map[string]string // cleaned path → the name it was read under
}

// read reads one input into a source, and the files its INCLUDE lines name after it.
func (l *loader) read(in Input, depth int) error {
	if in.Transactions != nil {
		l.srcs = append(l.srcs, Source{File: in.File, Transactions: in.Transactions})
		return nil
	}
	forced := l.opts.Import.Broker != "" && !strings.EqualFold(l.opts.Import.Broker, "auto")
	if !forced && imports.Detect(in.Content) == nil {
		return l.readLedger(in, depth)
	}
	imp, err := imports.Read(in.File, in.Content, l.opts.Import)
	if err != nil {
		return err
	}
	l.srcs = append(l.srcs, Source{File: in.File, Import: imp, title: firstField(in.Content)})
	return nil
}

// readLedger reads a ledger and follows its INCLUDE lines.
func (l *loader) readLedger(in Input, depth int) error {
	if LooksTabular(in.Content) {
		return imports.Unrecognised(displayName(in.File), in.Content)
	}
	incs, text, err := dsl.SplitIncludes(in.File, in.Content)
	if err != nil {
		return err
	}
	txns, err := dsl.ParseAuto(in.File, text)
	if err != nil {
		return err
	}
	l.srcs = append(l.srcs, Source{File: in.File, Transactions: txns})
	for _, inc := range incs {
		if err := l.include(in, inc, depth); err != nil {
			return err
		}
	}
	return nil
}

// include reads the file an INCLUDE line names, relative to the ledger that names it.
func (l *loader) include(from Input, inc dsl.Include, depth int) error {
	at := Where(inc.Source)
	if l.opts.ReadFile == nil {
		return &model.Error{Code: model.CodeInvalidArgument, File: inc.Source.File, Line: inc.Source.Line, Value: inc.Path,
			Message:  fmt.Sprintf("%s: INCLUDE %s names a file, but this front end reads no files", at, inc.Path),
			Hint:     "Give the file itself (as inline content, with the accounts argument for its account), or run the command where files can be read.",
			Examples: []string{"accounts=" + filepath.Base(inc.Path) + "=MYISA:ISA"}}
	}
	if depth+1 > maxIncludeDepth {
		return &model.Error{Code: model.CodeInvalidArgument, File: inc.Source.File, Line: inc.Source.Line, Value: inc.Path,
			Message: fmt.Sprintf("%s: INCLUDE %s: ledgers include each other more than %d deep", at, inc.Path, maxIncludeDepth),
			Hint:    "Name every file from one portfolio ledger.", Examples: []string{dsl.IncludeExample}}
	}
	p := inc.Path
	if !filepath.IsAbs(p) && from.Path != "" {
		p = filepath.Join(filepath.Dir(from.Path), p)
	}
	key := filepath.Clean(p)
	if first, ok := l.seen[key]; ok {
		l.warnings = append(l.warnings, fmt.Sprintf("%s: INCLUDE %s names %s, which is already read: read once", at, inc.Path, name(first)))
		l.ruleFor(inc, first)
		return nil
	}
	b, err := l.opts.ReadFile(p)
	if err != nil {
		return err // the reader names the file
	}
	l.seen[key] = p
	if err := l.read(Input{File: p, Path: p, Content: b}, depth+1); err != nil {
		return err
	}
	l.ruleFor(inc, p)
	return nil
}

// ruleFor records the account an INCLUDE line gives the file read under the name file.
func (l *loader) ruleFor(inc dsl.Include, file string) {
	if inc.Account == "" {
		return
	}
	for s := range l.srcs {
		if l.srcs[s].File == file {
			l.rules = append(l.rules, AccountRule{Glob: file, Label: inc.Account, Type: inc.AccountType,
				From: Where(inc.Source), source: s + 1})
			return
		}
	}
}

// LooksTabular reports content that is plainly not a ledger, so that an unrecognised export
// is reported as one (with the formats cgt knows) rather than as a ledger syntax error on its
// first line: XML, or a first line of comma-separated names.
func LooksTabular(src []byte) bool {
	c := imports.Sniff(src)
	if c.XMLRoot != "" || c.JSONKeys != nil {
		return true
	}
	h := strings.TrimSpace(c.Header)
	if strings.HasPrefix(h, "[") { // a JSON ledger, on one line or several
		return false
	}
	if isIncludeHeader(h) {
		return false
	}
	return strings.Count(h, ",") >= 2 && !strings.HasPrefix(h, "#") &&
		(len(h) == 0 || h[0] < '0' || h[0] > '9')
}

func isIncludeHeader(h string) bool {
	return len(h) >= 8 && strings.EqualFold(h[:8], "INCLUDE ")
}

// firstField is the first field of a file's first line: the title some exports start with
// ("Bob's Stocks and Shares ISA").
func firstField(src []byte) string {
	line := src[:min(len(src), 256)]
	if i := strings.IndexAny(string(line), "\r\n"); i >= 0 {
		line = line[:i]
	}
	f := string(line)
	if i := strings.IndexByte(f, ','); i >= 0 {
		f = f[:i]
	}
	return strings.Trim(strings.TrimSpace(f), `"`)
}

func displayName(file string) string {
	if file == "" {
		return "the content"
	}
	return file
}
