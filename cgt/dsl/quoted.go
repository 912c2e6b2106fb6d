package dsl

import (
	"fmt"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Quoted label values. A label value (ACCOUNT, ISIN, REF, and the label an ACCOUNT line
// declares) that is not one word of the ledger language is written between double quotes:
//
//	REF "ab 12"     ACCOUNT "U***00000"     REF "say \"hi\""     REF "a\\b"
//
// Inside the quotes any character may stand except control characters (U+0000–U+001F,
// U+007F–U+009F, U+2028, U+2029); a double quote is written \" and a backslash \\, and no
// other escape exists. The value read is the text between the quotes with the escapes undone,
// so a value written by Format is read back exactly. Format quotes a value only when it must.

// MaxLabelLen bounds a quoted account label, in bytes.
const MaxLabelLen = 64

// quotedRule is the hint for a malformed quoted value.
const quotedRule = `a quoted label value is written between double quotes, with \" for a quote and \\ for a backslash, and holds no control characters (REF "ab 12")`

// labelControl reports a character that may not be in a label value, quoted or not: the
// control characters, and the Unicode line and paragraph separators.
func labelControl(r rune) bool {
	return r < 0x20 || (r >= 0x7F && r <= 0x9F) || r == '\u2028' || r == '\u2029'
}

// quotable reports why s cannot be written as a label value even in quotes ("" when it can).
func quotable(s string) string {
	if !utf8.ValidString(s) {
		return "is not UTF-8 text"
	}
	for _, r := range s {
		if labelControl(r) {
			return fmt.Sprintf("contains the control character U+%04X", r)
		}
	}
	return ""
}

// bareWord reports whether s can be written unquoted: one word of the ledger language that
// does not start with a double quote.
func bareWord(s string) bool {
	if s == "" || s[0] == '"' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if byteClass[s[i]] != classToken {
			return false
		}
	}
	return utf8.ValidString(s)
}

// appendLabelValue writes s bare when it is one word, else in quotes with \" and \\ escaped.
// s has passed quotable.
func appendLabelValue(b []byte, s string) []byte {
	if bareWord(s) {
		return append(b, s...)
	}
	return appendQuoted(b, s)
}

// appendQuoted writes s in double quotes, with \" and \\ escaped.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// QuoteLabel returns s as Format writes a label value: bare when it is one word of the ledger
// language, else quoted. ok is false when s cannot be written at all (a control character).
func QuoteLabel(s string) (string, bool) {
	if s == "" || quotable(s) != "" {
		return "", false
	}
	return string(appendLabelValue(nil, s)), true
}

// labelValue reads the value after a label keyword: a quoted value when the next field opens
// with a double quote (its text with the escapes undone), else the next field as it is.
// quoted says which it was.
func (p *parser) labelValue() (tok token, quoted bool, err *model.Error) {
	i := p.pos
	for i < len(p.line) && byteClass[p.line[i]] == classSpace {
		i++
	}
	if i >= len(p.line) || p.line[i] != '"' {
		tok, err = p.next()
		return tok, false, err
	}
	tok, err = p.quoted(i)
	return tok, true, err
}

// quoted reads the quoted value whose opening quote is at offset open of the line.
func (p *parser) quoted(open int) (token, *model.Error) {
	line := p.line
	var out []byte
	i := open + 1
	for {
		if i >= len(line) {
			return token{}, p.fail(model.CodeParse, open, string(line[open:]),
				"a quoted value has no closing double quote", quotedRule)
		}
		c := line[i]
		switch {
		case c == '"':
			i++
			if i < len(line) && byteClass[line[i]] == classToken {
				return token{}, p.fail(model.CodeParse, i, string(line[open:]),
					fmt.Sprintf("unexpected %q right after the closing quote", line[i]),
					"leave a space after a quoted value; "+quotedRule)
			}
			p.pos = i
			if i < len(line) && byteClass[line[i]] == classControl {
				return token{}, p.controlChar(i)
			}
			if out == nil {
				out = []byte{}
			}
			return token{text: out, off: open}, nil
		case c == '\\':
			if i+1 >= len(line) || (line[i+1] != '"' && line[i+1] != '\\') {
				return token{}, p.fail(model.CodeParse, i, string(line[open:min(len(line), i+2)]),
					"a backslash in a quoted value escapes only a double quote or a backslash", quotedRule)
			}
			out = append(out, line[i+1])
			i += 2
		default:
			r, size := utf8.DecodeRune(line[i:])
			if labelControl(r) {
				return token{}, p.fail(model.CodeParse, i, fmt.Sprintf("U+%04X", r),
					fmt.Sprintf("a quoted value contains the control character U+%04X", r), quotedRule)
			}
			out = append(out, line[i:i+size]...)
			i += size
		}
	}
}

// quotedAccount checks an account label read in quotes and returns its canonical form: the
// text with ASCII letters upper-cased, as a bare label is.
func quotedAccount(b []byte) (string, string, string) {
	if len(b) == 0 {
		return "", "account label is empty", "give a label such as \"T212-ISA\", or leave the ACCOUNT label out"
	}
	if len(b) > MaxLabelLen {
		return "", fmt.Sprintf("account label %q is longer than %d characters", clip(string(b)), MaxLabelLen),
			"use a short label such as T212-ISA or HL-SIPP"
	}
	if why := quotable(string(b)); why != "" {
		return "", fmt.Sprintf("account label %q %s", clip(string(b)), why), quotedRule
	}
	up := make([]byte, len(b))
	for i, c := range b {
		up[i] = upper(c)
	}
	return string(up), "", ""
}
