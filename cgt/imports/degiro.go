package imports

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Degiro reads DEGIRO's two CSV exports: the Transactions report (one row per execution,
// with its fees, AutoFX fee and total in the account's base currency) and the Account
// statement (one row per cash movement: a trade is several rows sharing an Order Id). Headers
// are translated with the website's language; the columns are found by their English, Dutch
// or Portuguese names, and the unnamed column right of a money column holds its currency (or,
// in the statement, the amount right of its currency). Numbers use a decimal comma.
var Degiro = &Importer{
	Name:      "degiro",
	Title:     "DEGIRO Transactions report or Account statement CSV",
	Broker:    "DEGIRO",
	Page:      "degiro",
	Signature: "header Date,Time,Product,ISIN,Reference exchange,Venue,Quantity,Price,... (Transactions) or Date,Time,Value date,Product,ISIN,Description,FX,Change,... (Account statement), in English, Dutch or Portuguese",
	Detect: func(c *Content) bool {
		return degiroIsTransactions(c.Header) || degiroIsStatement(c.Header)
	},
	Read: readDegiro,
}

// Column names by language (English, Dutch, Portuguese, and the other UI languages where
// they are known).
var (
	dgDate     = []string{"Date", "Datum", "Data", "Fecha"}
	dgProduct  = []string{"Product", "Produto", "Produkt", "Producto", "Produit", "Prodotto"}
	dgDesc     = []string{"Description", "Omschrijving", "Descrição", "Descricao", "Beschreibung", "Descripción", "Descrizione"}
	dgChange   = []string{"Change", "Mutatie", "Mudança", "Mudanca", "Änderung", "Variación", "Mouvements", "Variazioni"}
	dgOrder    = []string{"Order Id", "Order ID", "ID da Ordem", "Order-ID", "ID Orden", "ID Ordre", "ID Ordine"}
	dgVenue    = []string{"Venue", "Uitvoeringsplaats", "Local de execução", "Ausführungsort"}
	dgQty      = []string{"Quantity", "Aantal", "Quantidade", "Anzahl", "Cantidad", "Quantité", "Quantità"}
	dgPrice    = []string{"Price", "Koers", "Preço", "Kurs", "Precio", "Cours", "Prezzo"}
	dgLocal    = []string{"Local value", "Lokale waarde", "Valor local", "Lokaler Wert"}
	dgValue    = []string{"Value", "Waarde", "Valor", "Wert"}
	dgAutoFX   = []string{"AutoFX Fee", "AutoFX-kosten", "Custo AutoFX", "AutoFX Gebühr"}
	dgFees     = []string{"Transaction and/or third party fees", "Transaction and/or third", "Transactiekosten en/of kosten van derden", "Transactiekosten", "Custos de transação", "Transaktionskosten"}
	degiroDays = []string{"02-01-2006", "2-1-2006", "02/01/2006", "2006-01-02"}
)

func degiroIsTransactions(h string) bool {
	return anyHeader(h, "ISIN") && anyHeader(h, dgVenue...) && anyHeader(h, dgQty...) && anyHeader(h, dgPrice...)
}

func degiroIsStatement(h string) bool {
	return anyHeader(h, "ISIN") && anyHeader(h, "FX") && anyHeader(h, dgProduct...) && anyHeader(h, dgDesc...) && anyHeader(h, dgChange...)
}

func anyHeader(h string, names ...string) bool {
	for _, n := range names {
		if headerHas(h, n) {
			return true
		}
	}
	return false
}

func readDegiro(file string, src []byte) (*Import, error) {
	c := Sniff(src)
	if degiroIsTransactions(c.Header) {
		return readDegiroTransactions(file, src)
	}
	return readDegiroStatement(file, src)
}

