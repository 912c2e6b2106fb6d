package dsl

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// accountTypes are the kinds of account an ACCOUNT line may declare: the tax wrappers whose
// transactions are outside CGT, and GIA (a general investment account, taxable).
var accountTypes = []string{"ISA", "LISA", "JISA", "SIPP", "GIA"}

// accountTypeSynonyms are words people write for an account type.
var accountTypeSynonyms = tableMap(accountTypeSynonymRows)

var accountTypeSynonymRows = []row[string, string]{
	{"TAXABLE", "GIA"}, {"DEALING", "GIA"}, {"GENERAL", "GIA"}, {"TRADING", "GIA"}, {"BROKERAGE", "GIA"},
	{"SISA", "ISA"}, {"S&S", "ISA"}, {"STOCKSANDSHARES", "ISA"}, {"PENSION", "SIPP"}, {"SSAS", "SIPP"},
	{"JUNIOR", "JISA"}, {"LIFETIME", "LISA"},
}

// event reads the fields of the corporate-event, opening-holding and declaration lines.
func (p *parser) event(t *model.Transaction) (err *model.Error) {
	switch t.Action {
	case model.SpouseOut:
		t.Quantity, err = p.number("quantity", positive)
	case model.SpouseIn, model.Pool:
		err = p.quantityCost(t)
	case model.Rights:
		err = p.rights(t)
	case model.Takeover:
		err = p.takeover(t)
	case model.Demerger:
		err = p.demerger(t)
	case model.ERI:
		if t.Quantity, err = p.number("quantity", positive); err != nil {
			return err
		}
		if err = p.keyword("TOTAL", "quantity", "write ERI TICKER QUANTITY TOTAL AMOUNT [CCY]: QUANTITY is the units held at the fund's period end"); err != nil {
			return err
		}
		t.Total, err = p.amount("total", positive)
	case model.Negligible:
		err = p.extras("the ticker", extra{keyword: "VALUE", field: "value", rule: nonNegative, dst: &p.fields(t).Value})
	case model.AccountDecl:
		p.fields(t).AccountType, err = p.accountType()
	case model.ISINDecl:
		err = p.declaredISIN(t)
	case model.Alias:
		if p.fields(t).NewTicker, err = p.secondTicker("the other ticker"); err == nil && t.NewTicker() == t.Ticker {
			err = p.fail(model.CodeValidation, 0, "", fmt.Sprintf("ALIAS names %s twice", t.Ticker),
				"write ALIAS TICKER OTHER with the two different tickers of one security (such as ALIAS VOD.L VOD)")
		}
	}
	return err
}

// quantityCost reads "QTY COST AMOUNT [CCY]" (SPOUSEIN, POOL).
func (p *parser) quantityCost(t *model.Transaction) (err *model.Error) {
	if t.Quantity, err = p.number("quantity", positive); err != nil {
		return err
	}
	hint := "write SPOUSEIN TICKER QUANTITY COST AMOUNT [CCY]: the spouse's allowable cost of the shares"
	if t.Action == model.Pool {
		hint = "write POOL TICKER QUANTITY COST AMOUNT [CCY]: the holding's allowable cost"
	}
	if err = p.keyword("COST", "quantity", hint); err != nil {
		return err
	}
	p.fields(t).Cost, err = p.amount("cost", nonNegative)
	return err
}

// rights reads "QTY @ PRICE [CCY] [FEES AMOUNT [CCY]]".
func (p *parser) rights(t *model.Transaction) (err *model.Error) {
	if t.Quantity, err = p.number("quantity", positive); err != nil {
		return err
	}
	if err = p.keyword("@", "quantity", "write RIGHTS TICKER QUANTITY @ PRICE: the new shares taken up and the price paid for each"); err != nil {
		return err
	}
	if t.Price, err = p.amount("price", nonNegative); err != nil {
		return err
	}
	t.Fees, err = p.optionalAmount("FEES", "fees", "price", t.Price.Currency)
	return err
}

// takeover reads "NEW QTY [CASH AMOUNT [CCY]] [VALUE AMOUNT [CCY]]" after the old ticker.
func (p *parser) takeover(t *model.Transaction) (err *model.Error) {
	if p.fields(t).NewTicker, err = p.secondTicker("the new ticker"); err != nil {
		return err
	}
	if t.Quantity, err = p.newShares(t); err != nil {
		return err
	}
	return p.extras("quantity",
		extra{keyword: "CASH", field: "cash", rule: nonNegative, dst: &p.fields(t).Cash},
		extra{keyword: "VALUE", field: "value", rule: positive, dst: &p.fields(t).Value})
}

