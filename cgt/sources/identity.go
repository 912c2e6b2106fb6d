package sources

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/cgt/internal/digest"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Identity (DESIGN §22): a row is counted once only on strong identity —
//
//   - the same reference (REF, the broker's own or a fingerprint an import wrote) with the
//     same action, unless the two rows carry different broker account numbers (an account
//     label given by the accounts argument or an INCLUDE line is not one);
//   - for a fingerprint, which stands for a row's content, the same content of the same
//     format in the same account (an empty account is its own account): overlapping downloads
//     of one account.
//
// Ledger lines are matched only by their REF; a line without one is never dropped. The same
// reference on another date or with other figures is one trade, corrected: the line of the
// source that ranks first is kept (ledgers rank before exports, so a ledger corrects an
// export). Everything else is counted as written, and rows that read alike in two sources get
// a warning naming both and the REF to add if they are one trade.
//
// Which row is kept never depends on the order the sources were given: sources are ranked
// ledgers first, then by file name, then by content. Matching goes through hash maps (a
// bounded look along each key's chain), so it is linear in the rows.

// fingerprintPrefix starts the identity an import makes for a row with no reference of its own.
const fingerprintPrefix = "fp-"

// maxScan bounds how many rows kept under one key a row is compared with.
const maxScan = 256

// isFingerprint reports an identity made from a row's content rather than given by a broker.
func isFingerprint(ref string) bool { return strings.HasPrefix(ref, fingerprintPrefix) }

// identify gives every transaction of an import that has no broker reference its
// fingerprint (see Fingerprint) as BrokerRef; identical rows of one file (partial fills) get
// distinct ones, the second "-2", the third "-3".
func identify(broker string, txns []model.Transaction) {
	var count map[string]int
	for i := range txns {
		t := &txns[i]
		if t.BrokerRef != "" {
			continue
		}
		fp := Fingerprint(broker, t)
		if count == nil {
			count = map[string]int{}
		}
		count[fp]++
		if n := count[fp]; n > 1 {
			fp += "-" + strconv.Itoa(n)
		}
		t.BrokerRef = fp
	}
}

// Fingerprint identifies a row of an export that gives no reference of its own: "fp-" and 16
// hex digits of a hash of the broker's format and the row's content (date, action, security,
// quantity and amounts). It leaves out the account, which the same file given another account
// changes; accounts are compared when rows are matched instead.
func Fingerprint(broker string, t *model.Transaction) string {
	sum := digest.Sum256(appendContent([]byte(broker+"|"), t))
	return fingerprintPrefix + fmt.Sprintf("%x", sum[:8])
}

// rank is the order in which sources claim rows: ledgers first (a ledger is where people
// correct), then by file name, then by content, so that the result does not depend on the
// order the sources were given.
func (c *combiner) rank() []int {
	ranked := make([]int, len(c.srcs))
	for i := range ranked {
		ranked[i] = i
	}
	digests := make([]*[32]byte, len(c.srcs))
	digest := func(s int) *[32]byte {
		if digests[s] == nil {
			h := digest.New()
			var buf []byte
			txns := c.srcs[s].txns()
			for i := range txns {
				t := &txns[i]
				buf = appendContent(buf[:0], t)
				buf = append(append(append(buf, '|'), t.BrokerRef...), '|')
				buf = appendUpper(buf, t.Account)
				h.Write(append(buf, '\n'))
			}
			var d [32]byte
			h.Sum(d[:0])
			digests[s] = &d
		}
		return digests[s]
	}
	order.HotStable(ranked, func(a, b int) int {
		la, lb := c.srcs[a].Import == nil, c.srcs[b].Import == nil
		if la != lb {
			if la {
				return -1
			}
			return 1
		}
		if x := strings.Compare(c.srcs[a].File, c.srcs[b].File); x != 0 {
			return x
		}
		da, db := digest(a), digest(b)
		return slices.Compare(da[:], db[:])
	})
	return ranked
}

// keptRow is a row with a reference kept so far, the sources that matched a row of theirs
// with it, and the next row kept under the same key (its index in the list, plus one).
type keptRow struct {
	s, i    int
	claimed []int
	next    int32
}

// chain is the first and last rows kept under one key (indices plus one).
type chain [2]int32

// match is a row dropped as the same trade as a kept one.
type match struct {
	s, i, keptS, keptI int
	corrected          bool // a correction: the same reference with another date or figures
}