// prefixCol finds a column whose name starts with one of the names ("Value EUR", "Total
// EUR"), and the currency its name ends with, if any.
func (t *table) prefixCol(names ...string) (int, string) {
	if c := t.col(names...); c >= 0 {
		return c, ""
	}
	for i, h := range t.header {
		for _, n := range names {
			if len(h) > len(n)+1 && strings.EqualFold(h[:len(n)], n) && h[len(n)] == ' ' {
				if code, _, ok := currencyCode(strings.TrimSpace(h[len(n):])); ok {
					return i, code
				}
			}
		}
	}
	return -1, ""
}

// dgMoney reads a money column: the amount at col, its currency either fixed by the header
// ("Total EUR") or in the unnamed column right of it.
func (t *table) dgMoney(col int, fixed string) (decimal.Decimal, string, bool) {
	if col < 0 {
		return decimal.Decimal{}, "", false
	}
	v, ok := t.local(col, commaDecimal)
	ccy, pence := fixed, false
	if ccy == "" && col+1 < len(t.header) && t.header[col+1] == "" && t.str(col+1) != "" {
		ccy, pence = t.currency(col + 1)
	}
	if pence {
		v = pounds(v)
	}
	return v, ccy, ok
}

// ---- Transactions report ----

type dgExec struct {
	_ model.NotComparable

	row                  int
	date                 model.Date
	product, isin, order string
	qty, price           decimal.Decimal
	priceCcy             string
	local                decimal.Decimal
	localCcy             string
	value                decimal.Decimal
	baseCcy              string
	costs                decimal.Decimal // AutoFX fee and transaction fees, in the base currency
}

func readDegiroTransactions(file string, src []byte) (*Import, error) {
	b := newBatch(file, "degiro")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var date, product, isin, qty, price, local int
	for _, f := range []struct {
		dst   *int
		names []string
	}{{&date, dgDate}, {&product, dgProduct}, {&isin, []string{"ISIN"}}, {&qty, dgQty}, {&price, dgPrice}, {&local, dgLocal}} {
		if *f.dst, err = t.need(f.names...); err != nil {
			return nil, err
		}
	}
	value, valueCcy := t.prefixCol(dgValue...)
	autoFX, autoFXCcy := t.prefixCol(dgAutoFX...)
	fees, feesCcy := t.prefixCol(dgFees...)
	order := t.col(dgOrder...)
	var execs []*dgExec
	for t.next() {
		e := &dgExec{row: t.line, date: t.date(date, degiroDays...), product: t.str(product), isin: t.str(isin)}
		e.qty, _ = t.local(qty, commaDecimal)
		var pricePence bool
		e.price, _ = t.local(price, commaDecimal)
		if price+1 < len(t.header) && t.header[price+1] == "" && t.str(price+1) != "" {
			e.priceCcy, pricePence = t.currency(price + 1)
		}
		if pricePence {
			e.price = pounds(e.price)
		}
		e.local, e.localCcy, _ = t.dgMoney(local, "")
		e.value, e.baseCcy, _ = t.dgMoney(value, valueCcy)
		fx, fxCcy, _ := t.dgMoney(autoFX, autoFXCcy)
		fee, feeCcy, _ := t.dgMoney(fees, feesCcy)
		if t.err != nil {
			return nil, t.err
		}
		if e.baseCcy == "" {
			e.baseCcy = firstNonEmpty(feeCcy, fxCcy)
		}
		e.costs = fx.Abs().Add(fee.Abs())
		if order >= 0 {
			// The order id may sit one column right of its header.
			e.order = firstNonEmpty(t.str(order), t.str(order+1))
		}
		execs = append(execs, e)
	}
	if t.err != nil {
		return nil, t.err
	}
	// Partial fills of one order are one trade.
	groups := map[string][]*dgExec{}
	for _, e := range execs {
		key := e.order
		if key == "" {
			key = fmt.Sprintf("row %d", e.row)
		}
		groups[key] = append(groups[key], e)
	}
	done := map[string]bool{}
	for _, e := range execs {
		key := e.order
		if key == "" {
			key = fmt.Sprintf("row %d", e.row)
		}
		if done[key] {
			continue
		}
		done[key] = true
		degiroExecTrade(b, groups[key])
	}
	return b.done(), nil
}

