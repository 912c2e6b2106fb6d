package dsl

import (
	"bytes"
	"fmt"

	"github.com/cgt-tools/cgt/cgt/model"
)

// INCLUDE lines name the files that belong to a ledger, so that one small file describes a
// person's whole setup (a portfolio ledger) and a command given it reads everything:
//
//	INCLUDE "t212-isa.csv" ACCOUNT MYISA ISA
//	INCLUDE ibkr-2025.xml ACCOUNT IBKR GIA
//	INCLUDE hand-written.cgt
//
// The file name (bare when it is one word, else quoted as a label value is) is relative to
// the ledger that names it. ACCOUNT LABEL TYPE says which account every row of the file is in
// (the file's own account labels are replaced) and declares the account, as an ACCOUNT line
// would; TYPE is one of ISA, LISA, JISA, SIPP, GIA. An INCLUDE line has no date: it is not a
// transaction.

// includeKeyword starts an INCLUDE line.
const includeKeyword = "INCLUDE"

// IncludeExample is a valid INCLUDE line, quoted in errors.
const IncludeExample = `INCLUDE "t212-isa.csv" ACCOUNT MYISA ISA`

// Include is one INCLUDE line: the file it names and the account it puts the file's rows in.
type Include struct {
	_ model.NotComparable

	// Path is the file as written, relative to the ledger that names it.
	Path string
	// Account is the label every row of the file gets ("" when the line gives none).
	Account string
	// AccountType is the account's type (ISA, LISA, JISA, SIPP, GIA) when Account is given.
	AccountType string
	// Source is the INCLUDE line.
	Source model.Source
}

// SplitIncludes reads the INCLUDE lines of a ledger and returns them with the ledger's text
// in which they are blanked (so that the other lines keep their numbers). src is returned as
// it is, not copied, when it has no INCLUDE line. A JSON ledger has none.
func SplitIncludes(file string, src []byte) ([]Include, []byte, error) {
	if looksLikeJSON(src) {
		return nil, src, nil
	}
	var incs []Include
	var out []byte
	lineNo := 0
	for pos := 0; pos < len(src); {
		end := bytes.IndexByte(src[pos:], '\n')
		next := len(src)
		if end >= 0 {
			next = pos + end + 1
			end += pos
		} else {
			end = len(src)
		}
		lineNo++
		line := src[pos:end]
		if isIncludeLine(line) {
			inc, err := parseInclude(file, lineNo, line)
			if err != nil {
				return nil, nil, err
			}
			incs = append(incs, inc)
			if out == nil {
				out = bytes.Clone(src)
			}
			for i := pos; i < end; i++ {
				if out[i] != '\r' {
					out[i] = ' '
				}
			}
		}
		pos = next
	}
	if out == nil {
		return nil, src, nil
	}
	return incs, out, nil
}

// isIncludeLine reports a line whose first word is INCLUDE (in any case).
func isIncludeLine(line []byte) bool {
	if len(line) == 0 || !mayStartInclude[line[0]] { // a dated line, the usual case: no trimming
		return false
	}
	line = bytes.TrimLeft(line, " \t\ufeff")
	line = bytes.TrimPrefix(line, utf8BOM)
	if len(line) < len(includeKeyword) || !equalFold(line[:len(includeKeyword)], includeKeyword) {
		return false
	}
	return len(line) == len(includeKeyword) || byteClass[line[len(includeKeyword)]] != classToken
}

// mayStartInclude marks the first bytes of a line that can be an INCLUDE line: the keyword's
// first letter, or the start of what isIncludeLine trims before it (spaces, tabs, a
// byte-order mark).
var mayStartInclude = [256]bool{' ': true, '\t': true, 0xEF: true, 'i': true, 'I': true}

// parseInclude reads one INCLUDE line.
func parseInclude(file string, lineNo int, line []byte) (Include, *model.Error) {
	if len(line) > MaxLineBytes {
		line = line[:MaxLineBytes]
	}
	line = bytes.TrimPrefix(line, utf8BOM)
	p := parser{file: file, tickers: map[string]string{}, lineNo: lineNo - 1}
	p.startLine(line)
	inc := Include{Source: model.Source{File: file, Line: lineNo, Index: -1}}
	if _, err := p.next(); err != nil { // the keyword
		return inc, err
	}
	tok, quoted, err := p.labelValue()
	if err != nil {
		return inc, err
	}
	if tok.empty() {
		return inc, p.includeFail(tok.off, "", "INCLUDE names no file",
			"write the file's name after INCLUDE, relative to this ledger, in quotes when it holds spaces")
	}
	if !quoted && tok.text[0] == '"' {
		return inc, p.includeFail(tok.off, string(tok.text), "a quoted file name has no closing double quote", quotedRule)
	}
	inc.Path = string(tok.text)
	if msg := quotable(inc.Path); msg != "" {
		return inc, p.includeFail(tok.off, inc.Path, "the file name "+msg, "name the file in plain text")
	}
	key, err := p.next()
	if err != nil || key.empty() {
		return inc, err
	}
	if !equalFold(key.text, "ACCOUNT") {
		return inc, p.includeFail(key.off, string(key.text), "unexpected "+found(key)+" after the file name",
			"an INCLUDE line is INCLUDE FILE, optionally followed by ACCOUNT LABEL TYPE")
	}
	label, err := p.declaredAccount()
	if err != nil {
		return inc, err
	}
	typTok, err := p.next()
	if err != nil {
		return inc, err
	}
	if typTok.empty() {
		return inc, p.includeFail(typTok.off, "", "ACCOUNT "+label+" on an INCLUDE line needs the account's type",
			"write ACCOUNT LABEL TYPE, the type one of "+fmt.Sprint(accountTypes))
	}
	typ, msg, hint := checkAccountType(string(typTok.text))
	if msg != "" {
		return inc, p.includeFail(typTok.off, string(typTok.text), msg, hint)
	}
	if extra, err := p.next(); err != nil || !extra.empty() {
		if err != nil {
			return inc, err
		}
		return inc, p.includeFail(extra.off, string(extra.text), "unexpected "+found(extra)+" after the account type",
			"an INCLUDE line ends after ACCOUNT LABEL TYPE (a # comment may follow)")
	}
	inc.Account, inc.AccountType = label, typ
	return inc, nil
}

func (p *parser) includeFail(off int, value, msg, hint string) *model.Error {
	e := p.fail(model.CodeParse, off, value, msg, hint)
	e.Examples = []string{IncludeExample, "INCLUDE ibkr.xml ACCOUNT IBKR GIA"}
	return e
}

// CheckAccountType returns the canonical account type (ISA, LISA, JISA, SIPP or GIA) for a
// word in any case, or a message and hint saying why it is not one.
func CheckAccountType(s string) (typ, msg, hint string) { return checkAccountType(s) }
