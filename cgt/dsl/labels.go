package dsl

import (
	"fmt"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/typo"
)

// Labels are optional words after a line's fields that say where a transaction was held and
// what it is, without changing its figures:
//
//	ACCOUNT LABEL    the account (declared by an ACCOUNT line when it is an ISA, SIPP...)
//	ISIN CODE        the security's ISIN, check digit verified
//	REF BROKER_REF   the broker's reference for the trade
//
// They come in any order, each at most once, before any comment. A value that is not one word
// of the ledger language is written in quotes (see quoted.go): REF "ab 12".

// MaxRefLen bounds a broker reference.
const MaxRefLen = 64

// labelExample is quoted in errors about labels.
const labelExample = "2024-04-01 BUY AAPL 100 @ 150.00 USD ACCOUNT GIA ISIN US0378331005 REF T212-0001"

// isLabel reports a label keyword.
func isLabel(b []byte) bool {
	switch len(b) {
	case 3:
		return equalFold(b, "REF")
	case 4:
		return equalFold(b, "ISIN")
	case 7:
		return equalFold(b, "ACCOUNT")
	}
	return false
}

// labels reads the labels of a line, starting at tok, up to the end of the line.
func (p *parser) labels(t *model.Transaction, tok token) *model.Error {
	for !tok.empty() {
		if !isLabel(tok.text) {
			return p.unexpected(tok)
		}
		key := tok
		val, quoted, err := p.labelValue()
		if err != nil {
			return err
		}
		if val.empty() && !quoted {
			return p.labelFail(model.CodeParse, val.off, "",
				fmt.Sprintf("expected a value after %s, found end of line", upperWord(key.text)),
				"write ACCOUNT LABEL, ISIN CODE or REF BROKER_REF")
		}
		switch len(key.text) {
		case 7:
			err = p.accountLabel(t, key, val, quoted)
		case 4:
			err = p.isinLabel(t, key, val)
		default:
			err = p.refLabel(t, key, val)
		}
		if err != nil {
			return err
		}
		if tok, err = p.next(); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) twice(key token) *model.Error {
	return p.labelFail(model.CodeParse, key.off, string(key.text),
		fmt.Sprintf("%s is given twice on one line", upperWord(key.text)),
		"give each label (ACCOUNT, ISIN, REF) at most once")
}

func (p *parser) accountLabel(t *model.Transaction, key, val token, quoted bool) *model.Error {
	if t.Action == model.AccountDecl {
		return p.labelFail(model.CodeParse, key.off, string(key.text),
			"an ACCOUNT declaration takes no ACCOUNT label",
			"write DATE ACCOUNT LABEL TYPE: the label after the kind is the account declared")
	}
	if t.Account != "" {
		return p.twice(key)
	}
	if quoted {
		s, msg, hint := quotedAccount(val.text)
		if msg != "" {
			return p.labelFail(model.CodeParse, val.off, string(val.text), msg, hint)
		}
		t.Account = s
		return nil
	}
	s, bad := p.intern(val.text)
	if bad >= 0 {
		msg, hint := accountProblem(val.text, bad)
		return p.labelFail(model.CodeParse, val.off+min(bad, len(val.text)), string(val.text), msg, hint)
	}
	t.Account = s
	return nil
}

func (p *parser) isinLabel(t *model.Transaction, key, val token) *model.Error {
	if t.ISIN != "" {
		return p.twice(key)
	}
	s, bad := p.intern(val.text)
	code, msg, hint := isinProblem(string(val.text), s, bad)
	if msg != "" {
		return p.labelFail(code, val.off, string(val.text), msg, hint)
	}
	t.ISIN = s
	return nil
}

func (p *parser) refLabel(t *model.Transaction, key, val token) *model.Error {
	if t.BrokerRef != "" {
		return p.twice(key)
	}
	if msg, hint := refProblem(string(val.text)); msg != "" {
		return p.labelFail(model.CodeParse, val.off, string(val.text), msg, hint)
	}
	t.BrokerRef = string(val.text)
	return nil
}

// unexpected reports a word after the last field that is not a label.
func (p *parser) unexpected(tok token) *model.Error {
	hint := "remove it, or start a comment with '#'; only the labels ACCOUNT, ISIN and REF may follow the fields"
	if s := suggestLabel(string(tok.text)); s != "" {
		hint = "did you mean " + s + "? " + hint
	}
	return p.fail(model.CodeParse, tok.off, string(tok.text),
		fmt.Sprintf("unexpected %s at the end of a %s line", found(tok), p.action), hint)
}

func (p *parser) labelFail(code string, off int, value, msg, hint string) *model.Error {
	e := p.fail(code, off, value, msg, hint)
	e.Examples = []string{labelExample}
	return e
}

// suggestLabel finds the label keyword a word most likely stands for, or "".
func suggestLabel(w string) string {
	if len(w) < 3 || len(w) > 16 {
		return ""
	}
	switch up := upperString(w); up {
	case "ACCT", "ACC", "WRAPPER":
		return "ACCOUNT"
	case "REFERENCE", "ORDER", "ID":
		return "REF"
	default:
		for _, k := range []string{"ACCOUNT", "ISIN", "REF"} {
			if typo.Distance(up, k) <= 1 {
				return k
			}
		}
	}
	return ""
}

func upperString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = upper(c)
	}
	return string(b)
}

