package sources

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
)

// AccountRule says which account the rows of a file are in: the accounts argument
// (GLOB=LABEL:TYPE) or an INCLUDE line of a ledger (INCLUDE FILE ACCOUNT LABEL TYPE).
type AccountRule struct {
	_ model.NotComparable

	// Glob is matched against a file's base name; an exact file name matches itself even if
	// it holds glob characters.
	Glob string
	// Label is the account label (canonical, upper-case), Type its type (ISA, LISA, JISA,
	// SIPP or GIA).
	Label, Type string
	// From says where the rule was given: "accounts", or the INCLUDE line ("p.cgt:3").
	From string

	source int // for an INCLUDE line, the source it names (plus one); 0 for a glob
}

// accountsExample is a valid accounts argument, quoted in errors.
const accountsExample = "accounts=t212-isa*.csv=MYISA:ISA,ibkr*.xml=IBKR:GIA"

// text is the rule as the accounts argument writes it.
func (r AccountRule) text() string { return r.Glob + "=" + r.Label + ":" + r.Type }

// ParseAccounts reads the accounts argument: items GLOB=LABEL:TYPE, each item of the list
// possibly several separated by commas.
func ParseAccounts(items []string) ([]AccountRule, error) {
	var rules []AccountRule
	for _, item := range items {
		for _, one := range strings.Split(item, ",") {
			one = strings.TrimSpace(one)
			if one == "" {
				continue
			}
			r, err := parseAccountRule(one)
			if err != nil {
				return nil, err
			}
			rules = append(rules, r)
		}
	}
	return rules, nil
}

// ParseAccountPair reads one rule of the accounts argument's object form, {GLOB: "LABEL:TYPE"}:
// the glob is taken whole, commas and all (a file named "trades, 2024.csv").
func ParseAccountPair(glob, account string) (AccountRule, error) {
	s := glob + "=" + account
	colon := strings.LastIndexByte(account, ':')
	if strings.TrimSpace(glob) == "" || colon < 0 {
		return AccountRule{}, accountsError(s, "accounts item "+quote(glob)+": "+quote(account)+" is not GLOB: \"LABEL:TYPE\"",
			"Name the files (a file name or a glob such as t212-isa*.csv), and give the account label, then : its type (ISA, LISA, JISA, SIPP or GIA).")
	}
	return accountRule(s, strings.TrimSpace(glob), strings.TrimSpace(account[:colon]), strings.TrimSpace(account[colon+1:]))
}

func parseAccountRule(s string) (AccountRule, error) {
	eq := strings.LastIndexByte(s, '=')
	colon := strings.LastIndexByte(s, ':')
	if eq <= 0 || colon < eq {
		return AccountRule{}, accountsError(s, "accounts item "+quote(s)+" is not GLOB=LABEL:TYPE",
			"Name the files (a file name or a glob such as t212-isa*.csv), then = the account label, then : its type (ISA, LISA, JISA, SIPP or GIA).")
	}
	glob := strings.TrimSpace(s[:eq])
	if strings.ContainsRune(glob, '=') && strings.ContainsRune(glob, ':') {
		return AccountRule{}, runTogether(s)
	}
	return accountRule(s, glob, strings.TrimSpace(s[eq+1:colon]), strings.TrimSpace(s[colon+1:]))
}

// runTogether is the error for two accounts items written as one: "a.csv=A:ISA b.csv=B:GIA"
// in the string form (a file name holding both = and : is taken for that), or a value
// "A:ISA,b.csv=B:GIA" in the object form. Read as one item, every file named would be in the
// last account: the wrong wrapper, and the wrong tax, without a word. When the items
// separated by commas are valid, the error offers them.
func runTogether(s string) *model.Error {
	e := accountsError(s, "accounts item "+quote(s)+" holds more than one GLOB=LABEL:TYPE",
		"Separate the items with commas; in the object form give each file pattern its own key. A label holds no = or :.")
	// Each item of a list with a comma is shorter than s, so this check ends.
	if meant := strings.Join(strings.Fields(s), ","); strings.ContainsRune(meant, ',') {
		if rules, err := ParseAccounts([]string{meant}); err == nil && len(rules) > 1 {
			items := make([]string, len(rules))
			for i, r := range rules {
				items[i] = quote(r.text())
			}
			e.Message += "; did you mean the items " + strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1] + "?"
		}
	}
	return e
}

