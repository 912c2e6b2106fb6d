// Package xmlscan reads an XML document held in memory as a stream of element starts, element
// ends and character data: the part of encoding/xml's Decoder.Token that the rate reader and
// the Interactive Brokers Flex reader use. It accepts what encoding/xml accepts and gives the
// same tokens (names without their namespace prefix, entities and CDATA decoded, line ends
// as "\n"), and refuses what it refuses: mismatched or unclosed elements, an unquoted
// attribute, an undefined entity, "]]>" in text, invalid UTF-8 or a character XML forbids.
// It is more lenient in one place only: a name's non-ASCII letters are not checked against
// XML's name classes. The tests hold it to encoding/xml on every input the fuzzer finds.
//
// It exists because encoding/xml is some 20 KB of the browser module (gzipped), and the two
// readers need none of its reflection, namespaces or streaming.
package xmlscan

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is what a token is.
type Kind uint8

const (
	StartElement Kind = iota + 1
	EndElement
	CharData
)

// Attr is an attribute: its local name (the prefix dropped, as encoding/xml's Name.Local)
// and its value with entities decoded.
type Attr struct{ Name, Value string }

// Token is one element start (Name, Attr), element end (Name) or run of character data
// (Text, valid until the next call to Token).
type Token struct {
	Kind Kind
	Name string
	Attr []Attr
	Text []byte
}

// SyntaxError is a document that is not well-formed, and the line where that was found.
type SyntaxError struct {
	Msg  string
	Line int
}

