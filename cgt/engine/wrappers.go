package engine

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// WrapperWarnings warns of every account label that looks like a tax wrapper ("ISA", "SIPP",
// "Stocks & Shares ISA", "T212-ISA") but that no ACCOUNT line declares: its transactions are
// counted for CGT, which is wrong if it is one. A declaration of any type, GIA included,
// silences it.
func WrapperWarnings(txns []model.Transaction) []string {
	type use struct {
		label string
		typ   string
		count int
		first *model.Transaction
		from  model.Date
	}
	var uses map[string]*use
	var declared map[string]bool
	var accounts []string
	for i := range txns {
		t := &txns[i]
		if t.Action == model.AccountDecl {
			if declared == nil {
				declared = map[string]bool{}
			}
			declared[strings.ToUpper(t.Ticker)] = true
			continue
		}
		if t.Account == "" {
			continue
		}
		up := strings.ToUpper(t.Account)
		u, ok := uses[up]
		if !ok {
			typ := model.WrapperType(t.Account)
			if uses == nil {
				uses = map[string]*use{}
			}
			u = &use{label: t.Account, typ: typ, first: t, from: t.Date}
			uses[up] = u
			if typ != "" {
				accounts = append(accounts, up)
			}
		}
		u.count++
		u.from = min(u.from, t.Date)
	}
	var out []string
	order.Ascending(accounts)
	for _, up := range accounts {
		u := uses[up]
		if declared[up] {
			continue
		}
		what := fmt.Sprintf("its %d transactions (the first at %s) are", u.count, whereShort(u.first.Source))
		if u.count == 1 {
			what = fmt.Sprintf("its transaction (%s) is", whereShort(u.first.Source))
		}
		label := up
		if !labelWord(up) { // the quoted form of a label value: "STOCKS & SHARES ISA"
			label = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(up) + `"`
		}
		out = append(out, fmt.Sprintf("account %q looks like a tax-free %s, but no ACCOUNT line declares it, so %s counted for CGT. "+
			"If it is one, declare it: `%s ACCOUNT %s %s` (or import with account_type=%s); if it is a taxable account, `%s ACCOUNT %s GIA` says so",
			u.label, u.typ, what, u.from, label, u.typ, u.typ, u.from, label))
	}
	return out
}

// labelWord reports whether a label can be written as it is in a ledger line (letters and
// digits, with '.', '-' or ':' inside).
func labelWord(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || (c == '.' || c == '-' || c == ':') && i > 0 && i < len(s)-1
		if !ok {
			return false
		}
	}
	return true
}

// whereShort names a source line as "a.cgt:2" (a ledger line or an export's row) or
// "a.json[3]" (an element of a JSON array).
func whereShort(s model.Source) string {
	f := s.File
	if f == "" {
		f = "the inline ledger"
	}
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", f, s.Line)
	}
	return fmt.Sprintf("%s[%d]", f, s.Index)
}
