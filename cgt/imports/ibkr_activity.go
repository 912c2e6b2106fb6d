package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// IBKRActivity reads the Interactive Brokers Activity Statement CSV: every line starts with
// its section name (Trades, Dividends, Withholding Tax, Corporate Actions, Deposits &
// Withdrawals, Interest, Fees...) and Header, Data, SubTotal or Total. Amounts stay in each
// trade's currency; HMRC's monthly rates convert them.
var IBKRActivity = &Importer{
	Name:      "ibkr-activity",
	Title:     "Interactive Brokers Activity Statement CSV",
	Broker:    "IBKR Activity Statement",
	Page:      "ibkr-activity",
	Signature: `lines starting "Statement,Header,Field Name,Field Value" and "Statement,Data,Title,Activity Statement" (or a "Trades,Header," line)`,
	Detect: func(c *Content) bool {
		if ibkrSectionLine(c, "Transaction History", "Header") {
			return false
		}
		return ibkrSectionLine(c, "Trades", "Header") || ibkrSectionLine(c, "Statement", "Header") &&
			(c.HasLine("Statement,Data,Title,Activity") || ibkrSectionLine(c, "Account Information", "Header"))
	},
	Read: readIBKRActivity,
}

type ibkrInstrument struct{ isin, name string }

// ibkrTradeRef locates an imported trade, for the stamp duty of the Transaction Fees section.
type ibkrTradeRef struct {
	index int
	ccy   string
}

func readIBKRActivity(file string, src []byte) (*Import, error) {
	lines, err := readIBKRStatement(file, src)
	if err != nil {
		return nil, err
	}
	b := newBatch(file, "ibkr-activity")
	b.settleSlashOrder(statementDates(lines), statementSlashes)
	t := &table{file: file, b: b}
	instruments, account := ibkrInstruments(t, lines)
	b.imp.Report.Account = account
	a := &ibkrActivity{t: t, b: b, instruments: instruments, trades: map[string]ibkrTradeRef{}, splits: map[string]bool{}, account: account}
	in := ""
	hasOrders := false
	var fees []ibkrLine // Transaction Fees rows, matched once every trade is read
	unknown := map[string]bool{}
	for i, l := range lines {
		switch {
		case strings.EqualFold(l.kind, "Header"):
			in = l.section
			t.section(l)
			if err := a.columns(in); err != nil {
				return nil, err
			}
			if strings.EqualFold(in, "Trades") {
				hasOrders = ibkrBlockHasOrders(lines[i+1:])
			}
			continue
		case !strings.EqualFold(l.kind, "Data") || ibkrIsTotal(l):
			continue // subtotals, totals and notes are not rows
		case ibkrInfoSection(l.section):
			continue // statement information and summaries: not rows
		case !strings.EqualFold(l.section, in):
			return nil, &model.Error{Code: model.CodeParse, File: file, Line: l.line, Value: l.section,
				Message: fmt.Sprintf("%s row %d of section %q comes before that section's Header line", file, l.line, l.section),
				Hint:    "Download the statement again without editing it: each section starts with its Header line."}
		}
		if !t.use(l) {
			return nil, t.err
		}
		sec := strings.ToLower(l.section)
		switch sec {
		case "trades":
			a.trade(hasOrders)
		case "transaction fees":
			b.unseen() // counted when matched, below
			fees = append(fees, l)
		case "dividends", "payment in lieu of dividends":
			a.dividend()
		case "withholding tax":
			a.withholding()
		case "corporate actions":
			a.corporate()
		case "deposits & withdrawals":
			amt := t.ibkrDec(t.col("Amount"))
			kind := "deposit"
			if amt.Sign() < 0 {
				kind = "withdrawal"
			}
			b.skip(l.line, kind, t.str(t.col("Description")))
		case "interest", "broker interest paid", "broker interest received", "bond interest":
			b.skip(l.line, "interest", l.section+": "+t.str(t.col("Description"))+" (interest is income, not a capital transaction)")
		case "fees", "other fees", "commission adjustments", "commission credits", "sales tax details", "advisor fees":
			b.skip(l.line, "fee", l.section+": "+t.str(t.col("Description"))+" (an account fee, not a cost of a trade)")
		case "transfers":
			a.transfer()
		default:
			b.skip(l.line, "unsupported", fmt.Sprintf("a row of the %q section, which cgt does not read", l.section))
			if !unknown[sec] {
				unknown[sec] = true
				b.warnf("%s row %d: section %q is not one cgt reads; if its rows moved shares, add their ledger lines by hand", file, l.line, l.section)
			}
		}
		if t.settle(); t.err != nil {
			return nil, t.err
		}
	}
	for _, l := range fees {
		if a.stampDuty(l); t.err != nil {
			return nil, t.err
		}
	}
	return b.done(), nil
}