func (e *SyntaxError) Error() string {
	return "XML syntax error on line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// Decoder reads one document.
type Decoder struct {
	// Strict, as encoding/xml's Decoder.Strict (true from NewDecoder): when false, an
	// attribute may be unquoted or have no value and an undefined entity is kept as text.
	// Only the elements' nesting is still checked.
	Strict bool
	// Charset converts the rest of the document when its declaration names an encoding
	// other than UTF-8 (<?xml version="1.0" encoding="ISO-8859-1"?>), as encoding/xml's
	// CharsetReader; nil refuses such a document. Only the first declaration converts: a
	// document is in one encoding, and converting the rest again at every further one would
	// cost a long document's length each time.
	Charset func(label string, rest []byte) ([]byte, error)

	src       []byte
	pos       int
	open      []string // the raw names of the elements open, outermost first
	needClose bool     // the last start was <a/>: its end comes next
	converted bool     // a declaration's encoding has been applied
	buf       []byte
	err       error

	lineAt, line, lineStart int // line is the line of src[lineAt], which starts at lineStart
}

// NewDecoder reads src, strictly.
func NewDecoder(src []byte) *Decoder { return &Decoder{src: src, Strict: true, line: 1} }

// InputOffset is where in the document (after any conversion of its encoding) the next
// token starts.
func (d *Decoder) InputOffset() int64 { return int64(d.pos) }

// InputPos is the line and the 1-based column of InputOffset.
func (d *Decoder) InputPos() (line, column int) {
	line = d.lineOf(d.pos)
	return line, d.pos - d.lineStart + 1
}

// lineOf counts lines forward from the last place asked about (places asked about only
// grow in the readers' use, so a long document, even one long line, is read once).
func (d *Decoder) lineOf(off int) int {
	if off < d.lineAt {
		d.lineAt, d.line, d.lineStart = 0, 1, 0
	}
	for i := d.lineAt; i < off; i++ {
		if d.src[i] == '\n' {
			d.line, d.lineStart = d.line+1, i+1
		}
	}
	d.lineAt = off
	return d.line
}

func (d *Decoder) fail(msg string) error {
	d.err = &SyntaxError{Msg: msg, Line: d.lineOf(d.pos)}
	return d.err
}

// Token returns the next element start, element end or character data. Comments,
// processing instructions and directives are read and passed over.
func (d *Decoder) Token() (Token, error) {
	for {
		t, err := d.next()
		if err != nil || t.Kind != 0 {
			return t, err
		}
	}
}

// Skip reads to the end of the element whose start Token last returned.
func (d *Decoder) Skip() error {
	depth := 0
	for {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t.Kind {
		case StartElement:
			depth++
		case EndElement:
			if depth == 0 {
				return nil
			}
			depth--
		}
	}
}

// next reads one token; Kind 0 is a comment, processing instruction or directive.
func (d *Decoder) next() (Token, error) {
	if d.err != nil {
		return Token{}, d.err
	}
	if d.needClose {
		d.needClose = false
		return d.end(d.open[len(d.open)-1])
	}
	if d.pos >= len(d.src) {
		if len(d.open) > 0 {
			return Token{}, d.fail("unexpected EOF")
		}
		d.err = io.EOF
		return Token{}, io.EOF
	}
	if d.src[d.pos] != '<' {
		text, err := d.text(-1)
		return Token{Kind: CharData, Text: text}, err
	}
	d.pos++
	switch d.peek() {
	case '/':
		d.pos++
		name, ok := d.name()
		if !ok {
			return Token{}, d.failName("expected element name after </")
		}
		d.space()
		if d.pos >= len(d.src) {
			return Token{}, d.fail("unexpected EOF")
		}
		if d.src[d.pos] != '>' {
			d.pos++
			return Token{}, d.fail("invalid characters between </" + local(name) + " and >")
		}
		d.pos++
		return d.end(name)
	case '?':
		d.pos++
		return Token{}, d.procInst()
	case '!':
		d.pos++
		return d.bang()
	}
	return d.start()
}

// end closes the innermost element, which must be name.
func (d *Decoder) end(name string) (Token, error) {
	n := len(d.open)
	if n == 0 {
		return Token{}, d.fail("unexpected end element </" + local(name) + ">")
	}
	if top := d.open[n-1]; top != name {
		if local(top) != local(name) {
			return Token{}, d.fail("element <" + local(top) + "> closed by </" + local(name) + ">")
		}
		return Token{}, d.fail("element <" + local(top) + "> closed by </" + local(name) + "> in another name space")
	}
	d.open = d.open[:n-1]
	return Token{Kind: EndElement, Name: local(name)}, nil
}

func (d *Decoder) start() (Token, error) {
	name, ok := d.name()
	if !ok {
		return Token{}, d.failName("expected element name after <")
	}
	t := Token{Kind: StartElement, Name: local(name), Attr: []Attr{}}
	for {
		d.space()
		if d.pos >= len(d.src) {
			return Token{}, d.fail("unexpected EOF")
		}
		switch d.src[d.pos] {
		case '/':
			d.pos++
			if d.pos >= len(d.src) {
				return Token{}, d.fail("unexpected EOF")
			}
			d.pos++
			if d.src[d.pos-1] != '>' {
				return Token{}, d.fail("expected /> in element")
			}
			d.needClose = true
			d.open = append(d.open, name)
			return t, nil
		case '>':
			d.pos++
			d.open = append(d.open, name)
			return t, nil
		}
		a, err := d.attr()
		if err != nil {
			return Token{}, err
		}
		t.Attr = append(t.Attr, a)
	}
}

func (d *Decoder) attr() (Attr, error) {
	name, ok := d.name()
	if !ok {
		return Attr{}, d.failName("expected attribute name in element")
	}
	a := Attr{Name: local(name)}
	d.space()
	if d.pos >= len(d.src) {
		return Attr{}, d.fail("unexpected EOF")
	}
	if d.src[d.pos] != '=' {
		if d.Strict {
			d.pos++
			return Attr{}, d.fail("attribute name without = in element")
		}
		a.Value = a.Name
		return a, nil
	}
	d.pos++
	d.space()
	if d.pos >= len(d.src) {
		return Attr{}, d.fail("unexpected EOF")
	}
	switch q := d.src[d.pos]; {
	case q == '"' || q == '\'':
		d.pos++
		v, err := d.text(int(q))
		a.Value = string(v)
		return a, err
	case d.Strict:
		d.pos++
		return Attr{}, d.fail("unquoted or missing attribute value in element")
	}
	from := d.pos // unquoted, as HTML allows
	for d.pos < len(d.src) && (isNameByte(d.src[d.pos]) && d.src[d.pos] != '.') {
		d.pos++
	}
	if d.pos >= len(d.src) {
		return Attr{}, d.fail("unexpected EOF")
	}
	a.Value = string(d.src[from:d.pos])
	return a, nil
}

// procInst reads <?target ...?>, following the declaration's encoding.
func (d *Decoder) procInst() error {
	target, ok := d.piTarget()
	if !ok {
		return d.failName("expected target name after <?")
	}
	d.space()
	end := bytes.Index(d.src[d.pos:], []byte("?>"))
	if end < 0 {
		d.pos = len(d.src)
		return d.fail("unexpected EOF")
	}
	content := string(d.src[d.pos : d.pos+end])
	d.pos += end + 2
	if target != "xml" {
		return nil
	}
	if v := declared("version", content); v != "" && v != "1.0" {
		d.err = fmt.Errorf("xml: unsupported version %q; only version 1.0 is supported", v)
		return d.err
	}
	enc := declared("encoding", content)
	if enc == "" || strings.EqualFold(enc, "utf-8") || d.converted {
		return nil
	}
	if d.Charset == nil {
		d.err = fmt.Errorf("xml: encoding %q declared but no conversion is given", enc)
		return d.err
	}
	rest, err := d.Charset(enc, d.src[d.pos:])
	if err != nil {
		d.err = fmt.Errorf("xml: opening charset %q: %w", enc, err)
		return d.err
	}
	d.src = append(d.src[:d.pos:d.pos], rest...)
	d.converted = true
	return nil
}

// declared finds param="value" (or 'value') in a declaration's content.
func declared(param, s string) string {
	param += "="
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], param)
		if k < 0 || i+k+len(param) >= len(s) {
			return ""
		}
		i += k + len(param)
		if q := s[i]; q == '"' || q == '\'' {
			if j := strings.IndexByte(s[i+1:], q); j >= 0 {
				return s[i+1 : i+1+j]
			}
			return ""
		}
		i++
	}
	return ""
}

