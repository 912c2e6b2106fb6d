package dsl

import (
	"bytes"
	"fmt"
	"runtime"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/internal/fresh"
	"github.com/cgt-tools/cgt/cgt/model"
)

// MaxLineBytes is the longest ledger line accepted. Real lines are under 100 bytes; the cap
// keeps a runaway or binary "line" from being copied into messages or scanned as one token.
const MaxLineBytes = 64 << 10

// maxTickerLen bounds a ticker; ISINs are 12 characters and exchange-prefixed symbols a little more.
const maxTickerLen = 32

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a ledger in the line language of docs/dsl-syntax.md. file names the source in
// errors and in each transaction's Source (it may be empty for inline content). Transactions
// are returned in file order; the first problem stops the parse and is returned as a
// *model.Error. A large ledger is read in parts at once (see parseParts); the result and the
// error reported are the same as reading it line by line.
func Parse(file string, src []byte) ([]model.Transaction, error) {
	src = bytes.TrimPrefix(src, utf8BOM)
	if head := src[:min(len(src), MaxLineBytes+1)]; bytes.IndexByte(head, '\n') < 0 && bytes.IndexByte(head, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte{'\r'}, []byte{'\n'}) // CR-only line ends ("Macintosh" text)
	}
	txns, err := parseText(file, src)
	if err != nil {
		return nil, withoutQuotes(file, src, err)
	}
	return txns, nil
}

// parseText reads src, whose line ends are '\n', in one part or several.
func parseText(file string, src []byte) ([]model.Transaction, error) {
	parts := splitParts(src, partsFor(len(src)))
	if err := notText(file, src, parts); err != nil {
		return nil, err
	}
	if perLine := capacity(src, parts) * reportBytesPerLine; perLine >= fresh.MinBytes { // a large ledger
		fresh.Reserve(perLine+reportBaseBytes, runtime.GOMAXPROCS(0))
	}
	if len(parts) == 1 {
		n := parts[0].capacity(src)
		txns, err := parsePart(file, src, parts[0], fresh.Slice[model.Transaction](n, 1)[:0:n])
		if err != nil {
			return nil, err
		}
		return txns, nil
	}
	return parseParts(file, src, parts)
}

// parsePart reads the lines of one part of src, appending to txns.
func parsePart(file string, src []byte, pt part, txns []model.Transaction) ([]model.Transaction, *model.Error) {
	p := parser{file: file, tickers: make(map[string]string), lineNo: pt.firstLine - 1}
	for pos := pt.start; pos < pt.end; {
		line, next, tooLong := splitLine(src[:pt.end], pos)
		p.startLine(line)
		if tooLong {
			return nil, p.lineTooLong()
		}
		txns = append(txns, model.Transaction{})
		ok, err := p.parseLine(&txns[len(txns)-1])
		if err != nil {
			return nil, err
		}
		if !ok {
			txns = txns[:len(txns)-1]
		}
		pos = next
	}
	return txns, nil
}

// minLineBytes is the length of the shortest possible transaction line with its line end
// ("2024-01-01 BUY A 1 @ 2\n").
const minLineBytes = 23

// splitLine returns the line that starts at pos (without its '\n') and where the next line
// starts. It looks no further than MaxLineBytes ahead, so an enormous line costs no more than
// a normal one before it is rejected.
func splitLine(src []byte, pos int) (line []byte, next int, tooLong bool) {
	window := src[pos:]
	if len(window) > MaxLineBytes+1 {
		window = window[:MaxLineBytes+1]
	}
	i := bytes.IndexByte(window, '\n')
	if i < 0 {
		if len(src)-pos > MaxLineBytes {
			return window, len(src), true
		}
		return src[pos:], len(src), false
	}
	return src[pos : pos+i], pos + i + 1, false
}

// notText rejects input that is not UTF-8 text (a spreadsheet, a PDF, UTF-16) with one
// error at the first offending byte, rather than an error per line of garbage. The parts
// were scanned by splitParts; the first part with a bad byte has the first one.
func notText(file string, src []byte, parts []part) *model.Error {
	for _, pt := range parts {
		if pt.bad >= 0 {
			return notTextError(file, src, pt.bad, pt.what)
		}
	}
	return nil
}

// scanText finds the first byte of b that cannot be in a text ledger: a NUL or a byte that
// is not UTF-8. bad is −1 when there is none.
func scanText(b []byte) (bad int, what string) {
	bad = -1
	if i := bytes.IndexByte(b, 0); i >= 0 {
		bad, what = i, "a NUL byte"
	}
	if !utf8.Valid(b) {
		if i := firstInvalidUTF8(b); bad < 0 || i < bad {
			bad, what = i, fmt.Sprintf("the byte 0x%02X, which is not UTF-8", b[i])
		}
	}
	return bad, what
}

