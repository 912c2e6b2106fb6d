package sources

import (
	"path/filepath"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// What one command call gives as its ledger, in the order it is read, and the names it is
// cited and known by. Every front end gives a ledger the same ways (files, files inline,
// inline text, extra lines, a JSON array); they combine.

// ExtraFile is the name extra ledger lines are read under, so they are cited extra:N.
const ExtraFile = "extra"

// Given is a command's ledger inputs, the files already read by the caller.
type Given struct {
	// Files are the files named (read by the caller, in order), then the files given inline.
	Files []Input
	// Content is inline ledger text (cgt lines or a JSON array).
	Content string
	// Extra are more ledger lines, read as a file named ExtraFile.
	Extra []string
	// Transactions, when not nil, are a JSON array of transactions, already read.
	Transactions []model.Transaction
}

// Inputs are the inputs in the order they are read: the files, the inline content (named
// "content" beside other inputs, so that it is cited content:N), the extra lines, then the
// transactions.
func (g Given) Inputs() []Input {
	inputs := append([]Input{}, g.Files...)
	if g.Content != "" {
		name := ""
		if len(inputs) > 0 || len(g.Extra) > 0 {
			name = "content" // cited as content:N beside the files
		}
		inputs = append(inputs, Input{File: name, Content: []byte(g.Content)})
	}
	if len(g.Extra) > 0 {
		inputs = append(inputs, Input{File: ExtraFile, Content: []byte(strings.Join(g.Extra, "\n"))})
	}
	if g.Transactions != nil {
		inputs = append(inputs, Input{Transactions: g.Transactions})
	}
	return inputs
}

// LedgerName names a ledger for records and examples: the base names of the paths given
// ("-" is stdin), with content and extra when they were given beside them, or what kind of
// inline input it was (transactions, ledger).
func LedgerName(paths []string, content, transactions bool, extra bool) string {
	var names []string
	for _, p := range paths {
		if p == "-" {
			names = append(names, "stdin")
			continue
		}
		names = append(names, filepath.Base(p))
	}
	if content && len(names) > 0 {
		names = append(names, "content")
	}
	if len(names) == 0 && transactions {
		names = append(names, "transactions")
	}
	if len(names) == 0 {
		names = append(names, "ledger")
	}
	if extra {
		names = append(names, ExtraFile)
	}
	return strings.Join(names, "+")
}

// ExtraMonths are the months ("2026-12") of the transactions read from extra lines, or nil:
// what-if lines, converted at the latest month of rates when theirs is not published.
func ExtraMonths(txns []model.Transaction) map[string]bool {
	var out map[string]bool
	for i := range txns { // by index: a transaction is a few hundred bytes, not worth a copy each
		if txns[i].Source.File != ExtraFile {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[txns[i].Date.String()[:7]] = true
	}
	return out
}
