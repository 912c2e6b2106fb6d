package dsl

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/model"
)

// parseLine reads one line into t. It reports false for a blank or comment-only line.
func (p *parser) parseLine(t *model.Transaction) (bool, *model.Error) {
	first, err := p.next()
	if err != nil || first.empty() {
		return false, err
	}
	if equalFold(first.text, includeKeyword) {
		e := p.fail(model.CodeParse, first.off, "", "an INCLUDE line is read only by the commands that read ledgers (SplitIncludes), not here",
			"give the ledger to a command such as report.calculate, or name the file itself")
		e.Examples = []string{IncludeExample}
		return false, e
	}
	date, err := p.date(first)
	if err != nil {
		return false, err
	}
	action, err := p.kind()
	if err != nil {
		return false, err
	}
	ticker, err := p.tickerField()
	if err != nil {
		return false, err
	}
	t.Date, t.Action, t.Ticker = date, action, ticker
	t.Source = model.Source{File: p.file, Line: p.lineNo, Index: -1}
	switch action {
	case model.Buy, model.Sell:
		err = p.trade(t)
	case model.Dividend:
		err = p.dividend(t)
	case model.Accumulation:
		err = p.accumulation(t)
	case model.CapReturn:
		err = p.capReturn(t)
	case model.Split, model.Unsplit:
		err = p.split(t)
	default:
		err = p.event(t)
	}
	if err != nil {
		return false, err
	}
	return true, p.end(t)
}

// trade reads "QTY @ PRICE [CCY] [FEES AMOUNT [CCY]]" or, in the total form,
// "QTY TOTAL AMOUNT [CCY] [FEES AMOUNT [CCY]]" (the whole consideration; Price stays zero
// with no currency).
func (p *parser) trade(t *model.Transaction) (err *model.Error) {
	if t.Quantity, err = p.number("quantity", positive); err != nil {
		return err
	}
	tok, err := p.next()
	if err != nil {
		return err
	}
	if len(tok.text) == 1 && tok.text[0] == '@' {
		if t.Price, err = p.amount("price", priceRule(t.Action)); err != nil {
			return err
		}
		t.NoCurrency = p.noCurrency
		t.Fees, err = p.optionalAmount("FEES", "fees", "price", t.Price.Currency)
		return err
	}
	if !equalFold(tok.text, "TOTAL") {
		return p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("expected '@' after quantity, found %s", found(tok)),
			"write QUANTITY @ PRICE: '@' separates the number of shares from the price per share; or QUANTITY TOTAL AMOUNT for the whole consideration")
	}
	if t.Total, err = p.amount("total", priceRule(t.Action)); err != nil {
		return err
	}
	t.NoCurrency = p.noCurrency
	t.Fees, err = p.optionalAmount("FEES", "fees", "total", t.Total.Currency)
	return err
}

// dividend reads "TOTAL AMOUNT [CCY] [TAX AMOUNT [CCY]]".
func (p *parser) dividend(t *model.Transaction) (err *model.Error) {
	if err = p.keyword("TOTAL", "the ticker", "a DIVIDEND line has no quantity: write DIVIDEND TICKER TOTAL AMOUNT [CCY]"); err != nil {
		return err
	}
	if t.Total, err = p.amount("total", positive); err != nil {
		return err
	}
	p.fields(t).Tax, err = p.optionalAmount("TAX", "tax", "total", t.Total.Currency)
	return err
}

// accumulation reads "QTY TOTAL AMOUNT [CCY] [TAX AMOUNT [CCY]]".
func (p *parser) accumulation(t *model.Transaction) (err *model.Error) {
	if t.Quantity, err = p.number("quantity", nonNegative); err != nil {
		return err
	}
	if err = p.keyword("TOTAL", "quantity", "write ACCUMULATION TICKER QUANTITY TOTAL AMOUNT [CCY]"); err != nil {
		return err
	}
	if t.Total, err = p.amount("total", nonNegative); err != nil {
		return err
	}
	p.fields(t).Tax, err = p.optionalAmount("TAX", "tax", "total", t.Total.Currency)
	return err
}

