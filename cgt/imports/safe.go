package imports

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// An import writes data, never code. Every text an export gives a transaction (ticker, ISIN,
// broker reference, account, currency codes) ends up in a ledger line when the import is
// written as text, so each transaction is written as its canonical line and read back before
// it is used: a transaction whose line does not read back as itself (a line end inside a
// reference, a ticker the grammar cannot take, a currency that is no ISO code) is not used,
// and its row is skipped with the reason and a warning. Values with spaces or other characters
// get the quoted label form (REF "ab 12"); names are comments, whose control characters
// become spaces. So the ledger `transactions.import --output text` writes is read back as the
// same transactions as the export, whatever text the export holds.

// checkWritable keeps the transactions of imp whose canonical line reads back as themselves,
// and moves the rows of the others to the skipped list with a warning.
func checkWritable(imp *Import) {
	txns := imp.Transactions
	if len(txns) == 0 {
		return
	}
	dropBadLabels(imp)
	dropBadISINs(imp)
	// The whole import at once first: a clean import (the usual case) costs one parse.
	text := dsl.FormatAll(txns)
	if back, err := dsl.Parse("", []byte(text)); err == nil && len(back) == len(txns) {
		clean := true
		for i := range back {
			back[i].Name, back[i].Source = txns[i].Name, txns[i].Source
			if !sameLine(back[i], txns[i]) {
				clean = false
				break
			}
		}
		if clean {
			copy(txns, back) // as the ledger reads them: the export and its ledger give one result
			return
		}
	}
	bad := map[int]string{} // row -> reason
	for i, t := range txns {
		back, why := readBack(t)
		if why == "" {
			txns[i] = back
		} else if _, ok := bad[t.Source.Line]; !ok {
			bad[t.Source.Line] = why
		}
	}
	if len(bad) == 0 {
		return
	}
	kept := txns[:0]
	for _, t := range txns {
		if _, ok := bad[t.Source.Line]; !ok {
			kept = append(kept, t)
		}
	}
	clear(txns[len(kept):])
	imp.Transactions = kept
	rows := make([]int, 0, len(bad))
	for row := range bad {
		rows = append(rows, row)
	}
	order.Ascending(rows)
	for _, row := range rows {
		imp.Report.Imported--
		reason := "its text cannot be written as a ledger line: " + bad[row]
		imp.Report.Skipped = append(imp.Report.Skipped, Skip{Row: row, Type: "unsafe_text", Reason: reason, Unread: true})
		imp.Warnings = append(imp.Warnings, fmt.Sprintf("%s row %d: %s; check the row in the export and add it to the ledger by hand if it is a real transaction",
			imp.Report.File, row, reason))
	}
	order.Stable(imp.Report.Skipped, func(a, b Skip) int { return a.Row - b.Row })
}

// readBack writes t as its canonical line and reads it back: the transaction read (with t's
// name and source), or why the line does not read back as t.
func readBack(t model.Transaction) (model.Transaction, string) {
	if why := controlField(t); why != "" {
		return t, why
	}
	if t.BrokerRef != "" {
		if msg, _ := dsl.CheckBrokerRef(t.BrokerRef); msg != "" {
			return t, dsl.CommentText(msg)
		}
	}
	line := dsl.Format(t)
	if strings.Count(line, "\n") != 1 || strings.ContainsAny(line[:len(line)-1], "\r\x00") {
		return t, "a value holds a line end or a control character"
	}
	back, err := dsl.Parse("", []byte(line))
	if err != nil {
		var e *model.Error
		if errors.As(err, &e) {
			return t, dsl.CommentText(e.Message)
		}
		return t, dsl.CommentText(err.Error())
	}
	if len(back) != 1 {
		return t, fmt.Sprintf("its line reads back as %d transactions", len(back))
	}
	back[0].Name, back[0].Source = t.Name, t.Source
	if dsl.Format(back[0]) != line {
		return t, "its line reads back as another transaction: " + strings.TrimSpace(dsl.CommentText(line))
	}
	return back[0], ""
}

// dropBadLabels keeps every trade whose label cannot be written: a broker reference too long
// or holding a control character (a tab, a line end) is left out, as is an ISIN with a control
// character, and an account label's control characters become spaces (left out if it still
// cannot be written). A label is never worth a trade: the row is kept, identified by its
// content instead of its reference, with one warning per file naming the first and how many.
func dropBadLabels(imp *Import) {
	first, n := "", 0
	note := func(t *model.Transaction, what string) {
		if n == 0 {
			first = fmt.Sprintf("row %d: %s", t.Source.Line, dsl.CommentText(what))
		}
		n++
	}
	for i := range imp.Transactions {
		t := &imp.Transactions[i]
		if t.BrokerRef != "" {
			if msg, _ := dsl.CheckBrokerRef(t.BrokerRef); msg != "" {
				note(t, msg)
				t.BrokerRef = ""
			}
		}
		if t.ISIN != "" && hasControl(t.ISIN) {
			note(t, fmt.Sprintf("ISIN %s holds a control character", clip(fmt.Sprintf("%q", t.ISIN), 40)))
			t.ISIN = ""
		}
		if t.Account != "" {
			if _, msg, _ := dsl.CheckAccountLabel(t.Account); msg != "" {
				label, msg2, _ := dsl.CheckAccountLabel(strings.Join(strings.FieldsFunc(t.Account, isControlRune), " "))
				if msg2 != "" {
					note(t, "account "+msg)
					t.Account = ""
				} else {
					t.Account = label
				}
			}
		}
	}
	if n > 0 {
		imp.Warnings = append(imp.Warnings, fmt.Sprintf("%s: %d label(s) (broker reference, ISIN or account) cannot be written in a ledger and were left out (%s); "+
			"the transactions are kept, each identified by its content", imp.Report.File, n, first))
	}
}

