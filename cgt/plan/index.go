package plan

import (
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
)

// index groups the ledger's transactions by security, once, so that work per holding
// (a price check, a full sale's gain) reads that holding's own lines rather than the whole
// ledger: a plan over thousands of holdings stays linear in the ledger's size.
type index struct {
	ids   engine.Securities
	lines map[string][]int // security name → positions of its transactions in Txns
	decls []int            // declarations (ALIAS, ACCOUNT, EXEMPT, NONREPORTING): every sub-ledger has them
	group map[string]string
}

// idx is the index, built when first needed.
func (p *Planner) idx() *index {
	if p.ix != nil {
		return p.ix
	}
	ix := &index{ids: p.securities(), lines: map[string][]int{}, group: map[string]string{}}
	var find func(string) string
	find = func(s string) string {
		g, ok := ix.group[s]
		if !ok || g == s {
			return s
		}
		r := find(g)
		ix.group[s] = r
		return r
	}
	for i := range p.Txns {
		t := &p.Txns[i]
		if declaration(t.Action) {
			ix.decls = append(ix.decls, i)
			continue
		}
		name := ix.ids.Name(t.Ticker)
		ix.lines[name] = append(ix.lines[name], i)
		if t.NewTicker() != "" { // a takeover or demerger links the two securities' figures
			a, b := find(name), find(ix.ids.Name(t.NewTicker()))
			if a != b {
				ix.group[b] = a
			}
		}
	}
	members := map[string][]string{}
	for name := range ix.lines {
		r := find(name)
		members[r] = append(members[r], name)
	}
	for r, ms := range members { // the group's lines under each member
		if len(ms) < 2 {
			continue
		}
		var all []int
		for _, m := range ms {
			all = append(all, ix.lines[m]...)
		}
		for _, m := range ms {
			ix.group[m] = r
		}
		ix.lines[r+"\x00group"] = all
	}
	p.ix = ix
	return ix
}

// trades are the positions of a security's own transactions.
func (ix *index) trades(security string) []int { return ix.lines[security] }

// own is the sub-ledger of a security: its transactions and those of the securities a
// takeover or demerger links it with, and every declaration. Its figures for the security are
// the whole ledger's (the engine works each security apart, linked ones in order).
func (p *Planner) own(security string) []model.Transaction {
	ix := p.idx()
	pos := ix.lines[security]
	if r, ok := ix.group[security]; ok {
		if all, ok := ix.lines[r+"\x00group"]; ok {
			pos = all
		}
	}
	out := make([]model.Transaction, 0, len(pos)+len(ix.decls))
	for _, i := range ix.decls {
		out = append(out, p.Txns[i])
	}
	for _, i := range pos {
		out = append(out, p.Txns[i])
	}
	return out
}
