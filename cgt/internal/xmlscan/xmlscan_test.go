package xmlscan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The tokens of a document as encoding/xml gives them and as Decoder does, written one per
// line with the offset after each, adjacent character data joined (a comment between two
// runs of text splits them in one and not the other), then "EOF" or "error".
func stdTokens(doc string, strict bool) (lines []string, errMsg string) {
	d := xml.NewDecoder(bytes.NewReader([]byte(doc)))
	d.Strict = strict
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return tokenLines(func() (Token, int64, error) {
		tok, err := d.Token()
		var t Token
		switch x := tok.(type) {
		case xml.StartElement:
			t = Token{Kind: StartElement, Name: x.Name.Local}
			for _, a := range x.Attr {
				t.Attr = append(t.Attr, Attr{a.Name.Local, a.Value})
			}
		case xml.EndElement:
			t = Token{Kind: EndElement, Name: x.Name.Local}
		case xml.CharData:
			t = Token{Kind: CharData, Text: x}
		}
		return t, d.InputOffset(), err
	})
}

func ourTokens(doc string, strict bool) (lines []string, errMsg string) {
	d := NewDecoder([]byte(doc))
	d.Strict = strict
	d.Charset = func(_ string, rest []byte) ([]byte, error) { return rest, nil }
	return tokenLines(func() (Token, int64, error) {
		t, err := d.Token()
		return t, d.InputOffset(), err
	})
}

// tokenLines writes the tokens next gives (Kind 0 for one passed over) as stdTokens says.
func tokenLines(next func() (Token, int64, error)) (lines []string, errMsg string) {
	var text []byte
	var at int64
	flush := func() {
		if text != nil {
			lines = append(lines, fmt.Sprintf("T %q @%d", text, at))
			text = nil
		}
	}
	for i := 0; i < 10000; i++ {
		t, off, err := next()
		if err == io.EOF {
			flush()
			return append(lines, "EOF"), ""
		}
		if err != nil {
			flush()
			return append(lines, "error"), err.Error()
		}
		switch t.Kind {
		case StartElement:
			flush()
			var b strings.Builder
			for _, a := range t.Attr {
				fmt.Fprintf(&b, "[%s=%q]", a.Name, a.Value)
			}
			lines = append(lines, fmt.Sprintf("S %s %s @%d", t.Name, b.String(), off))
		case EndElement:
			flush()
			lines = append(lines, fmt.Sprintf("E %s @%d", t.Name, off))
		case CharData:
			text = append(append([]byte{}, text...), t.Text...)
			at = off
		}
	}
	return append(lines, "too long"), ""
}

// compare holds Decoder to encoding/xml on doc: the same tokens at the same offsets, and an
// error where it gives one. The one leniency: a name whose non-ASCII characters XML's name
// classes refuse is read as a name.
func compare(t *testing.T, doc string) {
	t.Helper()
	for _, strict := range []bool{true, false} {
		want, wantErr := stdTokens(doc, strict)
		got, gotErr := ourTokens(doc, strict)
		if !strict {
			// Not strict, only the first element start is used (to recognise a file):
			// encoding/xml's HTML repairs after it are not copied.
			w, g := firstStart(want), firstStart(got)
			if w != "" && g != "" && w != g {
				t.Errorf("not strict, %q:\n got %s\nwant %s", doc, g, w)
			}
			continue
		}
		if strings.Contains(wantErr, "invalid XML name") {
			// What came before the name must match; after it, anything (text just before it
			// may go on after it).
			before := want[:len(want)-1]
			if n := len(before); n > 0 && strings.HasPrefix(before[n-1], "T ") {
				before = before[:n-1]
			}
			if len(got) < len(before) || strings.Join(got[:len(before)], "\n") != strings.Join(before, "\n") {
				t.Errorf("%q:\n got %s\nwant %s first", doc, strings.Join(got, " | "), strings.Join(before, " | "))
			}
			continue
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q:\n got %s (%s)\nwant %s (%s)", doc, strings.Join(got, " | "), gotErr, strings.Join(want, " | "), wantErr)
		}
	}
}

func firstStart(lines []string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, "S ") {
			return l
		}
		if l == "error" {
			return ""
		}
	}
	return ""
}

var docs = []string{
	``,
	`<a/>`,
	`<?xml version="1.0" encoding="UTF-8"?>` + "\n<a x='1' y=\"2\">t</a>\n",
	`<a>x &amp; &lt;&gt;&apos;&quot; &#65;&#x42;&#x1F600; y</a>`,
	"<a>one\r\ntwo\rthree\n</a>",
	`<a b="x&#10;y	z"/>`,
	`<a><![CDATA[<not> & tags]]>after</a>`,
	`<a>x<!-- c -->y<?pi data?>z</a>`,
	`<!DOCTYPE a [<!ENTITY e "v"> <!-- c > -->]><a/>`,
	`<h:a xmlns:h="urn:x"><h:b h:c="1"/></h:a>`,
	`<FlexQueryResponse><FlexStatements><FlexStatement accountId="U1"><Trades><Trade symbol="AAPL" quantity="10"/></Trades></FlexStatement></FlexStatements></FlexQueryResponse>`,
	`<a>`,
	`<a></b>`,
	`</a>`,
	`<a x=1/>`,
	`<a x>`,
	`<a>&nbsp;</a>`,
	`<a>&amp</a>`,
	`<a>&#0;</a>`,
	`<a>&#xD800;</a>`,
	`<a>]]></a>`,
	`<a x="<"/>`,
	"<a>\xff</a>",
	"<a>\x01</a>",
	`<a><!-- a -- b --></a>`,
	`<a><![CDATA[x</a>`,
	`<a><!-x --></a>`,
	`<a><![CDAT[x]]></a>`,
	`<!>x>`,
	`<?xml version="1.1"?><a/>`,
	`<a/x>`,
	`<1a/>`,
	`<a:b:c/>`,
	`<a></a >`,
	`<a></a x>`,
	`<a x="1"y="2"/>`,
	`text before<a/>text after`,
	`<a/><b/>`,
	`<a>&#12a;</a>`,
	`<a>&#x;</a>`,
	`<é/>`,
	`<a b:c="1" :d="2" e:="3"/>`,
	`<a:b></c:b>`,
}