// demerger reads "NEW QTY COST FRACTION" after the parent's ticker.
func (p *parser) demerger(t *model.Transaction) (err *model.Error) {
	if p.fields(t).NewTicker, err = p.secondTicker("the new ticker"); err != nil {
		return err
	}
	if t.Quantity, err = p.newShares(t); err != nil {
		return err
	}
	if err = p.keyword("COST", "quantity", "write DEMERGER PARENT NEW QUANTITY COST FRACTION: FRACTION is the part of PARENT's cost that moves to NEW"); err != nil {
		return err
	}
	if p.fields(t).Ratio, err = p.number("fraction", fractionRule); err != nil {
		return err
	}
	if tok := p.peek(); looksLikeCurrency(tok.text) {
		return p.fail(model.CodeParse, tok.off, string(tok.text),
			fmt.Sprintf("unexpected %s after the fraction of a DEMERGER line", found(tok)),
			"COST takes a fraction of the parent's cost (0.25 for a quarter), not an amount: remove the currency")
	}
	return nil
}

// newShares reads the quantity of new shares of a TAKEOVER or DEMERGER, noting when the new
// ticker seems to have been left out (the quantity was read as the ticker).
func (p *parser) newShares(t *model.Transaction) (model.Decimal, *model.Error) {
	q, err := p.number("quantity", positive)
	if err != nil && err.Code == model.CodeParse && strings.Trim(t.NewTicker(), "0123456789.") == "" {
		err.Hint = fmt.Sprintf("the new ticker seems to be missing: write %s %s NEW QUANTITY", t.Action, t.Ticker)
	}
	return q, err
}

// secondTicker reads the ticker that follows the first on TAKEOVER, DEMERGER and ALIAS lines.
func (p *parser) secondTicker(what string) (string, *model.Error) {
	tok, err := p.next()
	if err != nil {
		return "", err
	}
	if tok.empty() {
		return "", p.fail(model.CodeParse, tok.off, "",
			fmt.Sprintf("expected %s after %s, found end of line", what, p.ticker),
			"complete the line as in the example")
	}
	s, bad := p.intern(tok.text)
	if bad >= 0 {
		return "", p.badTicker(tok, bad)
	}
	return s, nil
}

// declaredISIN reads the CODE of an ISIN declaration, checked as the ISIN label is.
func (p *parser) declaredISIN(t *model.Transaction) *model.Error {
	tok, err := p.next()
	if err != nil {
		return err
	}
	if tok.empty() {
		return p.fail(model.CodeParse, tok.off, "",
			fmt.Sprintf("expected the ISIN after %s, found end of line", p.ticker),
			"write ISIN TICKER CODE: the ticker of the ledger and its 12-character ISIN (such as ISIN VUSA IE00B3XXRP09)")
	}
	s, bad := p.intern(tok.text)
	code, msg, hint := isinProblem(string(tok.text), s, bad)
	if msg != "" {
		return p.fail(code, tok.off, string(tok.text), msg, hint)
	}
	t.ISIN = s
	return nil
}

// accountType reads the TYPE of an ACCOUNT declaration.
func (p *parser) accountType() (string, *model.Error) {
	tok, err := p.next()
	if err != nil {
		return "", err
	}
	if tok.empty() {
		return "", p.fail(model.CodeParse, tok.off, "",
			"expected the account type after the label, found end of line",
			"write ACCOUNT LABEL TYPE with TYPE one of "+strings.Join(accountTypes, ", "))
	}
	typ, msg, hint := checkAccountType(string(tok.text))
	if msg != "" {
		return "", p.fail(model.CodeValidation, tok.off, string(tok.text), msg, hint)
	}
	return typ, nil
}

// checkAccountType returns the canonical account type for a word in any case, or a message
// and hint.
func checkAccountType(s string) (typ, msg, hint string) {
	up := upperString(s)
	for _, a := range accountTypes {
		if up == a {
			return a, "", ""
		}
	}
	hint = "the account types are " + strings.Join(accountTypes, ", ") + " (GIA for a general, taxable account)"
	if sug, ok := accountTypeSynonyms[up]; ok {
		hint = "did you mean " + sug + "? " + hint
	}
	return "", fmt.Sprintf("unknown account type %q", clip(s)), hint
}