type ibkrActivity struct {
	t           *table
	b           *batch
	instruments map[string]ibkrInstrument
	trades      map[string]ibkrTradeRef // symbol|Date/Time and symbol|date -> trade
	splits      map[string]bool
	account     string
	feeHeader   []string // the Transaction Fees header, for its rows read at the end
}

// columns checks a section header for the columns its rows need.
func (a *ibkrActivity) columns(section string) error {
	var need []string
	switch strings.ToLower(section) {
	case "trades":
		need = []string{"Asset Category", "Currency", "Symbol", "Date/Time", "Quantity"}
	case "dividends", "payment in lieu of dividends", "withholding tax":
		need = []string{"Currency", "Date", "Description", "Amount"}
	case "corporate actions":
		need = []string{"Description"}
	case "transaction fees":
		need = []string{"Currency", "Symbol", "Amount"}
		a.feeHeader = append([]string(nil), a.t.header...)
	}
	for _, n := range need {
		if _, err := a.t.need(n); err != nil {
			return err
		}
	}
	return nil
}

// ibkrInstruments reads the Financial Instrument Information section (symbol -> ISIN and
// name) and the account number, before the rows that use them.
func ibkrInstruments(t *table, lines []ibkrLine) (map[string]ibkrInstrument, string) {
	out := map[string]ibkrInstrument{}
	account := ""
	sym, id, desc := -1, -1, -1
	for _, l := range lines {
		switch {
		case strings.EqualFold(l.section, "Account Information") && strings.EqualFold(l.kind, "Data") && len(l.fields) >= 2 &&
			strings.EqualFold(l.fields[0], "Account") && account == "":
			account = l.fields[1]
		case !strings.EqualFold(l.section, "Financial Instrument Information"):
		case strings.EqualFold(l.kind, "Header"):
			t.setHeader(l.fields)
			sym, id, desc = t.col("Symbol"), t.col("Security ID", "ISIN"), t.col("Description")
		case strings.EqualFold(l.kind, "Data") && sym >= 0 && sym < len(l.fields):
			inst := ibkrInstrument{}
			if id >= 0 && id < len(l.fields) && len(l.fields[id]) == 12 {
				inst.isin = l.fields[id]
			}
			if desc >= 0 && desc < len(l.fields) {
				inst.name = l.fields[desc]
			}
			for _, s := range strings.Split(l.fields[sym], ",") {
				if tk := ticker(s, ""); tk != "" {
					out[tk] = inst
				}
			}
		}
	}
	return out, account
}

// ibkrBlockHasOrders reports whether the Trades rows under a header include Order rows: then
// the Trade rows beside them are its executions, already counted in the order.
func ibkrBlockHasOrders(lines []ibkrLine) bool {
	for _, l := range lines {
		if !strings.EqualFold(l.section, "Trades") {
			continue
		}
		if strings.EqualFold(l.kind, "Header") {
			return false
		}
		if strings.EqualFold(l.kind, "Data") && len(l.fields) > 0 && strings.EqualFold(l.fields[0], "Order") {
			return true
		}
	}
	return false
}