func upperWord(b []byte) string { return upperString(string(b)) }

// accountProblem explains a rejected account label.
func accountProblem(b []byte, bad int) (msg, hint string) {
	if bad >= maxTickerLen {
		return fmt.Sprintf("account label %q is longer than %d characters", clip(string(b)), maxTickerLen),
			"use a short label such as T212-ISA or HL-SIPP"
	}
	r, _ := utf8.DecodeRune(b[bad:])
	return fmt.Sprintf("account label %q contains %q, which is not allowed", clip(string(b)), r),
		"an account label is letters and digits, with '.', '-' or ':' allowed inside (T212-ISA, HL-SIPP, IBKR); write any other label in double quotes (ACCOUNT \"U***1234\")"
}

// CheckAccountLabel returns the canonical (ASCII upper-case) form of an account label, or a
// message and hint saying why it cannot be one. A label that follows the rules of tickers is
// written bare; any other text without control characters, up to MaxLabelLen bytes, is written
// in quotes.
func CheckAccountLabel(s string) (label, msg, hint string) {
	var buf [maxTickerLen]byte
	up, bad := upperTicker([]byte(s), &buf)
	if bad >= 0 {
		return quotedAccount([]byte(s))
	}
	if len(up) == 0 {
		return "", "account label is empty", "give a label such as \"T212-ISA\", or leave the key out"
	}
	return string(up), "", ""
}

// isinProblem checks an ISIN: raw as written, up its upper-case form (when it passed the
// ticker character rules; bad is the index of the first character that did not). It returns
// the error code, message and hint, or an empty message when the ISIN is valid.
func isinProblem(raw, up string, bad int) (code, msg, hint string) {
	const form = "an ISIN is 12 characters: two letters for the country, nine letters or digits, and a check digit (US0378331005)"
	if bad >= 0 || len(up) != 12 || !isLetter(up[0]) || !isLetter(up[1]) || !isDigit(up[11]) {
		return model.CodeParse, fmt.Sprintf("ISIN %q is not in the ISIN form", clip(raw)), form
	}
	for i := 2; i < 11; i++ {
		if !isLetter(up[i]) && !isDigit(up[i]) {
			return model.CodeParse, fmt.Sprintf("ISIN %q is not in the ISIN form", clip(raw)), form
		}
	}
	if want := isinCheckDigit(up); int(up[11]-'0') != want {
		return model.CodeValidation,
			fmt.Sprintf("ISIN %q has a wrong check digit: its first eleven characters call for %d, not %c", raw, want, up[11]),
			"a character is mistyped: copy the ISIN again from the contract note, statement or fund factsheet, or leave the ISIN out"
	}
	return "", "", ""
}

// CheckISIN returns the canonical (upper-case) form of an ISIN, or an error code, message and
// hint saying why it is not one (its form, or its check digit).
func CheckISIN(s string) (isin, code, msg, hint string) {
	var buf [maxTickerLen]byte
	up, bad := upperTicker([]byte(s), &buf)
	code, msg, hint = isinProblem(s, string(up), bad)
	if msg != "" {
		return "", code, msg, hint
	}
	return string(up), "", "", ""
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' }

// isinCheckDigit computes the ISIN check digit (ISO 6166) of the first 11 characters of an
// upper-case ISIN: letters become two digits (A = 10 ... Z = 35), then the Luhn algorithm
// runs over the digits, doubling every other one from the rightmost.
func isinCheckDigit(s string) int {
	var digits [22]byte
	n := 0
	for i := range 11 {
		c := s[i]
		if isDigit(c) {
			digits[n] = c - '0'
			n++
			continue
		}
		v := c - 'A' + 10
		digits[n], digits[n+1] = v/10, v%10
		n += 2
	}
	sum := 0
	for i, k := n-1, 0; i >= 0; i, k = i-1, k+1 {
		d := int(digits[i])
		if k%2 == 0 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// refProblem checks a broker reference: text of at most MaxRefLen bytes without control
// characters, so that it can be written back on a line (in quotes when it is not one word).
// It returns an empty message when it is fine.
func refProblem(s string) (msg, hint string) {
	const rule = `a broker reference is at most 64 characters without control characters; one with spaces or '#' is written in double quotes (REF "ab 12")`
	if s == "" {
		return "broker reference is empty", "give the reference, or leave it out"
	}
	if len(s) > MaxRefLen {
		return fmt.Sprintf("broker reference %q is longer than %d characters", clip(s), MaxRefLen), rule
	}
	if why := quotable(s); why != "" {
		return fmt.Sprintf("broker reference %q %s", clip(s), why), rule
	}
	return "", ""
}

// CheckBrokerRef reports why s cannot be a broker reference (for importers, before they set
// Transaction.BrokerRef), or an empty message when it can.
func CheckBrokerRef(s string) (msg, hint string) { return refProblem(s) }
