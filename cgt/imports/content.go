package imports

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/internal/xmlscan"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// sniffLines is how many non-blank lines a detector sees: enough for the preambles of the
// Hargreaves Lansdown and Vanguard reports and the statement sections of IBKR's CSV.
const sniffLines = 40

// Content is what detectors look at: the first lines of a text file, the root element of an
// XML document, or the keys of a JSON object.
type Content struct {
	// Lines are the first non-blank lines, BOMs and line ends removed, decoded to UTF-8.
	Lines []string
	// Header is the first of Lines ("" for an empty file).
	Header string
	// XMLRoot is the local name of the root element when the content is XML.
	XMLRoot string
	// XMLAttrs are the root element's attributes when the content is XML.
	XMLAttrs map[string]string
	// JSONKeys are the top-level keys when the content is a JSON object (nil otherwise).
	JSONKeys []string
}

// HasLine reports whether one of the sniffed lines starts with prefix (case-insensitive,
// after leading blanks).
func (c *Content) HasLine(prefix string) bool {
	for _, l := range c.Lines {
		if hasPrefixFold(strings.TrimLeft(l, " \t"), prefix) {
			return true
		}
	}
	return false
}

// HasJSONKey reports whether the JSON object has the top-level key.
func (c *Content) HasJSONKey(key string) bool {
	for _, k := range c.JSONKeys {
		if k == key {
			return true
		}
	}
	return false
}

// Sniff reads what the detectors need from the start of src.
func Sniff(src []byte) *Content {
	text := decodeText(src[:min(len(src), 64<<10)])
	c := &Content{}
	trimmed := bytes.TrimLeft(text, " \t\r\n")
	switch {
	case len(trimmed) > 0 && trimmed[0] == '<':
		c.XMLRoot, c.XMLAttrs = xmlRoot(trimmed)
	case len(trimmed) > 0 && trimmed[0] == '{':
		c.JSONKeys = jsonKeys(decodeText(src))
	}
	for len(text) > 0 && len(c.Lines) < sniffLines {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		c.Lines = append(c.Lines, string(line))
	}
	if len(c.Lines) > 0 {
		c.Header = c.Lines[0]
	}
	return c
}

// decodeText strips UTF-8 byte order marks (some exports repeat them), decodes UTF-16 (what
// spreadsheet programs save as "Unicode text"), reads a file that is not valid UTF-8 as
// Windows-1252, the encoding of Hargreaves Lansdown's CSV (£ is 0xA3), and turns the CR-only
// line ends of "CSV (Macintosh)" into line feeds. Decoded text passes through unchanged.
func decodeText(src []byte) []byte {
	if u, ok := fromUTF16(src); ok {
		src = u
	}
	for bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		src = src[3:]
	}
	if !utf8.Valid(src) {
		// A sniff may cut a multi-byte character at its end: decide on the rest.
		if cut := validPrefix(src); len(src)-cut >= utf8.UTFMax || !utf8.Valid(src[:cut]) {
			src = fromWindows1252(src)
		}
	}
	return crOnly(src)
}

// crOnly turns the line ends of a file whose lines end in CR alone into LF: a file with a CR
// and no LF at all. Other files are returned as they are.
func crOnly(src []byte) []byte {
	if bytes.IndexByte(src, '\r') < 0 || bytes.IndexByte(src, '\n') >= 0 {
		return src
	}
	return bytes.ReplaceAll(src, []byte{'\r'}, []byte{'\n'})
}

// fromUTF16 decodes UTF-16 text, told by its byte order mark or, without one, by the zero bytes
// of ASCII text in every other position. ok is false for text that is not UTF-16.
func fromUTF16(src []byte) (out []byte, ok bool) {
	var big bool
	switch {
	case len(src) >= 2 && src[0] == 0xFF && src[1] == 0xFE:
		src = src[2:]
	case len(src) >= 2 && src[0] == 0xFE && src[1] == 0xFF:
		src, big = src[2:], true
	case len(src) >= 4 && src[0] != 0 && src[1] == 0 && src[2] != 0 && src[3] == 0:
	case len(src) >= 4 && src[0] == 0 && src[1] != 0 && src[2] == 0 && src[3] != 0:
		big = true
	default:
		return nil, false
	}
	units := make([]uint16, len(src)/2)
	for i := range units {
		if big {
			units[i] = uint16(src[2*i])<<8 | uint16(src[2*i+1])
		} else {
			units[i] = uint16(src[2*i]) | uint16(src[2*i+1])<<8
		}
	}
	out = make([]byte, 0, len(units)+len(units)/4)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// cp1252High are the characters Windows-1252 puts at 0x80–0x9F (Latin-1 has controls there);
// 0 marks the five bytes it leaves undefined, which become U+FFFD.
var cp1252High = [32]rune{
	'€', 0, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0, 'Ž', 0,
	0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
}

// fromWindows1252 decodes Windows-1252 text (what spreadsheet programs on Windows save as
// "CSV") into UTF-8: bytes from 0xA0 are Latin-1, 0x80–0x9F are looked up above.
func fromWindows1252(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(src)/8)
	for _, c := range src {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			r := cp1252High[c-0x80]
			if r == 0 {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return out
}

func validPrefix(b []byte) int {
	i := 0
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return i
}

// newXMLDecoder reads a document decodeText has already turned into UTF-8, whatever
// encoding its declaration names (UTF-16, say).
func newXMLDecoder(src []byte) *xmlscan.Decoder {
	d := xmlscan.NewDecoder(src)
	d.Charset = func(_ string, rest []byte) ([]byte, error) { return rest, nil }
	return d
}

func xmlRoot(src []byte) (string, map[string]string) {
	d := newXMLDecoder(src)
	d.Strict = false
	for {
		tok, err := d.Token()
		if err != nil {
			return "", nil
		}
		if tok.Kind == xmlscan.StartElement {
			attrs := make(map[string]string, len(tok.Attr))
			for _, a := range tok.Attr {
				attrs[a.Name] = a.Value
			}
			return tok.Name, attrs
		}
	}
}

func jsonKeys(src []byte) []string {
	d := json.NewDecoder(bytes.NewReader(src))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	keys := []string{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return keys
		}
		k, ok := tok.(string)
		if !ok {
			return keys
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			if err == io.ErrUnexpectedEOF {
				return keys
			}
			return keys
		}
	}
	return keys
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// headerHas reports whether a CSV header line names every column given (case-insensitive,
// quotes and blanks around names ignored), in any order.
func headerHas(line string, names ...string) bool {
	fields := splitHeader(line)
	for _, n := range names {
		found := false
		for _, f := range fields {
			if strings.EqualFold(f, n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// headerStarts reports whether a CSV header line begins with the columns given, in order.
func headerStarts(line string, names ...string) bool {
	fields := splitHeader(line)
	if len(fields) < len(names) {
		return false
	}
	for i, n := range names {
		if !strings.EqualFold(fields[i], n) {
			return false
		}
	}
	return true
}

// splitHeader splits a header line on commas, removing quotes and surrounding blanks. Header
// names hold no commas in any supported format.
func splitHeader(line string) []string {
	parts := strings.Split(line, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), `"`))
	}
	return parts
}
