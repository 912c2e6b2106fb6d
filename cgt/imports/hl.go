package imports

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// HL reads the Hargreaves Lansdown "Transaction Summary" CSV of a Fund & Share Account: a
// preamble (client name and number, valuation time), then Trade date, Settle date, Reference,
// Description, Unit cost (p), Quantity, Value (£). Written in Windows-1252.
var HL = &Importer{
	Name:      "hl",
	Title:     "Hargreaves Lansdown Transaction Summary CSV",
	Broker:    "Hargreaves Lansdown",
	Page:      "hl",
	Signature: `a header line "Trade date,Settle date,Reference,Description,Unit cost (p),Quantity,Value (£)" after the report's preamble`,
	Detect: func(c *Content) bool {
		for _, l := range c.Lines {
			if hlHeader(splitHeader(l)) {
				return true
			}
		}
		return false
	},
	Read: readHL,
}

func hlHeader(f []string) bool {
	return len(f) >= 5 && strings.EqualFold(f[0], "Trade date") && strings.EqualFold(f[1], "Settle date") &&
		strings.EqualFold(f[2], "Reference") && strings.EqualFold(f[3], "Description") && hasPrefixFold(f[4], "Unit cost")
}

// hlDates: dd/mm/yyyy.
var hlDates = []string{"02/01/2006", "2/1/2006", "02-01-2006"}

// hlTradeName reads "Vanguard FTSE Developed World UCITS ETF 4563 @  3287.199": the
// security's name before the quantity and the unit cost (on the first line; the name may be
// empty). (It is the regular expression
// ^(.*?)\s+[0-9][0-9,]*(?:\.[0-9]+)?\s*@\s*[0-9][0-9,]*(?:\.[0-9]+)?\s*$ and its group.)
func hlTradeName(desc string) (string, bool) {
	for j := 0; j < len(desc); j++ {
		if isSpace(desc[j]) && hlDealEnds(desc, j) {
			return desc[:j], true
		}
		if desc[j] == '\n' {
			break // the name is on one line
		}
	}
	return "", false
}

// hlDealEnds reports whether s[i:] is spaces, a quantity, "@" and a unit cost, spaced.
func hlDealEnds(s string, i int) bool {
	i, ok := hlNumberEnd(s, spacesFrom(s, i))
	if i = spacesFrom(s, i); !ok || i == len(s) || s[i] != '@' {
		return false
	}
	i, ok = hlNumberEnd(s, spacesFrom(s, i+1))
	return ok && spacesFrom(s, i) == len(s)
}

// hlNumberEnd reads digits and commas (starting with a digit), then decimals after a dot.
func hlNumberEnd(s string, i int) (int, bool) {
	if i == len(s) || !isDigit(s[i]) {
		return i, false
	}
	for i < len(s) && (isDigit(s[i]) || s[i] == ',') {
		i++
	}
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i = digitsFrom(s, i+1)
	}
	return i, true
}

// hlDeal reads a dealing reference: B (bought) or S (sold) and digits.
func hlDeal(ref string) (action byte, ok bool) {
	if len(ref) < 2 || (ref[0] != 'B' && ref[0] != 'S') || digitsFrom(ref, 1) != len(ref) {
		return 0, false
	}
	return ref[0], true
}

func readHL(file string, src []byte) (*Import, error) {
	b := newBatch(file, "hl")
	t, err := openCSV(file, src, b, hlHeader)
	if err != nil {
		if e := delimitedHeader(file, src, hlHeader); e != nil {
			return nil, e
		}
		return nil, err
	}
	var date, ref, desc, cost, qty, value int
	if err = t.bind(column(&date, "Trade date"), column(&ref, "Reference"), column(&desc, "Description")); err != nil {
		return nil, err
	}
	// "Value (£)" and "Unit cost (p)" are found by how they begin: the £ may have been
	// re-encoded on the way.
	cost, value = -1, -1
	for i, h := range t.header {
		switch {
		case value < 0 && hasPrefixFold(h, "Value"):
			value = i
		case cost < 0 && hasPrefixFold(h, "Unit cost"):
			cost = i
		}
	}
	if value < 0 {
		_, err = t.need("Value (£)")
		return nil, err
	}
	if cost < 0 {
		_, err = t.need("Unit cost (p)")
		return nil, err
	}
	if qty, err = t.need("Quantity"); err != nil {
		return nil, err
	}
	t.needed = max(t.needed, value+1)
	for t.next() {
		t.hlRow(b, date, ref, desc, cost, qty, value)
	}
	if t.err != nil {
		return nil, t.err
	}
	return b.done(), nil
}

