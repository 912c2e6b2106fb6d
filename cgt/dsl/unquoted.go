package dsl

import (
	"bytes"
	"errors"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// A file given as a ledger may be anything that was in the folder: a .env, a private key, a
// spreadsheet's CSV. Until one of its lines has read as a ledger line, nothing shows that it
// is a ledger, so an error about it names the file and the line and quotes none of its text.
// A first line that starts like a ledger line (a date, or a transaction word such as BUY) is a
// ledger with a mistake in it, and its error quotes it as usual.

// notALedgerHint is what to do about a file that does not read as a ledger.
const notALedgerHint = "Give a cgt ledger (one transaction per line, each starting with its date, as in the examples) " +
	"or a broker's export as downloaded (the broker guides list the formats cgt recognises from the content). " +
	"If this is the file you meant, open it and check its first lines: cgt shows no text from a file it cannot read."

// withoutQuotes returns err, or, when err is about the first line of src with content and that
// line does not start like a ledger line, an error that names the file and line only.
func withoutQuotes(file string, src []byte, err error) error {
	var me *model.Error
	if !errors.As(err, &me) || me.Line <= 0 {
		return err
	}
	first, n := firstContentLine(src)
	if n != me.Line || startsLikeLedgerLine(first) {
		return err
	}
	if !strings.ContainsAny(me.Message, "\"'") && (me.Value == "" || !strings.Contains(me.Message, me.Value) || isEscapedByte(me.Value)) {
		// The message quotes nothing of the line (a line too long, a byte that is not text):
		// it stays, with at most the one byte it names.
		out := *me
		if !isEscapedByte(me.Value) {
			out.Value = ""
		}
		return &out
	}
	return &model.Error{
		Code: model.CodeParse,
		Message: "this file does not read as a cgt ledger: its first line with content does not start with a date (YYYY-MM-DD), " +
			"and it is not a format cgt reads; none of its text is shown",
		Hint:     notALedgerHint,
		Examples: lineExample(""),
		File:     file,
		Line:     me.Line,
		Column:   1,
		Context:  map[string]any{"reason": "not_a_ledger"},
	}
}

// firstContentLine is the first line of src that is neither blank nor a comment, and its
// number (0 when there is none). Only the lines before it are looked at.
func firstContentLine(src []byte) ([]byte, int) {
	for n := 1; len(src) > 0; n++ {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return line, n
		}
	}
	return nil, 0
}

// startsLikeLedgerLine reports whether line starts as a ledger line does: a date (well
// formed, even if no such day), a transaction word first or second (BUY …, or a date in
// another form then BUY), or INCLUDE. Such a line is a ledger with a mistake, not some other
// file.
func startsLikeLedgerLine(line []byte) bool {
	fields := bytes.Fields(line[:min(len(line), 200)])
	if len(fields) == 0 {
		return false
	}
	if _, problem := parseDate(fields[0]); problem == dateOK || problem == dateNotReal {
		return true
	}
	if bytes.EqualFold(fields[0], []byte("INCLUDE")) {
		return true
	}
	for _, f := range fields[:min(len(fields), 2)] {
		if _, ok := lookupAction(f); ok {
			return true
		}
	}
	return false
}

// isEscapedByte reports whether v is one byte written \xNN, as the errors about a byte that
// is not text give it.
func isEscapedByte(v string) bool {
	return len(v) == 4 && strings.HasPrefix(v, "\\x")
}

// looksLikeJSONTransaction reports whether the first item of a JSON file is an object with a
// date or an action key, as a transaction object has: a JSON ledger, whose mistakes are quoted.
func looksLikeJSONTransaction(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return false
	}
	for k := range obj {
		if strings.EqualFold(k, "date") || strings.EqualFold(k, "action") {
			return true
		}
	}
	return false
}

// notAJSONLedger is the error for a JSON array file whose first item is not a transaction
// object: the file and the reason, none of its text.
func notAJSONLedger(file string) *model.Error {
	return &model.Error{
		Code:     model.CodeParse,
		Message:  "this file does not read as a cgt ledger: it is a JSON array whose first item is not a transaction object (with \"date\" and \"action\"); none of its text is shown",
		Hint:     notALedgerHint,
		Examples: jsonArrayExample(),
		File:     file,
		Line:     1,
		Column:   1,
		Context:  map[string]any{"reason": "not_a_ledger"},
	}
}