// accountRule checks a rule's parts; s is the rule as given, for the errors.
func accountRule(s, glob, label, typ string) (AccountRule, error) {
	if _, err := path.Match(glob, ""); err != nil {
		return AccountRule{}, accountsError(s, "accounts: "+quote(glob)+" is not a valid file pattern",
			"Use * and ? for any characters, [abc] for one of a set; or give the file's exact name.")
	}
	if strings.ContainsAny(label, "=:") {
		return AccountRule{}, runTogether(s)
	}
	canon, msg, hint := dsl.CheckAccountLabel(label)
	if msg != "" {
		return AccountRule{}, accountsError(s, "accounts: "+msg, hint)
	}
	t, msg, hint := dsl.CheckAccountType(typ)
	if msg != "" {
		return AccountRule{}, accountsError(s, "accounts: "+msg+" in "+quote(s), hint)
	}
	return AccountRule{Glob: glob, Label: canon, Type: t, From: "accounts"}, nil
}

func accountsError(value, msg, hint string) *model.Error {
	return &model.Error{Code: model.CodeInvalidArgument, Message: msg, Hint: hint, Value: clip(value),
		Examples: []string{accountsExample}, Context: map[string]any{"argument": "accounts"}}
}

func quote(s string) string { return fmt.Sprintf("%q", clip(s)) }

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// matches reports whether a glob rule names the file: by its base name, or its name as given.
func (r AccountRule) matches(file string) bool {
	if file == "" {
		return false
	}
	base := path.Base(filepath.ToSlash(file))
	if r.Glob == base || r.Glob == file {
		return true
	}
	ok, _ := path.Match(r.Glob, base)
	return ok
}

// applyAccounts puts the rows of each file a rule covers in the rule's account, adds the
// declarations the rules make, and returns the warnings: a rule matching no file, a rule
// covering a file without rows, a file that looks like a wrapper but that nothing declares.
// One file given two accounts, or one label two types, is an error.
func applyAccounts(srcs []Source, rules []AccountRule) ([]Source, []string, error) {
	var warnings []string
	declared := declaredTypes(srcs)
	perSource := make([][]AccountRule, len(srcs))
	for _, r := range rules {
		hit := false
		for s := range srcs {
			if r.source == s+1 || r.source == 0 && r.matches(srcs[s].File) {
				perSource[s] = append(perSource[s], r)
				hit = true
			}
		}
		if !hit && r.source == 0 {
			warnings = append(warnings, fmt.Sprintf("accounts: %s matches none of the files given (%s), so it declares nothing; check the name or pattern",
				r.text(), fileNames(srcs)))
		}
	}
	types := map[string]AccountRule{}
	var decls []model.Transaction
	for s := range srcs {
		rs := perSource[s]
		if len(rs) == 0 {
			continue
		}
		r := rs[0]
		for _, o := range rs[1:] {
			if o.Label != r.Label || o.Type != r.Type {
				return nil, nil, conflictError(srcs[s].File, r, o)
			}
		}
		if err := checkType(types, declared, r); err != nil {
			return nil, nil, err
		}
		if n := srcs[s].relabel(r.Label); n == 0 {
			warnings = append(warnings, fmt.Sprintf("accounts: %s (from %s) covers %s, which has no transactions", r.text(), r.From, name(srcs[s].File)))
		}
		if _, ok := types[r.Label]; !ok {
			types[r.Label] = r
			if declared[r.Label] == "" {
				decls = append(decls, declaration(r))
			}
		}
		for k := range decls {
			if decls[k].Ticker == r.Label {
				decls[k].Date = earliest(decls[k].Date, srcs[s].txns())
			}
		}
	}
	warnings = append(warnings, undeclaredWrappers(srcs, perSource, declared)...)
	for k := range decls {
		if decls[k].Date == 0 {
			decls[k].Date = model.NewDate(2000, 1, 1)
		}
	}
	if len(decls) > 0 {
		srcs = append([]Source{{File: "accounts", Transactions: decls}}, srcs...) // listed first on their date
	}
	return srcs, warnings, nil
}

// declaredTypes are the account types the ledgers' ACCOUNT lines declare, by label.
func declaredTypes(srcs []Source) map[string]string {
	out := map[string]string{}
	for s := range srcs {
		if srcs[s].Import != nil {
			continue
		}
		for i := range srcs[s].Transactions {
			if t := &srcs[s].Transactions[i]; t.Action == model.AccountDecl {
				out[strings.ToUpper(t.Ticker)] = strings.ToUpper(t.AccountType())
			}
		}
	}
	return out
}

// checkType refuses a label given two types, by two rules or a rule and an ACCOUNT line.
func checkType(types map[string]AccountRule, declared map[string]string, r AccountRule) error {
	if o, ok := types[r.Label]; ok && o.Type != r.Type {
		return &model.Error{Code: model.CodeInvalidArgument, Value: r.Label,
			Message: fmt.Sprintf("account %s is given two types: %s (from %s) and %s (from %s)", r.Label, o.Type, o.From, r.Type, r.From),
			Hint:    "An account has one type: use another label for the other account.", Examples: []string{accountsExample},
			Context: map[string]any{"argument": "accounts"}}
	}
	if d := declared[r.Label]; d != "" && d != r.Type {
		return &model.Error{Code: model.CodeInvalidArgument, Value: r.Label,
			Message: fmt.Sprintf("account %s is %s by an ACCOUNT line but %s by %s", r.Label, d, r.Type, r.From),
			Hint:    "An account has one type: correct one of them, or use another label.", Examples: []string{accountsExample},
			Context: map[string]any{"argument": "accounts"}}
	}
	return nil
}

