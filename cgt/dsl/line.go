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
	}
	if err != nil {
		return false, err
	}
	return true, p.end()
}

// trade reads "QTY @ PRICE [CCY] [FEES AMOUNT [CCY]]".
func (p *parser) trade(t *model.Transaction) (err *model.Error) {
	if t.Quantity, err = p.number("quantity", positive); err != nil {
		return err
	}
	if err = p.keyword("@", "quantity", "write QUANTITY @ PRICE: '@' separates the number of shares from the price per share"); err != nil {
		return err
	}
	if t.Price, err = p.amount("price", priceRule(t.Action)); err != nil {
		return err
	}
	t.Fees, err = p.optionalAmount("FEES", "fees", "price", t.Price.Currency)
	return err
}

// dividend reads "TOTAL VALUE [CCY] [TAX AMOUNT [CCY]]".
func (p *parser) dividend(t *model.Transaction) (err *model.Error) {
	if err = p.keyword("TOTAL", "the ticker", "a DIVIDEND line has no quantity: write DIVIDEND TICKER TOTAL AMOUNT [CCY]"); err != nil {
		return err
	}
	if t.Total, err = p.amount("total", positive); err != nil {
		return err
	}
	t.Tax, err = p.optionalAmount("TAX", "tax", "total", t.Total.Currency)
	return err
}

// accumulation reads "QTY TOTAL VALUE [CCY] [TAX AMOUNT [CCY]]".
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
	t.Tax, err = p.optionalAmount("TAX", "tax", "total", t.Total.Currency)
	return err
}

// capReturn reads "QTY TOTAL VALUE [CCY] [FEES AMOUNT [CCY]]".
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
	t.Fees, err = p.optionalAmount("FEES", "fees", "total", t.Total.Currency)
	return err
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
	t.Ratio, err = p.number("ratio", rule)
	return err
}

// end checks that nothing but a comment follows the last field.
func (p *parser) end() *model.Error {
	tok, err := p.next()
	if err != nil || tok.empty() {
		return err
	}
	return p.fail(model.CodeParse, tok.off, string(tok.text),
		fmt.Sprintf("unexpected %s at the end of a %s line", found(tok), p.action),
		"remove it, or start a comment with '#'")
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

// lookupAction matches a kind keyword in any case without allocating.
func lookupAction(b []byte) (model.Action, bool) {
	var a model.Action
	switch len(b) {
	case 3:
		a = model.Buy
	case 4:
		a = model.Sell
	case 5:
		a = model.Split
	case 7:
		a = model.Unsplit
	case 8:
		a = model.Dividend
	case 9:
		a = model.CapReturn
	case 12:
		a = model.Accumulation
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
	tok, err := p.next()
	if err != nil {
		return "", err
	}
	if tok.empty() || tok.text[0] == '@' {
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
		if field == "ratio" {
			reason = "a ratio is one number, not a pair"
			hint = "write the ratio as one number: a 2-for-1 split is RATIO 2, a 1-for-5 consolidation is UNSPLIT ... RATIO 5"
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
	if !looksLikeCurrency(tok.text) {
		p.pos = save
		return model.Amount{Value: v, Currency: model.GBP}, nil
	}
	code, ok := lookupCurrency(tok.text)
	if !ok {
		return model.Amount{}, p.unknownCurrency(tok)
	}
	return model.Amount{Value: v, Currency: code}, nil
}

// looksLikeCurrency is true for three letters other than the keyword TAX.
func looksLikeCurrency(b []byte) bool {
	if len(b) != 3 || equalFold(b, "TAX") {
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
	hint := "write an ISO 4217 currency code such as GBP, USD or EUR after the amount, or none for GBP"
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
	other := map[string]string{"FEES": "TAX", "TAX": "FEES"}[keyword]
	if equalFold(tok.text, other) {
		return model.Amount{}, p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("a %s line takes %s, not %s", p.action, keyword, strings.ToUpper(string(tok.text))),
			fmt.Sprintf("write %s AMOUNT [CCY] after the %s", keyword, after))
	}
	return model.Amount{}, p.fail(model.CodeParse, tok.off, string(tok.text),
		fmt.Sprintf("expected a currency, %s or end of line after the %s, found %s", keyword, after, found(tok)),
		fmt.Sprintf("only an ISO 4217 currency code and then %s AMOUNT [CCY] may follow the %s; start a comment with '#'", keyword, after))
}