// capReturn reads "QTY TOTAL AMOUNT [CCY] [FEES AMOUNT [CCY]] [VALUE AMOUNT [CCY]]".
func (p *parser) capReturn(t *model.Transaction) (err *model.Error) {
	if t.Quantity, err = p.number("quantity", nonNegative); err != nil {
		return err
	}
	if err = p.keyword("TOTAL", "quantity", "write CAPRETURN TICKER QUANTITY TOTAL AMOUNT [CCY]"); err != nil {
		return err
	}
	if t.Total, err = p.amount("total", positive); err != nil {
		return err
	}
	t.Fees = model.Amount{Currency: t.Total.Currency}
	return p.extras("total",
		extra{keyword: "FEES", field: "fees", rule: nonNegative, dst: &t.Fees},
		extra{keyword: "VALUE", field: "value", rule: positive, dst: &p.fields(t).Value})
}

// split reads "RATIO R" for SPLIT and UNSPLIT.
func (p *parser) split(t *model.Transaction) (err *model.Error) {
	if err = p.keyword("RATIO", "the ticker", "write SPLIT TICKER RATIO R, or UNSPLIT TICKER RATIO R for a consolidation"); err != nil {
		return err
	}
	rule := ratioRule
	if t.Action == model.Unsplit {
		rule = wholeRatio
	}
	p.fields(t).Ratio, err = p.number("ratio", rule)
	return err
}

// end reads the labels that may follow the last field (see labels.go) and checks that nothing
// but a comment follows them.
func (p *parser) end(t *model.Transaction) *model.Error {
	tok, err := p.next()
	if err != nil || tok.empty() {
		return err
	}
	return p.labels(t, tok)
}

// date reads the date that starts every line.
func (p *parser) date(tok token) (model.Date, *model.Error) {
	if len(tok.text) == len(p.lastDateText) && string(tok.text) == string(p.lastDateText[:]) {
		return p.lastDate, nil
	}
	d, problem := parseDate(tok.text)
	if problem == dateOK {
		copy(p.lastDateText[:], tok.text)
		p.lastDate = d
	}
	switch problem {
	case dateOK:
		return d, nil
	case dateNotReal:
		return 0, p.fail(model.CodeValidation, tok.off, string(tok.text),
			fmt.Sprintf("date %q is not a real calendar date", tok.text), notRealHint(tok.text))
	}
	if a, ok := lookupAction(tok.text); ok {
		p.action = a
		return 0, p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("the line starts with %s instead of a date", found(tok)),
			"begin every line with the date of the transaction, written YYYY-MM-DD")
	}
	return 0, p.fail(model.CodeParse, tok.off, string(tok.text),
		fmt.Sprintf("expected a date YYYY-MM-DD at the start of the line, found %s", found(tok)),
		"write dates as YYYY-MM-DD (2024-06-20 for 20 June 2024)")
}

func notRealHint(b []byte) string {
	y, _ := digits(b[0:4])
	m, _ := digits(b[5:7])
	if n := daysInMonth(y, m); n > 0 {
		return fmt.Sprintf("%s-%s has %d days; check the day", b[0:4], b[5:7], n)
	}
	return "months run from 01 to 12; write dates as YYYY-MM-DD"
}

// kind reads the transaction kind after the date.
func (p *parser) kind() (model.Action, *model.Error) {
	tok, err := p.next()
	if err != nil {
		return "", err
	}
	if a, ok := lookupAction(tok.text); ok {
		p.action = a
		return a, nil
	}
	if tok.empty() {
		return "", p.fail(model.CodeParse, tok.off, "",
			"expected a transaction kind after the date, found end of line",
			"write one of "+actionList()+" after the date")
	}
	return "", p.unknownKind(tok)
}

func (p *parser) unknownKind(tok token) *model.Error {
	word := string(tok.text)
	if after := p.peek(); !after.empty() {
		if a, ok := lookupAction(after.text); ok {
			p.action = a
			return p.fail(model.CodeParse, tok.off, word,
				fmt.Sprintf("unknown transaction kind %s (the kind %s follows it)", found(tok), a),
				"the kind comes before the ticker: DATE KIND TICKER ...")
		}
	}
	hint := "the kinds are " + actionList()
	if s := suggestAction(word); s != "" {
		p.action = s
		hint = "did you mean " + string(s) + "? " + hint
	}
	return p.fail(model.CodeParse, tok.off, word, "unknown transaction kind "+found(tok), hint)
}