func (a *ibkrActivity) trade(hasOrders bool) {
	t, b := a.t, a.b
	row := t.line
	disc := strings.ToLower(t.str(t.col("DataDiscriminator")))
	switch {
	case disc == "closedlot":
		b.skip(row, "closed_lot", "the lot Interactive Brokers matched to a sale (its own FIFO matching), not a trade; cgt identifies the shares sold by the UK rules")
		return
	case disc == "trade" && hasOrders:
		b.skip(row, "execution", "an execution of an order whose Order row is the trade")
		return
	case disc != "" && disc != "order" && disc != "trade":
		b.skip(row, "summary", fmt.Sprintf("a %s line of the Trades section, not a trade", t.str(t.col("DataDiscriminator"))))
		return
	}
	asset := t.str(t.col("Asset Category"))
	sym := t.str(t.col("Symbol"))
	if asset == "" && currencyPair(sym) {
		asset = "Forex"
	}
	switch strings.ToLower(asset) {
	case "forex":
		b.skip(row, "fx_conversion", "currency conversion "+sym+": not a share transaction")
		return
	case "stocks", "funds", "mutual funds", "etfs", "":
	default:
		b.warn(row, "unsupported", fmt.Sprintf("%s trade in %s is not calculated", asset, sym),
			"work out gains on options, futures and other derivatives separately; add bonds as BUY/SELL lines if they are chargeable")
		return
	}
	dt := t.str(t.col("Date/Time"))
	date := t.ibkrDateIn(t.col("Date/Time"))
	ccy, pence := t.currency(t.col("Currency"))
	qty := t.ibkrDec(t.col("Quantity"))
	price := t.ibkrDec(t.col("T. Price", "Price", "Trade Price")).Abs()
	proceeds, hasProceeds := t.ibkrDecOK(t.col("Proceeds"))
	comm := t.ibkrDec(t.col("Comm/Fee", "Comm/Fees", "Commission")).Abs()
	code := t.str(t.col("Code"))
	if t.err != nil {
		return
	}
	if pence {
		price, proceeds, comm = pounds(price), pounds(proceeds), pounds(comm)
	}
	tk := ticker(sym, "")
	if ibkrCodeHas(code, "Ca") {
		b.warn(row, "cancelled", fmt.Sprintf("trade in %s marked cancelled (code %s)", tk, code),
			"check the statement: if the trade stood, add its BUY or SELL line by hand")
		return
	}
	action := model.Buy
	if qty.Sign() < 0 || (qty.IsZero() && proceeds.Sign() > 0) {
		action = model.Sell
	}
	qty = qty.Abs()
	if tk == "" || qty.IsZero() {
		b.warn(row, "trade", "trade without a symbol or quantity", "add the BUY or SELL line by hand")
		return
	}
	inst := a.instruments[tk]
	tx := model.Transaction{Date: date, Action: action, Ticker: tk, Quantity: num(qty), Fees: amount(comm, ccy),
		ISIN: inst.isin, Name: inst.name, Account: a.account}
	// Proceeds are the consideration in the trade currency. Where the average price (rounded
	// by IBKR) times the quantity comes to them exactly, the line keeps the price.
	cash := proceeds.Abs()
	switch {
	case hasProceeds && cash.Sign() > 0 && !qty.Mul(price).Equal(cash):
		tx.Total = amount(cash, ccy)
	case price.Sign() > 0:
		tx.Price = amount(price, ccy)
	default:
		b.warn(row, "trade", fmt.Sprintf("%s of %s without a price or proceeds", strings.ToLower(string(action)), tk), "add the "+string(action)+" line by hand")
		return
	}
	b.add(row, tx)
	ref := ibkrTradeRef{index: len(b.imp.Transactions) - 1, ccy: ccy}
	for _, k := range []string{tk + "|" + dt, tk + "|" + date.String()} {
		if _, ok := a.trades[k]; !ok {
			a.trades[k] = ref
		}
	}
}

// ibkrCodeHas reports whether a Code cell ("C;P", "O;Ca") holds the code.
func ibkrCodeHas(cell, code string) bool {
	for _, c := range strings.FieldsFunc(cell, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
		if c == code {
			return true
		}
	}
	return false
}

// stampDuty folds a Transaction Fees row (UK stamp tax, French FTT...) into its trade's fees:
// the trade of the same symbol at the same time, or else on the same date.
func (a *ibkrActivity) stampDuty(l ibkrLine) {
	t, b := a.t, a.b
	t.setHeader(a.feeHeader)
	t.needed = 0
	if !t.use(l) {
		return
	}
	row := t.line
	tk := ticker(t.str(t.col("Symbol")), "")
	dt := t.str(t.col("Date/Time"))
	date := t.ibkrDateIn(t.col("Trade Date", "Date/Time", "Date"))
	ccy, pence := t.currency(t.col("Currency"))
	amt := t.ibkrDec(t.col("Amount")).Abs()
	desc := t.str(t.col("Description"))
	if t.err != nil {
		return
	}
	if pence {
		amt = pounds(amt)
	}
	ref, ok := a.trades[tk+"|"+dt]
	if !ok {
		ref, ok = a.trades[tk+"|"+date.String()]
	}
	if !ok || ref.ccy != ccy {
		b.warn(row, "fee", fmt.Sprintf("%s of %s %s on %s %s has no trade in this statement to belong to", desc, amt, ccy, tk, date),
			"add it to the FEES of its BUY or SELL line by hand (it is an allowable cost)")
		return
	}
	tx := &b.imp.Transactions[ref.index]
	tx.Fees = amount(tx.Fees.Value.Exact().Add(amt), ccy)
	b.fold(row)
}