func degiroExecTrade(b *batch, fills []*dgExec) {
	first := fills[0]
	var qty, local, value, costs decimal.Decimal
	samePrice := true
	for _, f := range fills {
		qty, local, value, costs = qty.Add(f.qty), local.Add(f.local), value.Add(f.value), costs.Add(f.costs)
		samePrice = samePrice && f.price.Equal(first.price) && f.localCcy == first.localCcy
	}
	tk := ticker(first.isin, first.product)
	tx := model.Transaction{Date: first.date, Ticker: tk, ISIN: first.isin, Name: first.product, BrokerRef: first.order}
	switch {
	case qty.Sign() > 0:
		tx.Action = model.Buy
	case qty.Sign() < 0:
		tx.Action = model.Sell
	default:
		for _, f := range fills {
			b.warn(f.row, "trade", "execution of "+tk+" with a zero quantity", "add the ledger line by hand if shares moved")
		}
		return
	}
	qty = qty.Abs()
	tx.Quantity = num(qty)
	switch {
	case first.baseCcy == model.GBP && !value.IsZero():
		// A sterling account states the sterling value of the trade: that is the
		// consideration, and the AutoFX and transaction fees are its costs.
		tx.Total = amount(value.Abs(), model.GBP)
	case samePrice && first.localCcy != "" && qty.Mul(first.price).Equal(local.Abs()):
		tx.Price = amount(first.price, first.localCcy)
	case first.localCcy != "" && !local.IsZero():
		tx.Total = amount(local.Abs(), first.localCcy)
	default:
		for _, f := range fills {
			b.warn(f.row, "trade", "execution of "+tk+" without a value", "add the "+string(tx.Action)+" line by hand")
		}
		return
	}
	if costs.Sign() > 0 && first.baseCcy != "" {
		tx.Fees = amount(costs, first.baseCcy)
	}
	b.add(first.row, tx)
	for _, f := range fills[1:] {
		b.fold(f.row)
	}
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// ---- Account statement ----

type dgKind int

const (
	dgOther dgKind = iota
	dgTrade
	dgProductChange
	dgCorporate // another corporate action written as a trade: "STOCK DIVIDEND: Koop 999 @ 0 EUR"
	dgFee
	dgFX
	dgDividend
	dgDivTax
)

type dgRow struct {
	_ model.NotComparable

	line                int
	date                model.Date
	product, isin, desc string
	ccy                 string
	amt                 decimal.Decimal
	order               string
	kind                dgKind
	buy                 bool
	qty, price          decimal.Decimal
	priceCcy            string
	pricePence, hasAmt  bool
}

// dgTradeText is what a trade's description says: "Koop 1 @ 33,9 USD", "Compra 6 ISHARES
// MSCI WOR A@49,785 EUR (IE...)", "Sell 4 AVIVA@496 GBX (GB...)", and "PRODUCTWIJZIGING : Koop
// 500 @ 0,039 EUR" (prefix "PRODUCTWIJZIGING").
type dgTradeText struct{ prefix, verb, qty, price, ccy string }

// readDgTradeText reads a trade's description: an optional prefix and a colon, a word (the
// verb), the quantity (digits, commas and dots, or thousands grouped by spaces), anything up
// to an @, the price and a three-letter currency. (It is the regular expression
// ^(?:([^:@]+?)\s*:\s*)?(\p{L}+)\s+(\d{1,3}(?:[ \x{a0}\x{202f}]\d{3})+(?:[.,]\d+)?|[\d.,]+)\s*(?:[^@]*?)\s*@\s*([\d.,]+)\s+([A-Za-z]{3})\b
// with its groups.)
func readDgTradeText(s string) (dgTradeText, bool) {
	// A prefix runs to the first colon, with no @ before it; the text after the colon must
	// read as a trade, else the whole text is tried as one.
	if c := strings.IndexByte(s, ':'); c > 0 && strings.IndexByte(s[:c], '@') < 0 {
		if t, ok := dgTradeFrom(s, spacesFrom(s, c+1)); ok {
			end := c
			for end > 0 && isSpace(s[end-1]) {
				end--
			}
			t.prefix = s[:max(end, 1)]
			return t, true
		}
	}
	return dgTradeFrom(s, 0)
}

func dgTradeFrom(s string, i int) (dgTradeText, bool) {
	verbEnd := i
	for verbEnd < len(s) {
		r, w := utf8.DecodeRuneInString(s[verbEnd:])
		if !unicode.IsLetter(r) {
			break
		}
		verbEnd += w
	}
	q := spacesFrom(s, verbEnd)
	if verbEnd == i || q == verbEnd {
		return dgTradeText{}, false
	}
	qEnd := dgQuantityEnd(s, q)
	at := strings.IndexByte(s[qEnd:], '@')
	if qEnd == q || at < 0 {
		return dgTradeText{}, false
	}
	p := spacesFrom(s, qEnd+at+1)
	pEnd := p
	for pEnd < len(s) && (isDigit(s[pEnd]) || s[pEnd] == '.' || s[pEnd] == ',') {
		pEnd++
	}
	c := spacesFrom(s, pEnd)
	if pEnd == p || c == pEnd || len(s)-c < 3 || !isASCIILetter(s[c]) || !isASCIILetter(s[c+1]) || !isASCIILetter(s[c+2]) || !atBoundary(s, c+3) {
		return dgTradeText{}, false
	}
	return dgTradeText{verb: s[i:verbEnd], qty: s[q:qEnd], price: s[p:pEnd], ccy: s[c : c+3]}, true
}

// dgQuantityEnd returns the end of the quantity at i: one to three digits then groups of three
// after a space, no-break space or narrow no-break space (with decimals after a dot or comma),
// else a run of digits, dots and commas; i when there is none.
func dgQuantityEnd(s string, i int) int {
	if n := digitsFrom(s, i) - i; n >= 1 && n <= 3 {
		j, groups := i+n, 0
		for {
			w := dgGroupSeparator(s, j)
			if w == 0 || len(s)-(j+w) < 3 || !isDigit(s[j+w]) || !isDigit(s[j+w+1]) || !isDigit(s[j+w+2]) {
				break
			}
			j, groups = j+w+3, groups+1
		}
		if groups > 0 {
			if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
				j = digitsFrom(s, j+1)
			}
			return j
		}
	}
	for i < len(s) && (isDigit(s[i]) || s[i] == '.' || s[i] == ',') {
		i++
	}
	return i
}

