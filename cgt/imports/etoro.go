package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// EToro reads the "Account Activity" sheet of eToro's account statement, saved as CSV. The
// account is in US dollars: Amount is the dollars invested (an opened position) or returned
// (a closed one), kept in dollars. Stamp duty (SDRT) comes on its own row, linked to its
// purchase by the Position ID. Number formats vary from row to row: "4,581.91", "(6.97)",
// " 1 757,95 " with a decimal comma.
var EToro = &Importer{
	Name:      "etoro",
	Title:     "eToro account statement, Account Activity sheet as CSV",
	Broker:    "eToro",
	Page:      "etoro",
	Signature: "header starting Date,Type,Details,Amount,Units with Position ID",
	Detect: func(c *Content) bool {
		return headerStarts(c.Header, "Date", "Type", "Details", "Amount", "Units") && headerHas(c.Header, "Position ID")
	},
	Read: readEToro,
}

var etoroDates = []string{"02/01/2006 15:04:05", "02/01/2006 15:04", "02/01/2006", "2006-01-02 15:04:05"}

type etoroCols struct{ date, typ, details, amount, units, pos, asset int }

type etoroSDRT struct {
	_ model.NotComparable

	row    int
	pos    string
	amount decimal.Decimal
	tk     string
}

func readEToro(file string, src []byte) (*Import, error) {
	b := newBatch(file, "etoro")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var c etoroCols
	if err = t.bind(column(&c.date, "Date"), column(&c.typ, "Type"), column(&c.details, "Details"), column(&c.amount, "Amount"), column(&c.units, "Units"), column(&c.pos, "Position ID")); err != nil {
		return nil, err
	}
	c.asset = t.col("Asset type")
	var sdrt []etoroSDRT
	for t.next() {
		if s, ok := t.etoroRow(b, c); ok {
			sdrt = append(sdrt, s)
		}
	}
	if t.err != nil {
		return nil, t.err
	}
	etoroFoldSDRT(b, sdrt)
	return b.done(), nil
}

// etoroFoldSDRT adds each SDRT row to the fees of the purchase of its position.
func etoroFoldSDRT(b *batch, rows []etoroSDRT) {
	for _, s := range rows {
		found := false
		for i := range b.imp.Transactions {
			tx := &b.imp.Transactions[i]
			if tx.Action == model.Buy && tx.BrokerRef == s.pos && s.pos != "" {
				tx.Fees = amount(tx.Fees.Value.Exact().Add(s.amount), "USD")
				b.fold(s.row)
				found = true
				break
			}
		}
		if !found {
			b.warn(s.row, "stamp_duty", fmt.Sprintf("SDRT of %s USD on %s for position %s, whose purchase is not in this file", s.amount, s.tk, s.pos),
				"add it to the FEES of that BUY (a cost of the purchase)")
		}
	}
}

func (t *table) etoroRow(b *batch, c etoroCols) (etoroSDRT, bool) {
	row := t.line
	date := t.date(c.date, etoroDates...)
	typ := t.str(c.typ)
	low := strings.ToLower(typ)
	details := t.str(c.details)
	amt, _ := t.local(c.amount, commaThousands)
	// A row whose amount has a decimal comma has one in its units too ("1,234" = 1.234).
	units, _ := t.local(c.units, rowStyle(t.str(c.amount)))
	if t.err != nil {
		return etoroSDRT{}, false
	}
	pos := t.str(c.pos)
	if isEmptyCell(pos) {
		pos = ""
	}
	symbol, _, _ := strings.Cut(details, "/")
	tk := ""
	if details != "" && !isEmptyCell(details) && !strings.EqualFold(details, "daily") {
		tk = ticker(symbol, "")
	}
	asset := strings.ToLower(t.str(c.asset))
	units = units.Abs()
	tx := model.Transaction{Date: date, Ticker: tk, BrokerRef: pos}
	switch {
	case low == "open position" || low == "position closed":
		action := model.Buy
		if low == "position closed" {
			action = model.Sell
		}
		switch {
		case asset == "cfd":
			b.warn(row, "cfd", fmt.Sprintf("%s of a CFD on %s (position %s): a CFD is not a holding of shares", strings.ToLower(typ), tk, pos),
				"work out the gain on CFDs separately (it is not pooled with shares)")
			return etoroSDRT{}, false
		case strings.Contains(asset, "crypto"):
			b.warn(row, "crypto", fmt.Sprintf("%s of cryptoasset %s (position %s)", strings.ToLower(typ), tk, pos),
				"cryptoassets are pooled separately from shares: work out their gains separately")
			return etoroSDRT{}, false
		}
		if tk == "" || units.Sign() <= 0 || amt.IsZero() {
			b.warn(row, "trade", fmt.Sprintf("%s of %q without units or an amount", strings.ToLower(typ), details), "add the "+string(action)+" line by hand")
			return etoroSDRT{}, false
		}
		tx.Action, tx.Quantity, tx.Total = action, num(units), amount(amt.Abs(), "USD")
		if action == model.Sell && pos != "" {
			tx.BrokerRef = pos + " " + date.String() // a position may be closed in parts
		}
		b.add(row, tx)
	case low == "sdrt" || strings.Contains(low, "stamp duty"):
		return etoroSDRT{row: row, pos: pos, amount: amt.Abs(), tk: tk}, true
	case low == "dividend":
		if amt.Sign() <= 0 || tk == "" {
			b.warn(row, "dividend", "dividend of "+tk+" without a positive amount (a reversal?)", "correct the DIVIDEND lines by hand")
			return etoroSDRT{}, false
		}
		tx.Action, tx.Total = model.Dividend, amount(amt, "USD")
		if pos != "" {
			tx.BrokerRef = pos + " " + date.String() // one position is paid many dividends
		}
		b.dividend(row, tk+"|"+date.String()+"|"+pos, tx)
	case low == "deposit":
		b.skip(row, "deposit", "cash paid in")
	case strings.HasPrefix(low, "withdraw") && !strings.Contains(low, "fee"):
		b.skip(row, "withdrawal", typ+": cash paid out")
	case strings.Contains(low, "overnight"):
		b.skip(row, "fee", typ+": overnight financing of a leveraged (CFD) position, not a cost of a share trade")
	case strings.Contains(low, "fee"):
		b.skip(row, "fee", typ+": an account fee, not a cost of a trade")
	case strings.Contains(low, "interest"):
		b.skip(row, "interest", typ+": interest is income, not a capital transaction")
	case strings.HasPrefix(low, "edit ") || strings.Contains(low, "stop loss") || strings.Contains(low, "take profit"):
		b.skip(row, "statement", typ+": an order setting changed, no money or shares moved")
	case tk != "" || pos != "":
		b.warn(row, "unknown", fmt.Sprintf("type %q for %s (position %s) is not one cgt knows", typ, details, pos),
			"if it changed a holding or its cost, add the ledger line by hand")
	default:
		b.skip(row, "cash", typ+": a cash movement without a security")
	}
	return etoroSDRT{}, false
}