func TestAsEncodingXML(t *testing.T) {
	for _, doc := range docs {
		compare(t, doc)
	}
}

func FuzzAsEncodingXML(f *testing.F) {
	for _, doc := range docs {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) { compare(t, doc) })
}

func TestCharsetConvertsTheRest(t *testing.T) {
	doc := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>Bol\xedvar</a>"
	d := NewDecoder([]byte(doc))
	var label string
	d.Charset = func(l string, rest []byte) ([]byte, error) {
		label = l
		var out []byte
		for _, c := range rest {
			out = append(out, string(rune(c))...)
		}
		return out, nil
	}
	var text string
	for {
		tok, err := d.Token()
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		if tok.Kind == CharData {
			text += string(tok.Text)
		}
	}
	if label != "ISO-8859-1" || text != "Bolívar" {
		t.Errorf("label %q, text %q", label, text)
	}
}

func TestCharsetRefused(t *testing.T) {
	d := NewDecoder([]byte(`<?xml version="1.0" encoding="EBCDIC"?><a/>`))
	_, err := d.Token()
	if err == nil || !strings.Contains(err.Error(), "EBCDIC") {
		t.Errorf("err %v", err)
	}
	d = NewDecoder([]byte(`<?xml version="1.0" encoding="EBCDIC"?><a/>`))
	d.Charset = func(string, []byte) ([]byte, error) { return nil, errors.New("no such encoding") }
	if _, err = d.Token(); err == nil || !strings.Contains(err.Error(), "no such encoding") {
		t.Errorf("err %v", err)
	}
}

func TestSyntaxErrorLineAndPos(t *testing.T) {
	d := NewDecoder([]byte("<a>\n<b>\n</c>"))
	var err error
	for err == nil {
		_, err = d.Token()
	}
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 || !strings.Contains(se.Msg, "<b> closed by </c>") {
		t.Errorf("err %v", err)
	}
	d = NewDecoder([]byte("<a>\n  <b/>"))
	for i := 0; i < 3; i++ {
		if _, err := d.Token(); err != nil {
			t.Fatal(err)
		}
	}
	if line, col := d.InputPos(); line != 2 || col != 7 {
		t.Errorf("InputPos %d:%d, want 2:7", line, col)
	}
}

func TestSkip(t *testing.T) {
	d := NewDecoder([]byte(`<r><x><y>1</y><z/></x><w>2</w></r>`))
	d.Token() // r
	d.Token() // x
	if err := d.Skip(); err != nil {
		t.Fatal(err)
	}
	tok, _ := d.Token()
	if tok.Kind != StartElement || tok.Name != "w" {
		t.Errorf("after Skip: %+v", tok)
	}
}

// flexLike is a Flex statement of n trades of 40 attributes each, about 1.2 KB a trade.
func flexLike(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<FlexQueryResponse><FlexStatements><FlexStatement accountId=\"U1\"><Trades>\n")
	for i := range n {
		b.WriteString("<Trade")
		for a := range 40 {
			fmt.Fprintf(&b, ` attribute%d="value %d &amp; %d"`, a, i, a)
		}
		b.WriteString(" />\n")
	}
	b.WriteString("</Trades></FlexStatement></FlexStatements></FlexQueryResponse>\n")
	return b.Bytes()
}

func BenchmarkTokens(b *testing.B) {
	doc := flexLike(20000)
	b.Run("xmlscan", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			d := NewDecoder(doc)
			for {
				if _, err := d.Token(); err != nil {
					break
				}
			}
		}
	})
	b.Run("encoding_xml", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			d := xml.NewDecoder(bytes.NewReader(doc))
			for {
				if _, err := d.Token(); err != nil {
					break
				}
			}
		}
	})
}

// InputPos after every token of a document on one long line: the columns count from the
// line's start, which is found once, not again for every call.
func TestInputPosOnOneLongLine(t *testing.T) {
	doc := "<r>\n" + strings.Repeat("<e/>", 50000) + "</r>"
	d := NewDecoder([]byte(doc))
	d.Token() // r
	for i := 1; i <= 50000; i++ {
		d.Token() // <e/>: its start, then its end
		d.Token()
		if line, col := d.InputPos(); line != 2 || col != 4*i+1 {
			t.Fatalf("after element %d: %d:%d, want 2:%d", i, line, col, 4*i+1)
		}
	}
}

// Only the first declaration's encoding converts the document.
func TestCharsetOnce(t *testing.T) {
	d := NewDecoder([]byte(strings.Repeat(`<?xml version="1.0" encoding="latin1"?>`, 3) + "<a/>"))
	calls := 0
	d.Charset = func(_ string, rest []byte) ([]byte, error) { calls++; return rest, nil }
	for {
		if _, err := d.Token(); err != nil {
			break
		}
	}
	if calls != 1 {
		t.Errorf("Charset called %d times, want once", calls)
	}
}