func isControlRune(r rune) bool {
	return r < 0x20 || (r >= 0x7F && r <= 0x9F) || r == '\u2028' || r == '\u2029'
}

// dropBadISINs clears an ISIN that is not one (its form, or its check digit): the ISIN is a
// label that joins one security's names, and a wrong one must not join two. One warning per
// file names the first and how many.
func dropBadISINs(imp *Import) {
	first, n := "", 0
	for i := range imp.Transactions {
		t := &imp.Transactions[i]
		if t.ISIN == "" || controlField(model.Transaction{ISIN: t.ISIN}) != "" {
			continue // a control character in an identity skips the row (readBack)
		}
		isin, _, msg, _ := dsl.CheckISIN(t.ISIN)
		if msg != "" {
			if n == 0 {
				first = fmt.Sprintf("row %d: %s", t.Source.Line, dsl.CommentText(msg))
			}
			n++
			t.ISIN = ""
			continue
		}
		t.ISIN = isin
	}
	if n > 0 {
		imp.Warnings = append(imp.Warnings, fmt.Sprintf("%s: %d ISIN(s) are not valid ISINs and were left out (%s); the transactions are imported without them",
			imp.Report.File, n, first))
	}
}

// controlField names the first value of t that holds a control character (a line end, a tab,
// a NUL...), quoted, or "" when none does.
func controlField(t model.Transaction) string {
	for _, f := range []struct{ name, value string }{
		{"ticker", t.Ticker}, {"new ticker", t.NewTicker()}, {"broker reference", t.BrokerRef},
		{"account", t.Account}, {"ISIN", t.ISIN}, {"account type", t.AccountType()},
		{"currency", t.Price.Currency}, {"currency", t.Total.Currency}, {"currency", t.Fees.Currency},
		{"currency", t.Tax().Currency}, {"currency", t.Cost().Currency}, {"currency", t.Cash().Currency},
		{"currency", t.Value().Currency},
	} {
		if hasControl(f.value) {
			return fmt.Sprintf("the %s %s holds a control character (a line end, tab or NUL)", f.name, clip(fmt.Sprintf("%q", f.value), 80))
		}
	}
	return ""
}

// sameLine reports whether two transactions have the same ledger line: the same labels and
// the same figures, a zero amount equal to any other zero (the line leaves it out) and an
// amount without a currency equal to one in GBP (the line writes GBP).
func sameLine(a, b model.Transaction) bool {
	return a.Date == b.Date && a.Action == b.Action && a.Ticker == b.Ticker && a.NewTicker() == b.NewTicker() &&
		a.AccountType() == b.AccountType() && a.Account == b.Account && a.ISIN == b.ISIN && a.BrokerRef == b.BrokerRef &&
		sameDecimal(a.Quantity, b.Quantity) && sameDecimal(a.Ratio(), b.Ratio()) &&
		sameAmount(a.Price, b.Price) && sameAmount(a.Fees, b.Fees) && sameAmount(a.Total, b.Total) &&
		sameAmount(a.Tax(), b.Tax()) && sameAmount(a.Cost(), b.Cost()) && sameAmount(a.Cash(), b.Cash()) && sameAmount(a.Value(), b.Value())
}

func sameAmount(a, b model.Amount) bool {
	if a.Value.IsZero() && b.Value.IsZero() {
		return true
	}
	ca, cb := a.Currency, b.Currency
	if ca == "" {
		ca = model.GBP
	}
	if cb == "" {
		cb = model.GBP
	}
	return ca == cb && sameDecimal(a.Value, b.Value)
}

// sameDecimal compares two decimals and their scales (the line writes a number at its scale).
func sameDecimal(a, b model.Decimal) bool {
	an, ah, al, ae, aok := a.Parts128()
	bn, bh, bl, be, bok := b.Parts128()
	if aok && bok {
		return an == bn && ah == bh && al == bl && ae == be || (ah|al) == 0 && (bh|bl) == 0
	}
	x, y := a.Exact(), b.Exact()
	return x.Equal(y) && x.Exponent() == y.Exponent()
}

// hasControl reports a control character (C0, DEL, C1) or a Unicode line or paragraph
// separator in s: what may not stand in a value of a ledger line.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || (r >= 0x7F && r <= 0x9F) || r == '\u2028' || r == '\u2029' }) >= 0
}
