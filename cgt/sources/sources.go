// Package sources is the input path of every command: it reads what one person gives a
// command — ledgers and broker exports, several of each, told apart by their content, and the
// files a portfolio ledger's INCLUDE lines name — puts each file's rows in the account it was
// declared to be, and combines them into one list of transactions, the figures one clean
// ledger would give:
//
//   - every imported row gets an identity (the broker's reference, else a fingerprint of its
//     content), which transactions.import writes as its REF;
//   - a row is counted once only on strong identity (identity.go); rows that only read alike
//     are counted as written, with a warning naming both and the REF to add;
//   - a split or consolidation reported by two sources within 10 days is one event.
//
// The CLI, the MCP server, the tool server, transactions.import and the browser app all read
// through Load. The package is pure: callers read the files (Options.ReadFile for INCLUDE).
package sources

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Source is one file (or inline content) given to a command: a ledger, or a broker export
// converted by its importer.
type Source struct {
	// File names the source in warnings (its transactions' Source.File says the same).
	File string
	// Import is the export converted; nil for a ledger.
	Import *imports.Import
	// Transactions are a ledger's transactions (unused when Import is set).
	Transactions []model.Transaction

	title          string   // an export's first field, which may name its account
	brokerAccounts []string // an export's accounts as read, when a declared account replaced them
}

func (s *Source) txns() []model.Transaction {
	if s.Import != nil {
		return s.Import.Transactions
	}
	return s.Transactions
}

func (s *Source) setTxns(t []model.Transaction) {
	if s.Import != nil {
		s.Import.Transactions = t
		return
	}
	s.Transactions = t
}

// SplitWindow is how many days apart two sources may date one split or consolidation.
const SplitWindow = 10

// Combine is CombineContext without cancellation.
func Combine(srcs []Source) ([]model.Transaction, []string) {
	txns, warnings, _ := CombineContext(context.Background(), srcs)
	return txns, warnings
}

// CombineContext joins the sources in order and returns their transactions and the warnings:
// each export's own warnings first, then what was counted once and why, what reads alike but
// was counted twice, and every corporate action applied once. The imports' transactions get
// their identity as BrokerRef, and rows dropped as repeats move to their report's skipped list
// (type duplicate). Account labels that look like tax wrappers are the engine's to warn of,
// where the report needs them. It stops with ctx's error when ctx is cancelled.
func CombineContext(ctx context.Context, srcs []Source) ([]model.Transaction, []string, error) {
	var warnings []string
	for i := range srcs {
		if imp := srcs[i].Import; imp != nil {
			Identify(imp)
			warnings = append(warnings, imp.Warnings...)
		}
	}
	if len(srcs) > 1 || len(srcs) == 1 && srcs[0].Import == nil && hasRefs(srcs[0].Transactions) {
		c := combiner{srcs: srcs, drop: make([][]bool, len(srcs))}
		if err := c.repeats(ctx); err != nil {
			return nil, nil, err
		}
		if err := c.weak(ctx); err != nil {
			return nil, nil, err
		}
		c.corporateActions()
		c.apply()
		warnings = append(warnings, c.warnings...)
	}
	var txns []model.Transaction
	if len(srcs) == 1 {
		txns = srcs[0].txns() // a large ledger is not copied
	} else {
		n := 0
		for i := range srcs {
			n += len(srcs[i].txns())
		}
		txns = make([]model.Transaction, 0, n)
		for i := range srcs {
			txns = append(txns, srcs[i].txns()...)
		}
	}
	return txns, warnings, nil
}

// hasRefs reports whether a ledger's lines carry a REF: one given twice is a line pasted twice.
func hasRefs(txns []model.Transaction) bool {
	for i := range txns {
		if txns[i].BrokerRef != "" {
			return true
		}
	}
	return false
}

// Identify gives every transaction of an import that has no broker reference its
// fingerprint (see Fingerprint) as BrokerRef; identical rows of one file (partial fills) get
// distinct ones.
func Identify(imp *imports.Import) { identify(imp.Report.Broker, imp.Transactions) }