// repeats drops every row that is certainly a row a source ranking before it gives (strong
// identity), and records the matches for the warnings.
func (c *combiner) repeats(ctx context.Context) error {
	exact := map[rowKey]chain{}
	byRef := map[rowKey]chain{}
	var rows []keptRow
	var buf []byte
	var matches []match
	add := func(m map[rowKey]chain, k rowKey, s, i int) {
		rows = append(rows, keptRow{s: s, i: i})
		n := int32(len(rows))
		ch := m[k]
		if ch[0] == 0 {
			ch[0] = n
		} else {
			rows[ch[1]-1].next = n
		}
		ch[1] = n
		m[k] = ch
	}
	find := func(ch chain, s, i int) int {
		scanned := 0
		for e := ch[0]; e != 0 && scanned < maxScan; e = rows[e-1].next {
			scanned++
			r := &rows[e-1]
			if r.s != s && !slices.Contains(r.claimed, s) && c.compatible(r.s, r.i, s, i) {
				return int(e - 1)
			}
		}
		return -1
	}
	for _, s := range c.rank() {
		if err := ctx.Err(); err != nil {
			return err
		}
		src := &c.srcs[s]
		txns := src.txns()
		var own map[rowKey]int // a ledger's lines with a REF, by their whole content
		var pending []int
		start := len(matches)
		for i := range txns {
			if i&0xffff == 0xffff {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			t := &txns[i]
			if t.BrokerRef == "" || isDeclaration(t.Action) {
				continue
			}
			var k rowKey
			k, buf = exactKey(t, buf)
			if src.Import == nil {
				if own == nil {
					own = map[rowKey]int{}
				}
				if first, ok := own[k]; ok {
					c.setDrop(s, i, "the same line as "+Where(txns[first].Source)+" (REF "+t.BrokerRef+"): counted once")
					c.warnings = append(c.warnings, fmt.Sprintf("%s repeats %s, with the same REF %s (%s): counted once, as a line pasted twice",
						Where(t.Source), Where(txns[first].Source), t.BrokerRef, Summary(t)))
					continue
				}
				own[k] = i
			}
			if e := find(exact[k], s, i); e >= 0 {
				rows[e].claimed = append(rows[e].claimed, s)
				matches = append(matches, match{s: s, i: i, keptS: rows[e].s, keptI: rows[e].i})
				continue
			}
			pending = append(pending, i)
		}
		for _, i := range pending {
			var k rowKey
			k, buf = refKey(&txns[i], buf)
			if e := find(byRef[k], s, i); e >= 0 {
				rows[e].claimed = append(rows[e].claimed, s)
				matches = append(matches, match{s: s, i: i, keptS: rows[e].s, keptI: rows[e].i, corrected: true})
			}
		}
		for _, m := range matches[start:] {
			c.dropMatch(m)
		}
		for i := range txns {
			t := &txns[i]
			if t.BrokerRef == "" || isDeclaration(t.Action) || c.dropped(s, i) {
				continue
			}
			var k rowKey
			k, buf = exactKey(t, buf)
			add(exact, k, s, i)
			k, buf = refKey(t, buf)
			add(byRef, k, s, i)
		}
	}
	c.matchWarnings(matches)
	return nil
}

// dropMatch drops a matched row, noting why in its import's report.
func (c *combiner) dropMatch(m match) {
	kept := &c.srcs[m.keptS].txns()[m.keptI]
	why := "same broker reference " + kept.BrokerRef
	if isFingerprint(kept.BrokerRef) {
		why = "the same row of the same account"
	}
	if m.corrected {
		why = "the same reference " + kept.BrokerRef + ", corrected there"
	}
	c.setDrop(m.s, m.i, "the same trade as "+Where(kept.Source)+" ("+why+"): counted once")
	if c.alsoIn == nil {
		c.alsoIn = map[[2]int][]int{}
	}
	at := [2]int{m.keptS, m.keptI}
	c.alsoIn[at] = append(c.alsoIn[at], m.s)
}

// compatible reports whether two rows with one key may be one trade: for a fingerprint, the
// same account; for a broker's reference, no two different broker account numbers.
func (c *combiner) compatible(s1, i1, s2, i2 int) bool {
	a, b := &c.srcs[s1].txns()[i1], &c.srcs[s2].txns()[i2]
	if isFingerprint(a.BrokerRef) {
		return strings.EqualFold(a.Account, b.Account)
	}
	x, y := c.brokerAccount(s1, i1), c.brokerAccount(s2, i2)
	return x == "" || y == "" || strings.EqualFold(x, y)
}

// brokerAccount is the account number an export gives a row ("" for a ledger line, whose
// account may be a label of the person's own).
func (c *combiner) brokerAccount(s, i int) string {
	src := &c.srcs[s]
	if src.Import == nil {
		return ""
	}
	if src.brokerAccounts != nil {
		return src.brokerAccounts[i]
	}
	return src.Import.Transactions[i].Account
}

// exactKey is the key of a line with a reference by the reference and its whole content.
func exactKey(t *model.Transaction, buf []byte) (rowKey, []byte) {
	b := append(append(buf[:0], 'x'), t.BrokerRef...)
	b = appendContent(append(b, 0), t)
	return rowKey{maphash.Bytes(keySeeds[0], b), maphash.Bytes(keySeeds[1], b)}, b
}

// refKey is the key of a line by its reference and action alone.
func refKey(t *model.Transaction, buf []byte) (rowKey, []byte) {
	b := append(append(buf[:0], 'r'), t.BrokerRef...)
	b = append(append(b, 0), t.Action...)
	return rowKey{maphash.Bytes(keySeeds[0], b), maphash.Bytes(keySeeds[1], b)}, b
}

// matchWarnings says what was counted once and why: one warning per pair of sources for rows
// that are the same, one per corrected row naming both lines.
func (c *combiner) matchWarnings(ms []match) {
	type pair struct{ s, kept int }
	byPair := map[pair][]match{}
	var pairs []pair
	for _, m := range ms {
		if m.corrected {
			c.correctionWarning(m)
			continue
		}
		p := pair{m.s, m.keptS}
		if _, ok := byPair[p]; !ok {
			pairs = append(pairs, p)
		}
		byPair[p] = append(byPair[p], m)
	}
	order.Sort(pairs, func(a, b pair) int {
		if x := cmp.Compare(c.srcs[a.s].File, c.srcs[b.s].File); x != 0 {
			return x
		}
		return cmp.Compare(c.srcs[a.kept].File, c.srcs[b.kept].File)
	})
	for _, p := range pairs {
		rs := byPair[p]
		order.Sort(rs, func(a, b match) int { return a.i - b.i })
		a, b := &c.srcs[p.s], &c.srcs[p.kept]
		why := "the same broker reference"
		if isFingerprint(b.txns()[rs[0].keptI].BrokerRef) {
			why = "identical rows of the same account"
			if a.Import != nil && b.Import != nil {
				why = "identical rows of two " + a.Import.Report.Broker + " exports of the same account"
			}
		}
		if len(rs) == 1 {
			r := rs[0]
			t := &a.txns()[r.i]
			c.warnings = append(c.warnings, fmt.Sprintf("%s repeats %s (%s): counted once: %s",
				Where(t.Source), Where(b.txns()[r.keptI].Source), Summary(t), why))
			continue
		}
		var names []string
		for _, r := range rs[:min(len(rs), maxListed)] {
			names = append(names, Where(a.txns()[r.i].Source)+" = "+Where(b.txns()[r.keptI].Source))
		}
		more := ""
		if len(rs) > maxListed {
			more = fmt.Sprintf(" and %d more", len(rs)-maxListed)
		}
		what := fmt.Sprintf("%d transactions", len(rs))
		if len(rs) == len(a.txns()) {
			what = "all " + what
		}
		c.warnings = append(c.warnings, fmt.Sprintf("%s of %s repeat %s (%s%s): each counted once: %s",
			what, name(a.File), name(b.File), strings.Join(names, ", "), more, why))
	}
}

// correctionWarning names both lines of one trade given with one reference and two dates or
// two sets of figures, and the one kept.
func (c *combiner) correctionWarning(m match) {
	t, kept := &c.srcs[m.s].txns()[m.i], &c.srcs[m.keptS].txns()[m.keptI]
	why := "the first of the two files by name is kept"
	switch {
	case c.srcs[m.keptS].Import == nil && c.srcs[m.s].Import != nil:
		why = "a ledger line corrects an export row"
	case c.srcs[m.keptS].Import == nil:
		why = "of two ledgers, the first by name is kept"
	}
	c.warnings = append(c.warnings, fmt.Sprintf("%s (%s) and %s (%s) have the same reference %s: one trade, counted once as %s (%s)",
		Where(kept.Source), Summary(kept), Where(t.Source), Summary(t), kept.BrokerRef, Where(kept.Source), why))
}

// weak warns of rows left in two sources that read alike (same date, action, security,
// quantity and amounts) but are not certainly one trade: both are counted, and the warning
// says why and the REF that would make them one.
func (c *combiner) weak(ctx context.Context) error {
	type seen struct{ s, i int }
	firsts := map[rowKey][]seen{}
	type pair struct{ a, b int }
	byPair := map[pair][][2]seen{}
	var pairs []pair
	var buf []byte
	for _, s := range c.rank() {
		txns := c.srcs[s].txns()
		for i := range txns {
			if i&0xffff == 0xffff {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			t := &txns[i]
			if isDeclaration(t.Action) || t.Action == model.Split || t.Action == model.Unsplit || c.dropped(s, i) {
				continue
			}
			var k rowKey
			k, buf = contentKey(t, buf)
			list := firsts[k]
			mine := false
			for _, e := range list {
				if e.s == s {
					mine = true
					continue
				}
				if !c.alike(e.s, e.i, s, i) {
					continue
				}
				p := pair{e.s, s}
				if _, ok := byPair[p]; !ok {
					pairs = append(pairs, p)
				}
				byPair[p] = append(byPair[p], [2]seen{e, {s, i}})
				break
			}
			if !mine && len(list) < 8 {
				firsts[k] = append(list, seen{s, i})
			}
		}
	}
	for _, p := range pairs {
		ps := byPair[p]
		a, b := ps[0][0], ps[0][1]
		ta, tb := &c.srcs[a.s].txns()[a.i], &c.srcs[b.s].txns()[b.i]
		why, fix := c.weakReason(a.s, b.s, ta, tb)
		more := ""
		if len(ps) > 1 {
			more = fmt.Sprintf(" (and %d more pairs of %s and %s)", len(ps)-1, name(c.srcs[a.s].File), name(c.srcs[b.s].File))
		}
		c.warnings = append(c.warnings, fmt.Sprintf("%s and %s read alike (%s)%s but are both kept: %s. %s",
			Where(ta.Source), Where(tb.Source), Summary(ta), more, why, fix))
	}
	return nil
}

// alike reports whether two rows that read alike could be one trade: not when both carry
// references of their own (a broker's, or a ledger's REF) that differ.
func (c *combiner) alike(s1, i1, s2, i2 int) bool {
	r1, r2 := c.givenRef(s1, i1), c.givenRef(s2, i2)
	return r1 == "" || r2 == "" || r1 == r2
}

// givenRef is a row's reference as its source gives it: a ledger line's REF, an export row's
// broker reference ("" for a fingerprint the import made).
func (c *combiner) givenRef(s, i int) string {
	ref := c.srcs[s].txns()[i].BrokerRef
	if c.srcs[s].Import != nil && isFingerprint(ref) {
		return ""
	}
	return ref
}

// weakReason says why two rows that read alike were both counted, and what makes them one.
func (c *combiner) weakReason(sa, sb int, ta, tb *model.Transaction) (string, string) {
	la, lb := c.srcs[sa].Import == nil, c.srcs[sb].Import == nil
	switch {
	case la || lb:
		// line is a ledger line without a REF; other is the row whose reference it could take.
		line, other, otherLedger := ta, tb, lb
		if !la || ta.BrokerRef != "" {
			line, other, otherLedger = tb, ta, la
		}
		ref := other.BrokerRef
		fix := fmt.Sprintf("If they are one trade, add REF %s to %s", ref, Where(line.Source))
		if ref == "" {
			ref = Fingerprint("ledger", line)
			fix = fmt.Sprintf("If they are one trade, add REF %s to %s", ref, Where(line.Source))
			if otherLedger {
				fix += " and to " + Where(other.Source)
			}
		}
		return "a ledger line is matched to another source only by its REF", fix
	case c.srcs[sa].Import.Report.Broker != c.srcs[sb].Import.Report.Broker:
		return "rows of two formats are one trade only when they carry the same broker reference",
			"If they are one trade, leave one of the files out"
	default:
		return fmt.Sprintf("they are in different accounts (%s and %s)", accountName(ta.Account), accountName(tb.Account)),
			"If the two files are downloads of one account, give them the same account"
	}
}

func accountName(a string) string {
	if a == "" {
		return "no account"
	}
	return a
}