// notTextError describes the bad byte at offset bad of src.
func notTextError(file string, src []byte, bad int, what string) *model.Error {
	lineStart := bytes.LastIndexByte(src[:bad], '\n') + 1
	return &model.Error{
		Code:     model.CodeParse,
		Message:  "the input is not a text ledger: it contains " + what + " (binary data?)",
		Hint:     "a ledger is a UTF-8 text file with one transaction per line; check that the right file was given (not a spreadsheet, PDF or compressed export), and if it was saved as UTF-16, save it again as UTF-8",
		Examples: lineExample(""),
		File:     file,
		Line:     bytes.Count(src[:bad], []byte{'\n'}) + 1,
		Column:   utf8.RuneCount(src[lineStart:bad]) + 1,
		Value:    fmt.Sprintf("\\x%02x", src[bad]),
	}
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// parser holds the state of one Parse call: the line being read, the interned tickers (each
// distinct ticker string is allocated once per ledger, not once per line) and the last date.
type parser struct {
	file         string
	tickers      map[string]string
	recent       [64]string // direct-mapped cache in front of tickers, by a hash of the ticker
	lastDateText [10]byte   // the last date read, and its value: ledgers list many trades per day
	lastDate     model.Date
	line         []byte
	pos          int
	lineNo       int
	action       model.Action // kind of the current line once known; picks the example in errors
	ticker       string       // ticker of the current line once known
	// noCurrency is set by amount when the amount it read had no currency (GBP by default).
	noCurrency bool
	// events is the rest of the block fields takes event fields from.
	events []model.Event
}

func (p *parser) startLine(line []byte) {
	p.line, p.pos, p.action, p.ticker = line, 0, "", ""
	p.lineNo++
}

// Byte classes for the tokenizer: fields are separated by spaces, tabs and the '\r' of CRLF
// line ends, '#' starts a comment, and other control characters are errors.
const (
	classToken = iota
	classSpace
	classComment
	classControl
)

var byteClass = func() (c [256]uint8) {
	for i := 0; i < 0x20; i++ {
		c[i] = classControl
	}
	c[0x7F] = classControl
	c[' '], c['\t'], c['\r'] = classSpace, classSpace, classSpace
	c['#'] = classComment
	return c
}()

// token is one field of a line and its byte offset in the line. An empty token means the
// end of the line (or the start of a comment).
type token struct {
	text []byte
	off  int
}

func (t token) empty() bool { return len(t.text) == 0 }

// next returns the next field of the line.
func (p *parser) next() (token, *model.Error) {
	line, i := p.line, p.pos
	for i < len(line) && byteClass[line[i]] == classSpace {
		i++
	}
	start := i
	for i < len(line) && byteClass[line[i]] == classToken {
		i++
	}
	p.pos = i
	if i < len(line) {
		switch byteClass[line[i]] {
		case classControl:
			return token{}, p.controlChar(i)
		case classComment:
			p.pos = len(line)
		}
	}
	return token{text: line[start:i], off: start}, nil
}

// peek returns the next field without consuming it.
func (p *parser) peek() token {
	pos := p.pos
	tok, _ := p.next()
	p.pos = pos
	return tok
}

// fail builds an error at a byte offset of the current line. When nothing was found (a field
// is missing) the value quoted is the incomplete line itself.
func (p *parser) fail(code string, off int, value, msg, hint string) *model.Error {
	if off > len(p.line) {
		off = len(p.line)
	}
	if value == "" {
		value = string(bytes.TrimSpace(p.line))
	}
	return &model.Error{
		Code:     code,
		Message:  msg,
		Hint:     hint,
		Examples: lineExample(p.action),
		File:     p.file,
		Line:     p.lineNo,
		Column:   utf8.RuneCount(p.line[:off]) + 1,
		Value:    clip(value),
	}
}

// found describes a token for a message: its quoted text, or "end of line".
func found(t token) string {
	if t.empty() {
		return "end of line"
	}
	return fmt.Sprintf("%q", clip(string(t.text)))
}

func (p *parser) lineTooLong() *model.Error {
	return p.fail(model.CodeParse, 0, string(p.line[:min(len(p.line), 64)]),
		fmt.Sprintf("line is longer than the %d KiB limit", MaxLineBytes>>10),
		"a ledger line holds one transaction and is well under 200 characters; check that the input is a ledger and that its line ends were not lost")
}

func (p *parser) controlChar(off int) *model.Error {
	c := p.line[off]
	return p.fail(model.CodeParse, off, fmt.Sprintf("\\x%02x", c),
		fmt.Sprintf("unexpected control character U+%04X", c),
		"separate fields with spaces or tabs only; remove the control character (was the file exported as text?)")
}

// decimal reads a number. A number of up to 18 digits becomes a model.Decimal without an
// allocation.
func (p *parser) decimal(b []byte) (model.Decimal, numProblem) {
	n, problem := scanDecimal(b)
	if problem != numOK {
		return model.Decimal{}, problem
	}
	return n.decimal(b)
}

// eventBlock is how many transactions' event fields the parser allocates at once.
const eventBlock = 256

// fields gives t's event fields to fill in, taken from a block the parser allocates for many
// lines at once: a ledger of a million lines has tens of thousands of dividends, splits and
// other events, and one allocation each would cost more than reading them.
func (p *parser) fields(t *model.Transaction) *model.Event {
	if t.Event == nil {
		if len(p.events) == 0 {
			p.events = make([]model.Event, eventBlock)
		}
		t.Event, p.events = &p.events[0], p.events[1:]
	}
	return t.Event
}