// appendContent writes what makes two transactions the same row, whatever the source wrote
// around it: every field but the labels (account, ISIN, name, reference) and the source,
// numbers compared by value ("50" is "50.00") and zero amounts equal whatever their currency.
func appendContent(b []byte, t *model.Transaction) []byte {
	b = strconv.AppendInt(b, int64(t.Date), 10)
	b = append(b, '|')
	b = append(b, t.Action...)
	b = appendUpper(append(b, '|'), t.Ticker)
	b = appendNumber(append(b, '|'), t.Quantity)
	for _, a := range [...]model.Amount{t.Price, t.Fees, t.Total, t.Tax(), t.Cost(), t.Cash(), t.Value()} {
		b = appendAmount(append(b, '|'), a)
	}
	b = appendNumber(append(b, '|'), t.Ratio())
	b = appendUpper(append(b, '|'), t.NewTicker())
	return appendUpper(append(b, '|'), t.AccountType())
}

func appendUpper(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// appendNumber writes a number without trailing zeros, so that equal values write alike.
func appendNumber(b []byte, d model.Decimal) []byte {
	if d.IsZero() {
		return append(b, '0')
	}
	neg, hi, lo, exp, ok := d.Parts128()
	if !ok || hi != 0 || lo > 1<<62 {
		return append(b, d.Exact().String()...) // shopspring's String drops trailing zeros
	}
	for lo%10 == 0 {
		lo /= 10
		exp++
	}
	if neg {
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, lo, 10)
	b = append(b, 'e')
	return strconv.AppendInt(b, int64(exp), 10)
}

func appendAmount(b []byte, a model.Amount) []byte {
	if a.Value.IsZero() {
		return append(b, '0')
	}
	b = append(appendNumber(b, a.Value), ' ')
	if a.Currency == "" {
		return append(b, model.GBP...)
	}
	return appendUpper(b, a.Currency)
}

// contentKey is the key of a line by its content alone.
func contentKey(t *model.Transaction, buf []byte) (rowKey, []byte) {
	b := appendContent(append(buf[:0], 'c'), t)
	return rowKey{maphash.Bytes(keySeeds[0], b), maphash.Bytes(keySeeds[1], b)}, b
}

// rowKey is what two sources' rows must share to be one row, hashed: the identity (the
// reference, or for a ledger line without one its content), the action, the ticker and the date.
type rowKey [2]uint64

var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// combiner holds the work of Combine on several sources.
type combiner struct {
	srcs     []Source
	drop     [][]bool // per source, per transaction: counted once elsewhere
	reasons  map[[2]int]string
	alsoIn   map[[2]int][]int // a kept row → the other sources that gave it too
	warnings []string
}

func (c *combiner) dropped(s, i int) bool { return c.drop[s] != nil && c.drop[s][i] }

func (c *combiner) setDrop(s, i int, reason string) {
	if c.reasons == nil {
		c.reasons = map[[2]int]string{}
	}
	c.reasons[[2]int{s, i}] = reason
	if c.drop[s] == nil {
		c.drop[s] = make([]bool, len(c.srcs[s].txns()))
	}
	c.drop[s][i] = true
}

// maxListed is how many repeated rows one warning lists by name.
const maxListed = 3

// corporateActions applies once a split or consolidation that two sources report within
// SplitWindow days of each other (same security, same ratio): the earlier date stands, with a
// warning naming both lines, and a warning for each trade of the security between the two
// dates, whose units may be from before the split.
func (c *combiner) corporateActions() {
	type ca struct {
		src, idx int
		t        *model.Transaction
	}
	var all []ca
	wrappers := c.wrappers()
	for s := range c.srcs {
		txns := c.srcs[s].txns()
		for i := range txns {
			if a := txns[i].Action; (a == model.Split || a == model.Unsplit) && !c.dropped(s, i) &&
				!wrappers[strings.ToUpper(txns[i].Account)] {
				all = append(all, ca{s, i, &txns[i]})
			}
		}
	}
	if len(all) < 2 {
		return
	}
	order.HotStable(all, func(a, b ca) int { return int(a.t.Date) - int(b.t.Date) })
	var windows []window
	for j := range all {
		later := all[j]
		var first *ca
		for k := j - 1; k >= 0 && int(later.t.Date-all[k].t.Date) <= SplitWindow; k-- {
			e := &all[k]
			if e.src == later.src || c.dropped(e.src, e.idx) || e.t.Action != later.t.Action ||
				!sameSecurity(e.t, later.t) || !e.t.Ratio().Exact().Equal(later.t.Ratio().Exact()) ||
				c.oneSourceGivesBoth(e.src, e.idx, later.src, later.idx) {
				continue
			}
			first = e // the earliest report within the window
		}
		if first == nil {
			continue
		}
		c.setDrop(later.src, later.idx, "the same "+strings.ToLower(string(first.t.Action))+" as "+Where(first.t.Source)+
			" ("+first.t.Date.String()+"): one event, applied once on the earlier date")
		c.warnings = append(c.warnings, fmt.Sprintf("%s %s RATIO %s is given by %s (%s) and by %s (%s): one event, applied once on %s, the earlier date",
			later.t.Action, strings.ToUpper(first.t.Ticker), later.t.Ratio(), Where(first.t.Source), first.t.Date,
			Where(later.t.Source), later.t.Date, first.t.Date))
		if later.t.Date > first.t.Date {
			windows = append(windows, window{first.t, later.t, first.src})
		}
	}
	c.tradesBetween(windows)
}

// window is a split applied on the date of its first report, and its second report.
type window struct {
	first, second *model.Transaction
	firstSrc      int
}

// tradesBetween warns of each trade of a security dated from the first report of its split
// up to the day before the second, other than the first report's own source: its units may
// be from before the split, which now applies from the first date.
func (c *combiner) tradesBetween(windows []window) {
	if len(windows) == 0 {
		return
	}
	byTicker := map[string][]int{}
	for w, win := range windows {
		for _, t := range []*model.Transaction{win.first, win.second} {
			byTicker[strings.ToUpper(t.Ticker)] = append(byTicker[strings.ToUpper(t.Ticker)], w)
			if t.ISIN != "" {
				byTicker[strings.ToUpper(t.ISIN)] = append(byTicker[strings.ToUpper(t.ISIN)], w)
			}
		}
	}
	for s := range c.srcs {
		txns := c.srcs[s].txns()
		for i := range txns {
			t := &txns[i]
			if t.Action == model.Split || t.Action == model.Unsplit || isDeclaration(t.Action) || c.dropped(s, i) {
				continue
			}
			ws := byTicker[strings.ToUpper(t.Ticker)]
			if t.ISIN != "" {
				ws = append(ws[:len(ws):len(ws)], byTicker[strings.ToUpper(t.ISIN)]...)
			}
			for k, w := range ws {
				win := windows[w]
				if slices.Contains(ws[:k], w) || t.Date < win.first.Date || t.Date >= win.second.Date ||
					(t.Date == win.first.Date && s == win.firstSrc) || !sameSecurity(t, win.first) {
					continue
				}
				c.warnings = append(c.warnings, fmt.Sprintf("%s: %s is dated between the two reports of the %s of %s (%s and %s): "+
					"the split now applies from %s, so check whether its quantity and price are in the units from before the split "+
					"(if so, write them in the new units)", Where(t.Source), Summary(t), strings.ToLower(string(win.first.Action)),
					strings.ToUpper(win.first.Ticker), win.first.Date, win.second.Date, win.first.Date))
			}
		}
	}
}

// oneSourceGivesBoth reports whether a source gives both lines (itself, or a copy of it that
// was counted once): two events it lists apart are two events.
func (c *combiner) oneSourceGivesBoth(s1, i1, s2, i2 int) bool {
	in1 := append([]int{s1}, c.alsoIn[[2]int{s1, i1}]...)
	in2 := append([]int{s2}, c.alsoIn[[2]int{s2, i2}]...)
	for _, s := range in1 {
		if slices.Contains(in2, s) {
			return true
		}
	}
	return false
}

// wrappers are the account labels declared tax wrappers: their events are outside CGT, and
// a split in one is not the same event as the split of the holding that CGT pools.
func (c *combiner) wrappers() map[string]bool {
	out := map[string]bool{}
	for s := range c.srcs {
		txns := c.srcs[s].txns()
		for i := range txns {
			if t := &txns[i]; t.Action == model.AccountDecl && model.WrapperType(t.AccountType()) != "" && strings.EqualFold(t.AccountType(), model.WrapperType(t.AccountType())) {
				out[strings.ToUpper(t.Ticker)] = true
			}
		}
	}
	return out
}

// sameSecurity reports whether two lines name one security: the same ticker, or the same ISIN.
func sameSecurity(a, b *model.Transaction) bool {
	return strings.EqualFold(a.Ticker, b.Ticker) || (a.ISIN != "" && strings.EqualFold(a.ISIN, b.ISIN))
}

func isDeclaration(a model.Action) bool {
	switch a {
	case model.AccountDecl, model.Alias, model.Exempt, model.NonReporting, model.ISINDecl:
		return true
	}
	return false
}

// apply removes the dropped rows, and accounts for them in their import's report: a row none
// of whose transactions is left becomes a skipped duplicate.
func (c *combiner) apply() {
	for s := range c.srcs {
		if c.drop[s] == nil {
			continue
		}
		src := &c.srcs[s]
		txns := src.txns()
		out := make([]model.Transaction, 0, len(txns))
		dupRows, keptRows := map[int]string{}, map[int]bool{}
		for i := range txns {
			if c.drop[s][i] {
				dupRows[txns[i].Source.Line] = c.reasons[[2]int{s, i}]
				continue
			}
			keptRows[txns[i].Source.Line] = true
			out = append(out, txns[i])
		}
		src.setTxns(out)
		if src.Import == nil {
			continue
		}
		rep := &src.Import.Report
		for row, reason := range dupRows {
			if keptRows[row] {
				continue
			}
			rep.Imported--
			rep.Skipped = append(rep.Skipped, imports.Skip{Row: row, Type: "duplicate", Reason: reason})
		}
		order.Stable(rep.Skipped, func(a, b imports.Skip) int { return a.Row - b.Row })
	}
}

// Summary names a transaction briefly: "2024-06-20 SELL AAPL 50".
func Summary(t *model.Transaction) string {
	s := t.Date.String() + " " + string(t.Action) + " " + strings.ToUpper(t.Ticker)
	switch t.Action {
	case model.Dividend:
		return s + " TOTAL " + t.Total.Value.String() + " " + currency(t.Total)
	case model.Split, model.Unsplit:
		return s + " RATIO " + t.Ratio().String()
	case model.AccountDecl:
		return s + " " + t.AccountType()
	case model.Alias, model.Takeover, model.Demerger:
		return s + " " + strings.ToUpper(t.NewTicker())
	case model.Exempt, model.NonReporting:
		return s
	case model.ISINDecl:
		return s + " " + t.ISIN
	}
	return s + " " + t.Quantity.String()
}

func currency(a model.Amount) string {
	if a.Currency == "" {
		return model.GBP
	}
	return a.Currency
}

// Where names a source line: "a.cgt:2" for a ledger line or a row of an export, "a.json[3]"
// for an element of a JSON array.
func Where(s model.Source) string {
	file := name(s.File)
	if s.Line > 0 {
		return file + ":" + strconv.Itoa(s.Line)
	}
	return file + "[" + strconv.Itoa(s.Index) + "]"
}

func name(file string) string {
	if file == "" {
		return "the inline ledger"
	}
	return file
}