func (t *table) hlRow(b *batch, dateC, refC, descC, costC, qtyC, valueC int) {
	row := t.line
	date := t.date(dateC, hlDates...)
	ref := t.str(refC)
	desc := t.str(descC)
	val := t.money(valueC)
	unit, hasUnit := t.decOK(costC, moneyNumber)
	qty, hasQty := t.decOK(qtyC, moneyNumber)
	if t.err != nil {
		return
	}
	up := strings.ToUpper(ref)
	if deal, ok := hlDeal(up); ok {
		action := model.Buy
		if deal == 'S' {
			action = model.Sell
		}
		name := desc
		if n, ok := hlTradeName(desc); ok {
			name = n
		}
		if !hasQty || qty.Sign() <= 0 || val.IsZero() || name == "" {
			b.warn(row, "trade", fmt.Sprintf("deal %s (%s) without a quantity or value", ref, desc), "add the "+string(action)+" line by hand")
			return
		}
		// Value (£) is the sterling that moved: for a purchase the consideration with the
		// dealing charge and stamp duty, which HL does not itemise (all of it is cost); for a
		// sale the proceeds net of the charge, grossed up below.
		tx := model.Transaction{Date: date, Action: action, Ticker: tickerFromFundName(name), Quantity: num(qty),
			Total: amount(val.Abs(), model.GBP), Name: name, BrokerRef: ref}
		if action == model.Sell && hasUnit {
			if gross, charge, ok := hlGross(unit, qty, val.Abs()); ok {
				tx.Total, tx.Fees = amount(gross, model.GBP), amount(charge, model.GBP)
			}
		}
		b.add(row, tx)
		return
	}
	lowDesc := strings.ToLower(desc)
	switch {
	case up == "INTEREST" || strings.HasPrefix(lowDesc, "interest"):
		b.skip(row, "interest", desc+": interest is income, not a capital transaction")
	case strings.Contains(up, "FEE") || strings.Contains(lowDesc, "fee") || strings.Contains(lowDesc, "charge"):
		b.skip(row, "fee", desc+": an account fee, not a cost of a trade")
	case up == "FPC" || strings.Contains(lowDesc, "receipt"):
		b.skip(row, "deposit", desc)
	case up == "FPD" || strings.Contains(lowDesc, "payment to"):
		b.skip(row, "withdrawal", desc)
	case strings.HasPrefix(up, "TRANSFER") || strings.Contains(lowDesc, "transfer"):
		b.skip(row, "transfer", desc+": cash moved between your own accounts")
	case hasQty && !qty.IsZero():
		b.warn(row, "unknown", fmt.Sprintf("reference %q (%s) moved %s units and is not one cgt knows", ref, desc, qty),
			"add the ledger line it stands for (a BUY, SELL, SPLIT or corporate action) by hand")
	default:
		b.warn(row, "cash", fmt.Sprintf("reference %q (%s) is a cash movement cgt does not know", ref, desc),
			"if it was a dividend, a capital return or cash from a corporate action, add that line by hand")
	}
}

// hlGross is a sale's gross proceeds, worked out from its own unit cost (pence) and quantity
// to the penny, and the dealing charge: gross less the net Value. The disposal proceeds are
// gross and the charge is an allowable cost (TCGA92 s38(1)(c)), so an HL sale gives the same
// SA108 boxes as the same sale at a broker that itemises the charge. ok is false when the
// difference is not a plausible charge (negative, or over 5% of the gross): the net value is
// then kept as the consideration.
func hlGross(unitPence, qty, net decimal.Decimal) (gross, charge decimal.Decimal, ok bool) {
	gross = unitPence.Mul(qty).Shift(-2).Round(2)
	charge = gross.Sub(net)
	if charge.Sign() < 0 || charge.GreaterThan(gross.Mul(decimal.New(5, -2))) {
		return net, decimal.Zero, false
	}
	return gross, charge, true
}

// tickerFromFundName makes a ledger ticker from a security's name, for exports that give no
// symbol: a "(TICKER)" at its end, else the name's words joined by '.' ("Vanguard FTSE
// Developed World UCITS ETF" is VANGUARD.FTSE.DEVELOPED.WORLD.UCITS.ETF). A name longer than
// a ticker may be keeps its first 27 characters and a '-' with four hexadecimal digits of the
// whole name, so two long names that begin alike stay two securities.
func tickerFromFundName(name string) string {
	name = strings.TrimSpace(name)
	if open := strings.LastIndex(name, "("); open > 0 && strings.HasSuffix(name, ")") {
		inner := strings.TrimSpace(name[open+1 : len(name)-1])
		if hlSymbolLike(inner) {
			return ticker(inner, "")
		}
	}
	var bld strings.Builder
	for _, r := range strings.ToUpper(name) {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			bld.WriteRune(r)
		case r == '&' || r == '%' || r == '\'' || r == '’':
			// part of a word: "L&G", "60%", "Investors'"
		default:
			if bld.Len() > 0 && !strings.HasSuffix(bld.String(), ".") {
				bld.WriteByte('.')
			}
		}
	}
	s := strings.TrimRight(bld.String(), ".")
	if len(s) <= 32 {
		return s
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	return strings.TrimRight(s[:27], ".") + fmt.Sprintf("-%04X", h.Sum32()&0xffff)
}

// hlSymbolLike reports a bracketed exchange symbol written in capitals ("VWRL", "BRK.B"), not
// a share class ("Accumulation", "ACC").
func hlSymbolLike(s string) bool {
	if s == "" || len(s) > 10 {
		return false
	}
	switch s {
	case "ACC", "INC", "DIST", "GBP", "USD", "EUR", "GBX", "ETF":
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == ':' || r == '-') {
			return false
		}
	}
	return true
}

// delimitedHeader finds a header line, in a report with a preamble, that is separated by
// semicolons or tabs instead of commas: the error to give instead of "no header".
func delimitedHeader(file string, src []byte, isHeader func([]string) bool) error {
	for i, line := range strings.Split(string(decodeText(src)), "\n") {
		for _, sep := range []string{";", "\t"} {
			f := strings.Split(strings.TrimRight(line, "\r"), sep)
			for j := range f {
				f[j] = strings.TrimSpace(strings.Trim(strings.TrimSpace(f[j]), `"`))
			}
			if len(f) > 2 && isHeader(f) {
				return &model.Error{Code: model.CodeParse, File: file, Line: i + 1, Column: 1, Value: clip(line, 120),
					Message: fmt.Sprintf("%s is separated by %s, not commas", file, otherDelimiter(line)),
					Hint:    "Download the file again from the broker (its CSV is comma-separated), or save it from the spreadsheet as CSV with commas."}
			}
		}
	}
	return nil
}