func conflictError(file string, a, b AccountRule) *model.Error {
	return &model.Error{Code: model.CodeInvalidArgument, File: file, Value: b.text(),
		Message: fmt.Sprintf("%s is given two accounts: %s:%s (from %s, %s) and %s:%s (from %s, %s)", name(file),
			a.Label, a.Type, a.From, a.Glob, b.Label, b.Type, b.From, b.Glob),
		Hint:     "A file's rows are in one account: narrow the patterns so that each file matches one of them.",
		Examples: []string{accountsExample}, Context: map[string]any{"argument": "accounts"}}
}

// earliest is the earlier of d (0 for none) and the first date of txns.
func earliest(d model.Date, txns []model.Transaction) model.Date {
	for i := range txns {
		if d == 0 || txns[i].Date < d {
			d = txns[i].Date
		}
	}
	return d
}

// declaration is the ACCOUNT line a rule makes, dated on the first day of the rows it covers
// (a declaration applies to the whole ledger whatever its date).
func declaration(r AccountRule) model.Transaction {
	return model.Transaction{Action: model.AccountDecl, Ticker: r.Label, Event: &model.Event{AccountType: r.Type},
		Source: model.Source{File: r.From, Index: 0}}
}

// relabel puts every transaction of the source in the account label, keeping the accounts
// an export gave (its broker account numbers) for identity, and reports how many it labelled.
func (s *Source) relabel(label string) int {
	txns := s.txns()
	n := 0
	if s.Import != nil && s.brokerAccounts == nil {
		s.brokerAccounts = make([]string, len(txns))
		for i := range txns {
			s.brokerAccounts[i] = txns[i].Account
		}
		s.Import.Report.Account = label
	}
	for i := range txns {
		if isDeclaration(txns[i].Action) {
			continue
		}
		txns[i].Account = label
		n++
	}
	return n
}

// undeclaredWrappers warns of each file that no rule covers but whose name or first line
// says ISA, LISA, JISA or SIPP (an export often says so nowhere in its rows), unless its rows
// are in an account a ledger declares.
func undeclaredWrappers(srcs []Source, perSource [][]AccountRule, declared map[string]string) []string {
	var out []string
	for s := range srcs {
		src := &srcs[s]
		if len(perSource[s]) > 0 || src.Import == nil || len(src.Import.Transactions) == 0 {
			continue
		}
		typ, why := looksWrapped(src)
		if typ == "" {
			continue
		}
		if acct := src.Import.Transactions[0].Account; acct != "" && declared[strings.ToUpper(acct)] != "" {
			continue
		}
		base := path.Base(filepath.ToSlash(src.File))
		label := "MY" + typ
		out = append(out, fmt.Sprintf("%s looks like %s export (%s), but no account covers it, so its %d transactions are counted for CGT. "+
			"If it is one, declare it: accounts=%s=%s:%s, or in a portfolio ledger `INCLUDE %s ACCOUNT %s %s`; if it is a taxable account, accounts=%s=%s:GIA says so",
			name(src.File), article(typ), why, len(src.Import.Transactions), base, label, typ, includeName(base), label, typ, base, "MYGIA"))
	}
	return out
}

// looksWrapped is the wrapper a file's name or title line suggests, and what said so.
func looksWrapped(src *Source) (string, string) {
	base := path.Base(filepath.ToSlash(src.File))
	stem := strings.TrimSuffix(base, path.Ext(base))
	if typ := model.WrapperType(stem); typ != "" {
		return typ, "its name says so"
	}
	if typ := model.WrapperType(src.title); typ != "" {
		return typ, "its first line is " + quote(src.title)
	}
	return "", ""
}

// includeName is a file name as an INCLUDE line writes it.
func includeName(base string) string {
	if q, ok := dsl.QuoteLabel(base); ok {
		return q
	}
	return `"` + base + `"`
}

func fileNames(srcs []Source) string {
	var names []string
	for s := range srcs {
		if srcs[s].File != "" && !slices.Contains(names, srcs[s].File) {
			names = append(names, path.Base(filepath.ToSlash(srcs[s].File)))
		}
		if len(names) == 5 {
			names = append(names, "...")
			break
		}
	}
	if len(names) == 0 {
		return "no named files"
	}
	return strings.Join(names, ", ")
}

// article is the wrapper with its indefinite article: "an ISA", "a SIPP".
func article(typ string) string {
	if typ == "ISA" || typ == "LISA" {
		return "an " + typ
	}
	return "a " + typ
}