// bang reads what follows "<!": a comment, a CDATA section or a directive.
func (d *Decoder) bang() (Token, error) {
	rest := d.src[d.pos:]
	switch {
	case bytes.HasPrefix(rest, []byte("--")):
		d.pos += 2
		end := bytes.Index(d.src[d.pos:], []byte("--"))
		if end < 0 {
			d.pos = len(d.src)
			return Token{}, d.fail("unexpected EOF")
		}
		d.pos += end + 2
		if d.pos >= len(d.src) {
			return Token{}, d.fail("unexpected EOF")
		}
		d.pos++
		if d.src[d.pos-1] != '>' {
			return Token{}, d.fail(`invalid sequence "--" not allowed in comments`)
		}
		return Token{}, nil
	case len(rest) == 0 || len(rest) == 1 && rest[0] == '-':
		d.pos = len(d.src)
		return Token{}, d.fail("unexpected EOF")
	case rest[0] == '-':
		d.pos += 2
		return Token{}, d.fail("invalid sequence <!- not part of <!--")
	case rest[0] == '[':
		d.pos++
		for i := 0; i < len("CDATA["); i++ {
			if d.pos >= len(d.src) {
				return Token{}, d.fail("unexpected EOF")
			}
			d.pos++
			if d.src[d.pos-1] != "CDATA["[i] {
				return Token{}, d.fail("invalid <![ sequence")
			}
		}
		return d.cdata()
	}
	d.pos++ // the directive's first byte is its own, whatever it is (as encoding/xml reads it)
	return Token{}, d.directive()
}

func (d *Decoder) cdata() (Token, error) {
	end := bytes.Index(d.src[d.pos:], []byte("]]>"))
	if end < 0 {
		d.pos = len(d.src)
		return Token{}, d.fail("unexpected EOF in CDATA section")
	}
	d.buf = appendNewlines(d.buf[:0], d.src[d.pos:d.pos+end])
	d.pos += end + 3
	if err := d.checkChars(d.buf); err != nil {
		return Token{}, err
	}
	return Token{Kind: CharData, Text: d.buf}, nil
}

// directive passes over <!DOCTYPE ...> and the like: nested <...> counted, quoted text and
// comments passed over.
func (d *Decoder) directive() error {
	var quote byte
	depth := 0
	for ; d.pos < len(d.src); d.pos++ {
		c := d.src[d.pos]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '>':
			if depth == 0 {
				d.pos++
				return nil
			}
			depth--
		case c == '<':
			if !bytes.HasPrefix(d.src[d.pos:], []byte("<!--")) {
				depth++
				continue
			}
			end := bytes.Index(d.src[d.pos+4:], []byte("-->"))
			if end < 0 {
				d.pos = len(d.src)
				return d.fail("unexpected EOF")
			}
			d.pos += 4 + end + 2
		}
	}
	return d.fail("unexpected EOF")
}

// text reads character data up to "<" (quote < 0) or up to the closing quote of an
// attribute value, decoding entities and line ends.
func (d *Decoder) text(quote int) ([]byte, error) {
	d.buf = d.buf[:0]
	for d.pos < len(d.src) {
		c := d.src[d.pos]
		switch {
		case quote >= 0 && c == byte(quote):
			d.pos++
			return d.buf, d.checkChars(d.buf)
		case c == '<':
			if quote >= 0 {
				d.pos++
				return nil, d.fail("unescaped < inside quoted string")
			}
			return d.buf, d.checkChars(d.buf)
		case c == '>' && quote < 0 && bytes.HasSuffix(d.src[:d.pos], []byte("]]")):
			d.pos++
			return nil, d.fail("unescaped ]]> not in CDATA section")
		case c == '&':
			if err := d.entity(); err != nil {
				return nil, err
			}
			continue
		case c == '\r':
			d.buf = append(d.buf, '\n')
			if d.pos+1 < len(d.src) && d.src[d.pos+1] == '\n' {
				d.pos++
			}
		default:
			d.buf = append(d.buf, c)
		}
		d.pos++
	}
	if quote >= 0 {
		return nil, d.fail("unexpected EOF")
	}
	return d.buf, d.checkChars(d.buf)
}