// dgGroupSeparator is the width of a space, no-break space or narrow no-break space at i, else 0.
func dgGroupSeparator(s string, i int) int {
	for _, sep := range []string{" ", "\u00a0", "\u202f"} {
		if hasAt(s, i, sep) {
			return len(sep)
		}
	}
	return 0
}

// dgProductChanges are the prefixes of a product change: the same holding under a new
// product line (and sometimes a new ISIN).
var dgProductChanges = []string{"productwijziging", "product change", "produktänderung", "alteração de produto", "cambio de producto", "changement de produit", "modifica prodotto"}

var (
	dgBuyWords  = []string{"koop", "buy", "compra", "achat", "kauf", "acquisto", "køb", "köp", "kup", "osto"}
	dgSellWords = []string{"verkoop", "sell", "venda", "venta", "vente", "verkauf", "vendita", "salg", "sälj", "sprzedaż", "myynti"}
)

func readDegiroStatement(file string, src []byte) (*Import, error) {
	b := newBatch(file, "degiro")
	t, err := openCSV(file, src, b, nil)
	if err != nil {
		return nil, err
	}
	var date, product, isin, desc, change int
	for _, f := range []struct {
		dst   *int
		names []string
	}{{&date, dgDate}, {&product, dgProduct}, {&isin, []string{"ISIN"}}, {&desc, dgDesc}, {&change, dgChange}} {
		if *f.dst, err = t.need(f.names...); err != nil {
			return nil, err
		}
	}
	order := t.col(dgOrder...)
	if order < 0 && len(t.header) > 0 && change+4 < len(t.header) {
		order = len(t.header) - 1 // the last column, whatever its language
	}
	t.needed = max(t.needed, min(change+2, len(t.header)))
	var rows []*dgRow
	for t.next() {
		if order >= 0 && len(rows) > 0 && t.str(date) == "" && t.str(desc) == "" && t.str(order) != "" {
			// A long Order Id wrapped onto a line of its own: not a row.
			b.unseen()
			rows[len(rows)-1].order += t.str(order)
			continue
		}
		r := &dgRow{line: t.line, date: t.date(date, degiroDays...), product: t.str(product), isin: t.str(isin), desc: t.str(desc)}
		if s := t.str(change); s != "" {
			r.ccy, _ = t.currency(change)
		}
		r.amt, r.hasAmt = t.local(change+1, commaDecimal)
		if order >= 0 {
			r.order = t.str(order)
		}
		if t.err != nil {
			return nil, t.err
		}
		r.classify()
		if r.kind == dgTrade && r.pricePence {
			r.price = pounds(r.price)
		}
		rows = append(rows, r)
	}
	if t.err != nil {
		return nil, t.err
	}
	degiroStatement(b, rows)
	return b.done(), nil
}