// lookupAction matches a kind keyword in any case without allocating: the length and the
// first letters pick the one candidate, which is then compared.
func lookupAction(b []byte) (model.Action, bool) {
	if len(b) < 3 {
		return "", false
	}
	var a model.Action
	first := b[0] | 0x20
	switch len(b) {
	case 3:
		a = model.Buy
		if first == 'e' {
			a = model.ERI
		}
	case 4:
		a = model.Sell
		switch first {
		case 'p':
			a = model.Pool
		case 'i':
			a = model.ISINDecl
		}
	case 5:
		a = model.Split
		if first == 'a' {
			a = model.Alias
		}
	case 6:
		a = model.Rights
		if first == 'e' {
			a = model.Exempt
		}
	case 7:
		a = model.Unsplit
		if first == 'a' {
			a = model.AccountDecl
		}
	case 8:
		switch {
		case first == 's':
			a = model.SpouseIn
		case first == 't':
			a = model.Takeover
		case b[1]|0x20 == 'e':
			a = model.Demerger
		default:
			a = model.Dividend
		}
	case 9:
		a = model.CapReturn
		if first == 's' {
			a = model.SpouseOut
		}
	case 10:
		a = model.Negligible
	case 12:
		a = model.Accumulation
		if first == 'n' {
			a = model.NonReporting
		}
	default:
		return "", false
	}
	return a, equalFold(b, string(a))
}

// equalFold compares a token with an upper-case ASCII keyword, ignoring case. Setting bit
// 0x20 maps upper to lower case letters and maps no other byte onto a letter, so the
// comparison is exact for keywords made of letters and for '@'.
func equalFold(b []byte, keyword string) bool {
	if len(b) != len(keyword) {
		return false
	}
	for i := range len(b) {
		if b[i]|0x20 != keyword[i]|0x20 {
			return false
		}
	}
	return true
}

// tickerField reads and upper-cases the ticker.
func (p *parser) tickerField() (string, *model.Error) {
	if p.action == model.AccountDecl {
		return p.declaredAccount()
	}
	tok, err := p.next()
	if err != nil {
		return "", err
	}
	if tok.empty() || tok.text[0] == '@' {
		if p.action == model.AccountDecl {
			return "", p.fail(model.CodeParse, tok.off, string(tok.text),
				fmt.Sprintf("expected an account label after ACCOUNT, found %s", found(tok)),
				"write ACCOUNT LABEL TYPE: a label of your choice (such as T212-ISA) and then the type (ISA, LISA, JISA, SIPP or GIA)")
		}
		return "", p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("expected a ticker after %s, found %s", p.action, found(tok)),
			"write the ticker (such as AAPL, VOD.L or an ISIN) after the kind")
	}
	s, bad := p.intern(tok.text)
	if bad >= 0 {
		return "", p.badTicker(tok, bad)
	}
	p.ticker = s
	return s, nil
}

// declaredAccount reads the label an ACCOUNT line declares: a bare label, or one in quotes.
func (p *parser) declaredAccount() (string, *model.Error) {
	tok, quoted, err := p.labelValue()
	if err != nil {
		return "", err
	}
	if quoted {
		s, msg, hint := quotedAccount(tok.text)
		if msg != "" {
			return "", p.fail(model.CodeParse, tok.off, string(tok.text), msg, hint)
		}
		p.ticker = s
		return s, nil
	}
	if tok.empty() || tok.text[0] == '@' {
		return "", p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("expected an account label after ACCOUNT, found %s", found(tok)),
			"write ACCOUNT LABEL TYPE: a label of your choice (such as T212-ISA) and then the type (ISA, LISA, JISA, SIPP or GIA)")
	}
	s, bad := p.intern(tok.text)
	if bad >= 0 {
		msg, hint := accountProblem(tok.text, bad)
		return "", p.fail(model.CodeParse, tok.off+min(bad, len(tok.text)), string(tok.text), msg, hint)
	}
	p.ticker = s
	return s, nil
}

// intern validates and upper-cases a ticker and returns the shared string for it, or the index
// of the first character that is not allowed.
func (p *parser) intern(b []byte) (string, int) {
	var buf [maxTickerLen]byte
	up, bad := upperTicker(b, &buf)
	if bad >= 0 {
		return "", bad
	}
	slot := &p.recent[tickerHash(up)%uint32(len(p.recent))]
	if *slot == string(up) {
		return *slot, -1
	}
	s, ok := p.tickers[string(up)]
	if !ok {
		s = string(up)
		p.tickers[s] = s
	}
	*slot = s
	return s, -1
}