// entity reads "&...;" at pos into buf: the character it stands for, or (not strict) itself.
func (d *Decoder) entity() error {
	from := d.pos
	d.pos++
	end := d.pos
	for end < len(d.src) && (isNameByte(d.src[end]) || d.src[end] == '#' || d.src[end] >= utf8.RuneSelf) {
		end++
	}
	ref := string(d.src[d.pos:end])
	if end < len(d.src) && d.src[end] == ';' {
		if r, ok := entityRune(ref); ok {
			d.buf = utf8.AppendRune(d.buf, r)
			d.pos = end + 1
			return nil
		}
	}
	if !d.Strict {
		d.buf = append(d.buf, '&')
		return nil
	}
	ent := string(d.src[from:min(end+1, len(d.src))])
	if end >= len(d.src) {
		d.pos = end
		return d.fail("unexpected EOF")
	}
	if d.src[end] != ';' {
		ent = ent[:len(ent)-1] + " (no semicolon)"
	}
	d.pos = end + 1
	return d.fail("invalid character entity " + ent)
}

// entityRune is the character of a predefined or numeric entity.
func entityRune(ref string) (rune, bool) {
	switch ref {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "apos":
		return '\'', true
	case "quot":
		return '"', true
	}
	num, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return 0, false
	}
	base := 10
	if hex, ok := strings.CutPrefix(num, "x"); ok {
		num, base = hex, 16
	}
	n, err := strconv.ParseUint(num, base, 64)
	if err != nil || num == "" || num[0] == '+' || n > utf8.MaxRune {
		return 0, false
	}
	if n >= 0xD800 && n <= 0xDFFF {
		return utf8.RuneError, true // as string(rune(n)) gives
	}
	return rune(n), true
}

// checkChars refuses invalid UTF-8 and the characters XML does not allow.
func (d *Decoder) checkChars(b []byte) error {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			return d.fail("invalid UTF-8")
		}
		b = b[size:]
		if !(r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
			r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
			return d.fail(fmt.Sprintf("illegal character code %U", r))
		}
	}
	return nil
}

// name reads an XML name: ASCII name bytes and any non-ASCII character, as valid UTF-8,
// with at most one colon.
func (d *Decoder) name() (string, bool) {
	s, ok := d.piTarget()
	return s, ok && strings.Count(s, ":") <= 1
}

// piTarget reads a name, any number of colons in it (a processing instruction's target).
func (d *Decoder) piTarget() (string, bool) {
	from := d.pos
	for d.pos < len(d.src) && (isNameByte(d.src[d.pos]) || d.src[d.pos] >= utf8.RuneSelf) {
		d.pos++
	}
	b := d.src[from:d.pos]
	if len(b) == 0 || !utf8.Valid(b) || b[0] >= '0' && b[0] <= '9' || b[0] == '-' || b[0] == '.' {
		return "", false
	}
	return string(b), true
}

// failName reports a missing or malformed name.
func (d *Decoder) failName(msg string) error {
	if d.pos >= len(d.src) {
		return d.fail("unexpected EOF")
	}
	return d.fail(msg)
}

func (d *Decoder) space() {
	for d.pos < len(d.src) {
		switch d.src[d.pos] {
		case ' ', '\r', '\n', '\t':
			d.pos++
		default:
			return
		}
	}
}

func (d *Decoder) peek() byte {
	if d.pos < len(d.src) {
		return d.src[d.pos]
	}
	return 0
}

// local is a name without its prefix, as encoding/xml splits one ("h:rate" → "rate"; ":a",
// "a:" stay whole).
func local(name string) string {
	if p, l, ok := strings.Cut(name, ":"); ok && p != "" && l != "" {
		return l
	}
	return name
}

// appendNewlines appends s with "\r\n" and a lone "\r" written "\n".
func appendNewlines(b, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' {
			b = append(b, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			continue
		}
		b = append(b, s[i])
	}
	return b
}

func isNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-'
}