func hasWord(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func (r *dgRow) classify() {
	low := strings.ToLower(r.desc)
	if m, ok := readDgTradeText(r.desc); ok {
		verb := strings.ToLower(m.verb)
		buy, sell := slices.Contains(dgBuyWords, verb), slices.Contains(dgSellWords, verb)
		q, okQ := localNumber(m.qty, commaDecimal)
		p, okP := localNumber(m.price, commaDecimal)
		code, pence, okC := currencyCode(m.ccy)
		if (buy || sell) && okQ && okP && okC {
			r.kind, r.buy, r.qty, r.price, r.priceCcy, r.pricePence = dgTrade, buy, q, p, code, pence
			if m.prefix != "" {
				r.kind = dgCorporate
				if slices.Contains(dgProductChanges, strings.ToLower(strings.TrimSpace(m.prefix))) {
					r.kind = dgProductChange
				}
			}
			return
		}
	}
	switch {
	case hasWord(low, "kosten", "fee", "frais", "comiss", "gebühr", "costi", "comisión", "costes", "commission", "custo"):
		r.kind = dgFee
	case hasWord(low, "valuta", "divisa", "currency", "devise", "währung", "wechsel", "cambio", "fx ", "autofx"):
		r.kind = dgFX
	case hasWord(low, "dividend") && hasWord(low, "belasting", "tax", "impôt", "impost", "steuer", "retención", "ritenuta", "withholding"),
		hasWord(low, "impôts sur dividende", "dividendbelasting"):
		r.kind = dgDivTax
	case hasWord(low, "dividend", "capital gain", "kapitaal"):
		r.kind = dgDividend
	}
}

type dgOrderGroup struct {
	legs, fees, fx []*dgRow
	emitted        bool
}

func degiroStatement(b *batch, rows []*dgRow) {
	groups := map[string]*dgOrderGroup{}
	for _, r := range rows {
		if r.order == "" || (r.kind != dgTrade && r.kind != dgFee && r.kind != dgFX) {
			continue
		}
		g := groups[r.order]
		if g == nil {
			g = &dgOrderGroup{}
			groups[r.order] = g
		}
		switch r.kind {
		case dgTrade:
			g.legs = append(g.legs, r)
		case dgFee:
			g.fees = append(g.fees, r)
		case dgFX:
			g.fx = append(g.fx, r)
		}
	}
	changes := map[model.Date][]*dgRow{}
	for _, r := range rows {
		if r.kind == dgProductChange {
			changes[r.date] = append(changes[r.date], r)
		}
	}
	for _, r := range rows {
		if g := groups[r.order]; r.order != "" && g != nil && len(g.legs) > 0 && (r.kind == dgTrade || r.kind == dgFee || r.kind == dgFX) {
			if !g.emitted {
				g.emitted = true
				degiroOrder(b, g)
			}
			continue
		}
		degiroCashRow(b, r, changes)
	}
}

// degiroOrder turns the rows of one order (its executions, fees and currency legs) into one
// trade.
func degiroOrder(b *batch, g *dgOrderGroup) {
	first := g.legs[0]
	var qty, cash decimal.Decimal
	samePrice := true
	for _, l := range g.legs {
		if l.buy != first.buy {
			for _, r := range append(append(g.legs, g.fees...), g.fx...) {
				b.warn(r.line, "trade", "order "+first.order+" both buys and sells", "add its ledger lines by hand")
			}
			return
		}
		qty, cash = qty.Add(l.qty), cash.Add(l.amt)
		samePrice = samePrice && l.price.Equal(first.price) && l.ccy == first.ccy
	}
	tk := ticker(first.isin, first.product)
	tx := model.Transaction{Date: first.date, Ticker: tk, ISIN: first.isin, Name: first.product, BrokerRef: first.order, Action: model.Sell, Quantity: num(qty)}
	if first.buy {
		tx.Action = model.Buy
	}
	fees := map[string]decimal.Decimal{}
	var feeCcys []string
	for _, f := range g.fees {
		if _, ok := fees[f.ccy]; !ok {
			feeCcys = append(feeCcys, f.ccy)
		}
		fees[f.ccy] = fees[f.ccy].Add(f.amt.Abs())
	}
	var base decimal.Decimal
	for _, x := range g.fx {
		if x.ccy == model.GBP && first.ccy != model.GBP {
			base = base.Add(x.amt)
		}
	}
	cash = cash.Abs()
	switch {
	case !base.IsZero():
		// The sterling that paid for (or came from) the trade, converted by DEGIRO.
		tx.Total = amount(base.Abs(), model.GBP)
	case first.ccy == model.GBP || !samePrice || !qty.Mul(first.price).Equal(cash):
		tx.Total = amount(cash, first.ccy)
	default:
		tx.Price = amount(first.price, first.ccy)
	}
	if tx.Total.IsZero() && tx.Price.IsZero() {
		for _, r := range append(append(g.legs, g.fees...), g.fx...) {
			b.warn(r.line, "trade", "order "+first.order+" of "+tk+" without an amount", "add the "+string(tx.Action)+" line by hand")
		}
		return
	}
	if len(feeCcys) > 0 {
		tx.Fees = amount(fees[feeCcys[0]], feeCcys[0])
		if len(feeCcys) > 1 {
			b.warnf("%s row %d: order %s has fees in %s; only the %s ones are on its %s line: add the others by hand",
				b.imp.Report.File, first.line, first.order, strings.Join(feeCcys, " and "), feeCcys[0], tx.Action)
		}
	}
	b.add(first.line, tx)
	for _, r := range append(append(g.legs[1:], g.fees...), g.fx...) {
		b.fold(r.line)
	}
}

func degiroCashRow(b *batch, r *dgRow, changes map[model.Date][]*dgRow) {
	low := strings.ToLower(r.desc)
	tk := ticker(r.isin, r.product)
	key := r.isin + "|" + r.date.String()
	switch r.kind {
	case dgTrade:
		action := model.Sell
		if r.buy {
			action = model.Buy
		}
		if !r.hasAmt || r.amt.IsZero() || r.qty.Sign() <= 0 {
			b.warn(r.line, "trade", fmt.Sprintf("%q of %s without an amount", r.desc, tk), "add the "+string(action)+" line by hand")
			return
		}
		b.add(r.line, model.Transaction{Date: r.date, Ticker: tk, ISIN: r.isin, Name: r.product, Quantity: num(r.qty), Action: action,
			Total: amount(r.amt.Abs(), r.ccy)})
		b.warnf("%s row %d: %q has no order id to join its fees to: add them to the FEES of its %s line by hand", b.imp.Report.File, r.line, r.desc, action)
	case dgProductChange:
		for _, o := range changes[r.date] {
			if o.isin != r.isin && o.buy != r.buy && r.buy {
				b.warn(r.line, "corporate_action", fmt.Sprintf("product change from %s to %s", o.isin, r.isin),
					fmt.Sprintf("add an ALIAS line joining %s and %s (one holding under a new ISIN)", o.isin, r.isin))
				return
			}
		}
		b.skip(r.line, "corporate_action", "product change: the same holding moved to a new product line, nothing bought or sold")
	case dgCorporate:
		b.warn(r.line, "corporate_action", fmt.Sprintf("%q of %s: a corporate action the statement does not describe fully", clip(r.desc, 80), tk),
			"add the line that fits (a stock dividend is a BUY at its market value, a conversion a TAKEOVER or a SELL and BUY)")
	case dgFee:
		if r.order != "" {
			b.warn(r.line, "fee", fmt.Sprintf("fee %s %s of order %s, whose trade is not in this file", r.amt.Abs(), r.ccy, r.order),
				"add it to the FEES of that trade")
			return
		}
		b.skip(r.line, "fee", r.desc+": an account fee, not a cost of a trade")
	case dgFX:
		b.skip(r.line, "fx_conversion", r.desc+": currency converted between cash balances")
	case dgDivTax:
		b.withhold(r.line, key, amount(r.amt, r.ccy), r.desc)
	case dgDividend:
		if !r.hasAmt || r.amt.Sign() <= 0 || r.isin == "" {
			b.warn(r.line, "dividend", fmt.Sprintf("%s of %s without a positive amount (a reversal?)", r.desc, tk), "correct the DIVIDEND lines by hand")
			return
		}
		b.dividend(r.line, key, model.Transaction{Date: r.date, Action: model.Dividend, Ticker: tk, ISIN: r.isin, Name: r.product, Total: amount(r.amt, r.ccy)})
	default:
		switch {
		case hasWord(low, "interest", "rente", "zinsen", "interés", "juros", "intérêt", "interessi"):
			b.skip(r.line, "interest", r.desc+": interest is income, not a capital transaction")
		case hasWord(low, "sweep", "overboeking", "transfer", "geldrekening", "reservation", "reserv"):
			b.skip(r.line, "transfer", r.desc+": cash moved between your DEGIRO account and its bank account")
		case hasWord(low, "terugstorting", "withdrawal", "auszahlung", "retirada", "levantamento", "prelievo", "retrait"):
			b.skip(r.line, "withdrawal", r.desc+": cash paid out")
		case hasWord(low, "deposit", "storting", "ingreso", "einzahlung", "depósito", "dépôt", "versamento", "ideal", "sofort"):
			b.skip(r.line, "deposit", r.desc+": cash paid in")
		case r.isin != "" && r.isin != "NLFLATEXACNT":
			b.warn(r.line, "unknown", fmt.Sprintf("%q of %s is not a row cgt knows", clip(r.desc, 60), tk),
				"if it changed the holding or its cost (a corporate action, a return of capital), add the ledger line by hand")
		default:
			b.skip(r.line, "cash", r.desc+": a cash movement without a security")
		}
	}
}