func (a *ibkrActivity) dividend() {
	t, b := a.t, a.b
	row := t.line
	date := t.ibkrDateIn(t.col("Date"))
	ccy, pence := t.currency(t.col("Currency"))
	amt := t.ibkrDec(t.col("Amount"))
	desc := t.str(t.col("Description"))
	if t.err != nil {
		return
	}
	if pence {
		amt = pounds(amt)
	}
	sym, isin := ibkrDescISIN(desc)
	tk := ticker(sym, isin)
	if isin == "" {
		isin = a.instruments[tk].isin
	}
	switch {
	case strings.Contains(strings.ToLower(desc), "return of capital"):
		b.warn(row, "capital_return", "return of capital on "+tk+" ("+desc+") reduces the cost of the holding", "add a CAPRETURN line with the amount returned")
	case amt.Sign() <= 0:
		b.skip(row, "dividend_reversal", "a reversed or negative dividend: "+desc+" (income, not a CGT figure)")
	case tk == "":
		b.warn(row, "dividend", "dividend without a symbol in its description ("+desc+")", "add a DIVIDEND line by hand")
	default:
		b.dividend(row, tk+"|"+date.String(), model.Transaction{Date: date, Action: model.Dividend, Ticker: tk,
			Total: amount(amt, ccy), ISIN: isin, Name: desc, Account: a.account})
	}
}

func (a *ibkrActivity) withholding() {
	t, b := a.t, a.b
	date := t.ibkrDateIn(t.col("Date"))
	ccy, pence := t.currency(t.col("Currency"))
	amt := t.ibkrDec(t.col("Amount"))
	desc := t.str(t.col("Description"))
	if t.err != nil {
		return
	}
	if pence {
		amt = pounds(amt)
	}
	sym, isin := ibkrDescISIN(desc)
	b.withhold(t.line, ticker(sym, isin)+"|"+date.String(), amount(amt, ccy), "withholding tax ("+desc+")")
}

func (a *ibkrActivity) corporate() {
	t, b := a.t, a.b
	row := t.line
	desc := t.str(t.col("Description"))
	c := t.col("Date/Time")
	if t.str(c) == "" {
		c = t.col("Report Date", "Date")
	}
	date := t.ibkrDateIn(c)
	if t.err != nil {
		return
	}
	sym, isin := ibkrDescISIN(desc)
	tk := ticker(sym, isin)
	if strings.Contains(strings.ToLower(desc), "split") {
		newS, oldS, ok := splitRatio(desc)
		if ok && (tooManyDigits(newS) || tooManyDigits(oldS)) {
			ok = false // no real split has a ratio of that many digits
		}
		if !ok || tk == "" {
			b.warn(row, "split", "split of "+tk+" ("+clip(desc, 200)+") without a ratio in its description", "add a SPLIT (or UNSPLIT) line with the ratio")
			return
		}
		// A reverse split is written as two rows (the old line removed, the new one added):
		// one SPLIT.
		key := tk + "|" + date.String()
		if a.splits[key] {
			b.fold(row)
			return
		}
		a.splits[key] = true
		newN, _ := decimal.NewFromString(newS)
		oldN, _ := decimal.NewFromString(oldS)
		addSplit(b, row, date, tk, oldN, newN)
		return
	}
	b.warn(row, "corporate_action", fmt.Sprintf("corporate action on %s (%s) is not converted", tk, desc),
		"add the ledger line that fits (TAKEOVER, DEMERGER, RIGHTS, a BUY for a stock dividend at its value)")
}

func (a *ibkrActivity) transfer() {
	t, b := a.t, a.b
	row := t.line
	tk := ticker(t.str(t.col("Symbol")), "")
	dir := strings.ToLower(t.str(t.col("Direction", "Type")))
	qty := t.ibkrDec(t.col("Qty", "Quantity"))
	if t.err != nil {
		return
	}
	if strings.Contains(dir, "out") || qty.Sign() < 0 {
		b.skip(row, "transfer", "shares of "+tk+" moved to another account: not a disposal (the pool is per person)")
		return
	}
	b.warn(row, "transfer", fmt.Sprintf("transfer in of %s %s has no cost in the statement", qty.Abs(), tk),
		"if the shares came from another of your accounts they are already in your ledger; otherwise add a BUY (or POOL) line with their cost")
}