// tickerHash is FNV-1a, enough to spread a ledger's few hundred tickers over the cache slots.
func tickerHash(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// upperTicker checks a ticker and writes its upper-case form into buf. It returns the index of
// the first character not allowed (maxTickerLen when the ticker is too long), or -1.
func upperTicker(b []byte, buf *[maxTickerLen]byte) ([]byte, int) {
	if len(b) > maxTickerLen {
		return nil, maxTickerLen
	}
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			buf[i] = c
		case c >= 'a' && c <= 'z':
			buf[i] = c - ('a' - 'A')
		case (c == '.' || c == '-' || c == ':') && i > 0 && i < len(b)-1:
			buf[i] = c
		default:
			return nil, i
		}
	}
	return buf[:len(b)], -1
}

// tickerProblem explains a rejected ticker for a message and a hint.
func tickerProblem(b []byte, bad int) (msg, hint string) {
	if bad >= maxTickerLen {
		return fmt.Sprintf("ticker %q is longer than %d characters", clip(string(b)), maxTickerLen),
			"use the exchange symbol or the 12-character ISIN as the ticker"
	}
	r, _ := utf8.DecodeRune(b[bad:])
	return fmt.Sprintf("ticker %q contains %q, which is not allowed", clip(string(b)), r),
		"a ticker is letters and digits, with '.', '-' or ':' allowed inside (AAPL, BRK.B, VOD.L, LON:VOD, GB00B41YBW71)"
}

func (p *parser) badTicker(tok token, bad int) *model.Error {
	msg, hint := tickerProblem(tok.text, bad)
	return p.fail(model.CodeParse, tok.off+min(bad, len(tok.text)), string(tok.text), msg, hint)
}

// keyword expects a fixed word (any case) after the field named by after.
func (p *parser) keyword(word, after, hint string) *model.Error {
	tok, err := p.next()
	if err != nil {
		return err
	}
	if equalFold(tok.text, word) {
		return nil
	}
	if p.ticker == word {
		hint = "the ticker seems to be missing: " + hint
	}
	return p.fail(model.CodeParse, tok.off, string(tok.text),
		fmt.Sprintf("expected '%s' after %s, found %s", word, after, found(tok)), hint)
}

// number reads a decimal field and applies its value rule.
func (p *parser) number(field string, rule valueRule) (v model.Decimal, err *model.Error) {
	tok, err := p.next()
	if err != nil {
		return v, err
	}
	if tok.empty() || (field == "quantity" && string(tok.text) == "@") {
		hint := "complete the line as in the example"
		if !tok.empty() {
			hint = "is the ticker or the quantity missing? write TICKER QUANTITY @ PRICE"
		}
		return v, p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("expected the %s, found %s", field, found(tok)), hint)
	}
	v, problem := p.decimal(tok.text)
	if problem != numOK {
		reason, hint := numberAdvice(tok.text, problem)
		switch field {
		case "ratio":
			reason = "a ratio is one number, not a pair"
			hint = "write the ratio as one number: a 2-for-1 split is RATIO 2, a 1-for-5 consolidation is UNSPLIT ... RATIO 5"
		case "fraction":
			hint = "write the fraction as a decimal between 0 and 1: 0.25 for 25%"
		}
		return v, p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("%s %s is not a plain decimal number: %s", field, found(tok), reason), hint)
	}
	if msg, hint := checkValue(field, v, rule, p.action); msg != "" {
		return v, p.fail(model.CodeValidation, tok.off, string(tok.text), msg, hint)
	}
	return v, nil
}

// amount reads "VALUE [CCY]"; the currency defaults to GBP.
func (p *parser) amount(field string, rule valueRule) (model.Amount, *model.Error) {
	v, err := p.number(field, rule)
	if err != nil {
		return model.Amount{}, err
	}
	save := p.pos
	tok, err := p.next()
	if err != nil {
		return model.Amount{}, err
	}
	p.noCurrency = !looksLikeCurrency(tok.text)
	if p.noCurrency {
		p.pos = save
		return model.Amount{Value: v, Currency: model.GBP}, nil
	}
	code, ok := lookupCurrency(tok.text)
	if ok && code == model.GBP && string(tok.text) == "GBp" || !ok && equalFold(tok.text, "GBX") {
		return model.Amount{Value: pence(v), Currency: model.GBP}, nil
	}
	if !ok {
		return model.Amount{}, p.unknownCurrency(tok)
	}
	return model.Amount{Value: v, Currency: code}, nil
}

