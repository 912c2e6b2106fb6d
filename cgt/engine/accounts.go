package engine

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Account types a ledger can declare. Transactions in a wrapper (ISA, LISA, JISA, SIPP) are
// outside CGT; GIA (general investment account) is an ordinary dealing account.
var wrapperTypes = map[string]bool{"ISA": true, "LISA": true, "JISA": true, "SIPP": true}

// accountTypes lists the types an ACCOUNT declaration may give, in the order documented.
var accountTypes = []string{"ISA", "LISA", "JISA", "SIPP", "GIA"}

// ExcludedTransaction is a transaction left out of the calculation because it was made in a
// tax wrapper (an account declared ISA, LISA, JISA or SIPP).
type ExcludedTransaction struct {
	_ model.NotComparable

	Ticker  string     `json:"ticker" jsonschema_description:"Ticker as the line gave it, upper-case" record:"entity"`
	Date    model.Date `json:"date" jsonschema_description:"Date of the transaction" record:"timestamp"`
	Action  string     `json:"action" jsonschema_description:"BUY, SELL, DIVIDEND, ..."`
	Account string     `json:"account" jsonschema_description:"Account label of the transaction"`
	Type    string     `json:"account_type" jsonschema_description:"ISA, LISA, JISA or SIPP: the declared type of the account"`
	Source  SourceRef  `json:"source" jsonschema_description:"The ledger line" record:"source"`
}

// identity is what a ledger's declarations and labels say about its securities and accounts:
// which tickers are one security, which accounts are tax wrappers, which securities are
// exempt or non-reporting funds.
type identity struct {
	canon       map[string]string // upper-case ticker → its security's name, when they differ
	wrappers    map[string]string // upper-case account label → ISA|LISA|JISA|SIPP
	exempt      map[string]bool   // security name → exempt (s115)
	nonReporing map[string]bool   // security name → non-reporting offshore fund
	excluded    []ExcludedTransaction
	warnings    []string
}

// name is the security name a ledger ticker stands for: the ticker upper-cased, or the name
// of the security it is an alias of.
func (id *identity) name(ticker string) string {
	up := strings.ToUpper(ticker)
	if id != nil && id.canon != nil {
		if c, ok := id.canon[up]; ok {
			return c
		}
	}
	return up
}

// outside reports whether a transaction was made in a tax wrapper.
func (id *identity) outside(t *model.Transaction) bool {
	if t.Account == "" || len(id.wrappers) == 0 {
		return false
	}
	_, ok := id.wrappers[strings.ToUpper(t.Account)]
	return ok
}

// isDeclaration reports whether an action declares something rather than moves shares.
func isDeclaration(a model.Action) bool {
	switch a {
	case model.AccountDecl, model.Alias, model.Exempt, model.NonReporting, model.ISINDecl:
		return true
	}
	return false
}