// looksLikeCurrency is true for three letters other than the keywords TAX and REF.
func looksLikeCurrency(b []byte) bool {
	if len(b) != 3 || equalFold(b, "TAX") || equalFold(b, "REF") {
		return false
	}
	for _, c := range b {
		if c|0x20 < 'a' || c|0x20 > 'z' {
			return false
		}
	}
	return true
}

func (p *parser) unknownCurrency(tok token) *model.Error {
	hint := "write an ISO 4217 currency code such as GBP, USD or EUR after the amount (GBX for pence), or none for GBP"
	if equalFold(tok.text, "FEE") {
		hint = "did you mean FEES? " + hint
	}
	return p.fail(model.CodeValidation, tok.off, string(tok.text),
		fmt.Sprintf("unknown currency %s: not an ISO 4217 code", found(tok)), hint)
}

// optionalAmount reads an optional "KEYWORD AMOUNT [CCY]" (FEES or TAX) at the end of a line.
// When absent the amount is zero in the currency of the line's main amount.
func (p *parser) optionalAmount(keyword, field, after, currency string) (model.Amount, *model.Error) {
	tok, err := p.next()
	if err != nil {
		return model.Amount{}, err
	}
	if tok.empty() {
		return model.Amount{Currency: currency}, nil
	}
	if equalFold(tok.text, keyword) {
		return p.amount(field, nonNegative)
	}
	if isLabel(tok.text) {
		p.pos = tok.off // the labels are read by end
		return model.Amount{Currency: currency}, nil
	}
	return model.Amount{}, p.notOptional(tok, after, keyword)
}

// amountKeywords are the words that introduce an amount on some kind of line.
var amountKeywords = []string{"FEES", "TAX", "CASH", "VALUE", "COST", "TOTAL"}

// notOptional reports a token where only a currency, the optional parts allowed (listed in
// allowed, such as "FEES" or "FEES or VALUE"), labels or the end of the line may be.
func (p *parser) notOptional(tok token, after, allowed string) *model.Error {
	for _, k := range amountKeywords {
		if equalFold(tok.text, k) {
			return p.fail(model.CodeParse, tok.off, string(tok.text),
				fmt.Sprintf("a %s line takes %s, not %s", p.action, allowed, k),
				fmt.Sprintf("write %s AMOUNT [CCY] after the %s", strings.ReplaceAll(allowed, " or ", " AMOUNT [CCY] or "), after))
		}
	}
	hint := fmt.Sprintf("only an ISO 4217 currency code and then %s AMOUNT [CCY] may follow the %s, then the labels ACCOUNT, ISIN and REF; start a comment with '#'", allowed, after)
	if s := suggestLabel(string(tok.text)); s != "" {
		hint = "did you mean " + s + "? " + hint
	}
	return p.fail(model.CodeParse, tok.off, string(tok.text),
		fmt.Sprintf("expected a currency, %s or end of line after the %s, found %s", allowed, after, found(tok)), hint)
}

// extra is an optional "KEYWORD AMOUNT [CCY]" part of a line, read into dst.
type extra struct {
	keyword, field string
	rule           valueRule
	dst            *model.Amount
}

// extras reads a line's optional parts, in any order and each at most once, up to the end of
// the line or its labels. A part left out keeps the value dst already holds.
func (p *parser) extras(after string, parts ...extra) *model.Error {
	seen := 0
	for {
		tok, err := p.next()
		if err != nil || tok.empty() {
			return err
		}
		if isLabel(tok.text) {
			p.pos = tok.off
			return nil
		}
		i := len(parts) - 1
		for i >= 0 && !equalFold(tok.text, parts[i].keyword) {
			i--
		}
		if i < 0 {
			allowed := make([]string, len(parts))
			for k, x := range parts {
				allowed[k] = x.keyword
			}
			return p.notOptional(tok, after, strings.Join(allowed, " or "))
		}
		if seen&(1<<i) != 0 {
			return p.fail(model.CodeParse, tok.off, string(tok.text),
				fmt.Sprintf("%s is given twice on one %s line", parts[i].keyword, p.action),
				fmt.Sprintf("write %s once", parts[i].keyword))
		}
		seen |= 1 << i
		a, err := p.amount(parts[i].field, parts[i].rule)
		if err != nil {
			return err
		}
		*parts[i].dst = a
		after = parts[i].field
	}
}