// resolveIdentity reads the ledger's declarations and labels: ALIAS lines and shared ISINs make
// tickers one security (one pool), named by the first ticker of its earliest ALIAS line, or
// else by its earliest-traded ticker; ACCOUNT lines declare wrappers, whose transactions are
// listed as excluded; EXEMPT and NONREPORTING mark securities.
func resolveIdentity(txns []model.Transaction) *identity {
	id := &identity{wrappers: map[string]string{}, exempt: map[string]bool{}, nonReporing: map[string]bool{}}
	var decls []*model.Transaction
	u := unionFind{parent: map[string]string{}}
	isinOf := map[string]string{}    // ISIN → first ticker seen with it (in processing order)
	first := map[string]model.Date{} // ticker → earliest date
	var labelled []*model.Transaction
	for i := range txns {
		t := &txns[i]
		if isDeclaration(t.Action) {
			decls = append(decls, t)
			continue
		}
		if t.Account != "" || t.ISIN != "" {
			labelled = append(labelled, t)
		}
		up := strings.ToUpper(t.Ticker)
		if d, ok := first[up]; !ok || t.Date < d {
			first[up] = t.Date
		}
	}
	order.Hot(decls, func(a, b *model.Transaction) int {
		if c := cmp.Compare(a.Date, b.Date); c != 0 {
			return c
		}
		return compareSource(a, b)
	})
	order.Hot(labelled, func(a, b *model.Transaction) int {
		if c := cmp.Compare(a.Date, b.Date); c != 0 {
			return c
		}
		return compareSource(a, b)
	})
	named := map[string]string{} // a root's name from an ALIAS line
	type pair struct{ a, b, why string }
	var pairs []pair // tickers made one security, for the warnings
	for _, t := range decls {
		switch t.Action {
		case model.AccountDecl:
			if typ := strings.ToUpper(t.AccountType()); wrapperTypes[typ] {
				id.wrappers[strings.ToUpper(t.Ticker)] = typ
			}
		case model.Alias:
			a, b := strings.ToUpper(t.Ticker), strings.ToUpper(t.NewTicker())
			ra, rb := u.find(a), u.find(b)
			if ra != rb {
				u.parent[rb] = ra
				if _, ok := named[ra]; !ok {
					named[ra] = a
				}
				delete(named, rb)
			}
			pairs = append(pairs, pair{a, b, "ALIAS on " + t.Date.String() + ": "})
		}
	}
	for _, t := range labelled {
		if t.ISIN == "" {
			continue
		}
		up, code := strings.ToUpper(t.Ticker), strings.ToUpper(t.ISIN)
		other, ok := isinOf[code]
		if !ok {
			isinOf[code] = up
			continue
		}
		if ra, rb := u.find(other), u.find(up); ra != rb {
			u.parent[rb] = ra
			if n, ok := named[rb]; ok {
				if _, has := named[ra]; !has {
					named[ra] = n
				}
				delete(named, rb)
			}
			pairs = append(pairs, pair{other, up, "same ISIN " + code + ": "})
		}
	}
	// each group's name: its ALIAS name, else its earliest-traded ticker
	groups := map[string][]string{}
	for ticker := range u.parent {
		r := u.find(ticker)
		groups[r] = append(groups[r], ticker)
	}
	for r, members := range groups {
		if len(members) < 2 {
			continue
		}
		name, ok := named[r]
		if !ok {
			order.Hot(members, func(a, b string) int {
				da, oka := first[a]
				db, okb := first[b]
				if oka != okb { // a ticker with transactions before one without
					if oka {
						return -1
					}
					return 1
				}
				if c := cmp.Compare(da, db); c != 0 {
					return c
				}
				return strings.Compare(a, b)
			})
			name = members[0]
		}
		if id.canon == nil {
			id.canon = map[string]string{}
		}
		for _, m := range members {
			if m != name {
				id.canon[m] = name
			}
		}
	}
	for _, p := range pairs {
		id.warnings = append(id.warnings, fmt.Sprintf("%s%s and %s are one security, with one Section 104 pool; the report names it %s",
			p.why, p.a, p.b, id.name(p.a)))
	}
	for _, t := range decls {
		switch t.Action {
		case model.Exempt:
			id.exempt[id.name(t.Ticker)] = true
		case model.NonReporting:
			id.nonReporing[id.name(t.Ticker)] = true
		}
	}
	id.warnings = append(id.warnings, WrapperWarnings(txns)...)
	for _, t := range labelled {
		if typ, ok := id.wrappers[strings.ToUpper(t.Account)]; ok && t.Account != "" {
			id.excluded = append(id.excluded, ExcludedTransaction{Ticker: strings.ToUpper(t.Ticker), Date: t.Date,
				Action: string(t.Action), Account: t.Account, Type: typ, Source: sourceRef(t.Source)})
		}
	}
	return id
}

// unionFind groups tickers that are one security.
type unionFind struct{ parent map[string]string }

func (u *unionFind) find(x string) string {
	p, ok := u.parent[x]
	if !ok {
		u.parent[x] = x
		return x
	}
	if p == x {
		return x
	}
	r := u.find(p)
	u.parent[x] = r
	return r
}
