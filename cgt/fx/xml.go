package fx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/internal/xmlscan"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/shopspring/decimal"
)

// maxXMLSize bounds what ReadMonthly will read; HMRC's monthly files are about 40 KB.
const maxXMLSize = 16 << 20

// xmlExample is the shape of HMRC's monthly file, quoted in error hints.
const xmlExample = `<exchangeRateMonthList Period="01/Mar/2024 to 31/Mar/2024"><exchangeRate><countryName>USA</countryName><countryCode>US</countryCode><currencyName>Dollar</currencyName><currencyCode>USD</currencyCode><rateNew>1.2745</rateNew></exchangeRate>...</exchangeRateMonthList>`

const xmlHint = "Use HMRC's monthly exchange-rate file in XML form, unchanged (root element exchangeRateMonthList with a Period attribute)."

// Month is one HMRC monthly file, read.
type Month struct {
	Period string // "2024-03"
	Rates  []Rate // one per currency, sorted by currency code
	// Notes records what the reader decided on the file's behalf: entries skipped because
	// they carry no currency or no rate, and currencies whose countries were published with
	// different rates (the rate most of those countries carry is kept). Callers may show them
	// as warnings.
	Notes []string
}

// ReadMonthlyXML reads one of HMRC's monthly exchange-rate XML files and returns its period
// ("2024-03") and one rate per currency. See ReadMonthly for the rules it applies.
func ReadMonthlyXML(r io.Reader) (period string, rates []Rate, err error) {
	m, err := ReadMonthly(r)
	return m.Period, m.Rates, err
}

// ReadMonthly reads one of HMRC's monthly exchange-rate XML files. Several countries share a
// currency (the euro, the East Caribbean dollar); the file lists it once per country and the
// result keeps one rate per currency. When those countries carry different rates the most
// common rate wins and a note says so; a tie is an error, since neither can be preferred.
// Failures are *model.Error values with code parse_error.
func ReadMonthly(r io.Reader) (Month, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxXMLSize+1))
	if err != nil {
		return Month{}, parseError(0, fmt.Sprintf("reading the HMRC rate file: %v", err))
	}
	if len(data) > maxXMLSize {
		return Month{}, parseError(0, fmt.Sprintf("the HMRC rate file is larger than %d MiB; a monthly file is about 40 KB", maxXMLSize>>20))
	}
	data, err = toUTF8(data)
	if err != nil {
		return Month{}, err
	}
	return decodeMonth(data)
}

// toUTF8 drops a UTF-8 byte-order mark and converts UTF-16 (with a byte-order mark, as
// Windows editors save it) to UTF-8, so the XML decoder sees UTF-8.
func toUTF8(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:], nil
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return utf16ToUTF8(data[2:], true)
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return utf16ToUTF8(data[2:], false)
	}
	return data, nil
}

func utf16ToUTF8(b []byte, bigEndian bool) ([]byte, error) {
	if len(b)%2 != 0 {
		return nil, parseError(0, "the HMRC rate file is UTF-16 with an odd number of bytes: it is truncated")
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		hi, lo := b[2*i], b[2*i+1]
		if !bigEndian {
			hi, lo = lo, hi
		}
		units[i] = uint16(hi)<<8 | uint16(lo)
	}
	return []byte(string(utf16.Decode(units))), nil
}

// fromCharset lets the decoder accept the single-byte encodings an edited file may declare.
// Only ASCII matters to the result (codes and rates), so Latin-1 decoding serves them all.
func fromCharset(charset string, rest []byte) ([]byte, error) {
	switch strings.ToLower(charset) {
	case "utf-16", "utf-16le", "utf-16be":
		return rest, nil // already converted by toUTF8
	case "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1", "latin-1", "windows-1252", "cp1252", "iso-8859-15":
		out := make([]byte, 0, len(rest))
		for _, c := range rest {
			out = utf8.AppendRune(out, rune(c))
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported character encoding %q (save the file as UTF-8)", charset)
}

// newDecoder reads an HMRC file, converted to UTF-8 by toUTF8.
func newDecoder(data []byte) *xmlscan.Decoder {
	d := xmlscan.NewDecoder(data)
	d.Charset = fromCharset
	return d
}

// xmlRate is one <exchangeRate> entry, one per country.
type xmlRate struct {
	Country  string `xml:"countryName"`
	Currency string `xml:"currencyCode"`
	Rate     string `xml:"rateNew"`
}

// entry is an xmlRate with its line, cleaned.
type entry struct {
	_ model.NotComparable

	line     int
	country  string
	currency string
	rate     decimal.Decimal
	text     string
}

func decodeMonth(data []byte) (Month, error) {
	d := newDecoder(data)
	root, err := readRoot(d)
	if err != nil {
		return Month{}, err
	}
	var m Month
	if m.Period, err = periodAttr(d, root); err != nil {
		return Month{}, err
	}
	entries, notes, err := readEntries(d)
	if err != nil {
		return Month{}, err
	}
	m.Notes = notes
	if len(entries) == 0 {
		return Month{}, parseError(0, fmt.Sprintf("the HMRC rate file for %s contains no exchange rates", m.Period))
	}
	m.Rates, notes, err = onePerCurrency(m.Period, entries)
	m.Notes = append(m.Notes, notes...)
	return m, err
}

// readRoot skips the prolog and returns the root element, which must be exchangeRateMonthList.
func readRoot(d *xmlscan.Decoder) (xmlscan.Token, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return tok, xmlError(d, err)
		}
		if tok.Kind == xmlscan.StartElement {
			if tok.Name != "exchangeRateMonthList" {
				line, _ := d.InputPos()
				return tok, parseError(line, fmt.Sprintf("not an HMRC monthly exchange-rate file: the root element is <%s>, expected <exchangeRateMonthList>", tok.Name))
			}
			return tok, nil
		}
	}
}

// periodAttr reads the root's Period="01/Mar/2024 to 31/Mar/2024" as "2024-03".
func periodAttr(d *xmlscan.Decoder, root xmlscan.Token) (string, error) {
	line, _ := d.InputPos()
	for _, a := range root.Attr {
		if strings.EqualFold(a.Name, "Period") {
			p, ok := parseMonthRange(a.Value)
			if !ok {
				return "", parseError(line, fmt.Sprintf("the file's Period %q is not one whole calendar month such as \"01/Mar/2024 to 31/Mar/2024\"", clip(a.Value)))
			}
			return p, nil
		}
	}
	return "", parseError(line, "the <exchangeRateMonthList> element has no Period attribute, so the month of its rates is unknown")
}

// parseMonthRange accepts "01/Mar/2024 to 31/Mar/2024" (first to last day of one month).
func parseMonthRange(s string) (string, bool) {
	f := strings.Fields(s)
	if len(f) != 3 || !strings.EqualFold(f[1], "to") {
		return "", false
	}
	from, err1 := time.Parse("2/Jan/2006", f[0])
	to, err2 := time.Parse("2/Jan/2006", f[2])
	if err1 != nil || err2 != nil || from.Day() != 1 || from.Year() < 1000 {
		return "", false
	}
	last := from.AddDate(0, 1, -1)
	if !to.Equal(last) {
		return "", false
	}
	return monthOf(from.Year(), from.Month()).String(), true
}

// readEntries decodes every <exchangeRate> child of the root, skipping (with a note) entries
// that have no currency code or no rate.
func readEntries(d *xmlscan.Decoder) ([]entry, []string, error) {
	var entries []entry
	var notes []string
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err != nil {
			return nil, nil, xmlError(d, err)
		}
		switch tok.Kind {
		case xmlscan.EndElement:
			return entries, notes, nil // the root's end: its children are all read
		case xmlscan.StartElement:
			if tok.Name != "exchangeRate" {
				if err := d.Skip(); err != nil {
					return nil, nil, xmlError(d, err)
				}
				continue
			}
			x, err := readRate(d)
			if err != nil {
				return nil, nil, xmlError(d, err)
			}
			e, note, err := cleanEntry(line, x)
			if err != nil {
				return nil, nil, err
			}
			if note != "" {
				notes = append(notes, note)
				continue
			}
			entries = append(entries, e)
		}
	}
}

// readRate reads the <exchangeRate> element just started, as encoding/xml's
// Decoder.DecodeElement into an xmlRate would: the text directly inside its countryName,
// currencyCode and rateNew children (the last of each when one is repeated), any other
// element skipped. The tests hold it to DecodeElement.
func readRate(d *xmlscan.Decoder) (xmlRate, error) {
	var x xmlRate
	for {
		tok, err := d.Token()
		if err != nil {
			return x, err
		}
		switch tok.Kind {
		case xmlscan.EndElement:
			return x, nil
		case xmlscan.StartElement:
			var field *string
			switch tok.Name {
			case "countryName":
				field = &x.Country
			case "currencyCode":
				field = &x.Currency
			case "rateNew":
				field = &x.Rate
			}
			if field == nil {
				if err := d.Skip(); err != nil {
					return x, err
				}
				continue
			}
			text, err := elementText(d)
			if err != nil {
				return x, err
			}
			*field = text
		}
	}
}

// elementText reads the element just started to its end: the character data directly inside
// it, its child elements skipped.
func elementText(d *xmlscan.Decoder) (string, error) {
	var text []byte
	for {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		switch tok.Kind {
		case xmlscan.CharData:
			text = append(text, tok.Text...)
		case xmlscan.StartElement:
			if err := d.Skip(); err != nil {
				return "", err
			}
		case xmlscan.EndElement:
			return string(text), nil
		}
	}
}

// cleanEntry validates one entry. An empty code or rate gives a note (the entry is skipped);
// a malformed one is an error, because a wrong rate would silently give a wrong tax figure.
func cleanEntry(line int, x xmlRate) (entry, string, error) {
	e := entry{line: line, country: strings.TrimSpace(x.Country)}
	e.currency = strings.ToUpper(strings.TrimSpace(x.Currency))
	e.text = strings.TrimSpace(x.Rate)
	where := fmt.Sprintf("line %d (%s)", line, clip(e.country))
	switch {
	case e.currency == "":
		return e, fmt.Sprintf("%s: entry without a currency code skipped", where), nil
	case !ValidCurrencyCode(e.currency):
		return e, "", parseError(line, fmt.Sprintf("currency code %q for %s is not a three-letter ISO 4217 code", clip(x.Currency), clip(e.country)))
	case e.text == "":
		return e, fmt.Sprintf("%s: %s has no rate; entry skipped", where, e.currency), nil
	case !validRateText(e.text):
		return e, "", parseError(line, fmt.Sprintf("rate %q for %s (%s) is not a positive decimal number such as 1.2745", clip(e.text), e.currency, clip(e.country)))
	}
	e.rate = decimal.RequireFromString(e.text)
	return e, "", nil
}

// onePerCurrency keeps one rate per currency, sorted by code.
func onePerCurrency(period string, entries []entry) ([]Rate, []string, error) {
	byCurrency := map[string][]entry{}
	var codes []string
	for _, e := range entries {
		if _, seen := byCurrency[e.currency]; !seen {
			codes = append(codes, e.currency)
		}
		byCurrency[e.currency] = append(byCurrency[e.currency], e)
	}
	order.Ascending(codes)
	rates := make([]Rate, 0, len(codes))
	var notes []string
	for _, c := range codes {
		kept, note, err := agreedRate(byCurrency[c])
		if err != nil {
			return nil, nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		rates = append(rates, Rate{Currency: c, Period: period, PerGBP: kept.rate, Source: SourceFor(period)})
	}
	return rates, notes, nil
}

// agreedRate returns the rate the countries sharing a currency carry. Rates that differ only
// in trailing zeros are equal; the first one's text is kept.
func agreedRate(es []entry) (entry, string, error) {
	type group struct {
		first     entry
		countries []string
	}
	var groups []*group
	for _, e := range es {
		var g *group
		for _, h := range groups {
			if h.first.rate.Equal(e.rate) {
				g = h
				break
			}
		}
		if g == nil {
			g = &group{first: e}
			groups = append(groups, g)
		}
		g.countries = append(g.countries, e.country)
	}
	if len(groups) == 1 {
		return groups[0].first, "", nil
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].countries) > len(groups[j].countries) })
	var parts []string
	for _, g := range groups {
		parts = append(parts, fmt.Sprintf("%s for %s", g.first.text, strings.Join(g.countries, ", ")))
	}
	desc := fmt.Sprintf("%s is published with different rates: %s", es[0].currency, strings.Join(parts, "; "))
	if len(groups[0].countries) == len(groups[1].countries) {
		return entry{}, "", parseError(groups[1].first.line, desc+". No rate is carried by more countries than the others, so none can be chosen")
	}
	return groups[0].first, desc + fmt.Sprintf("; kept %s, the rate most of them carry", groups[0].first.text), nil
}

func xmlError(d *xmlscan.Decoder, err error) error {
	var se *xmlscan.SyntaxError
	if errors.As(err, &se) {
		return parseError(se.Line, "the HMRC rate file is not well-formed XML: "+se.Msg)
	}
	line, _ := d.InputPos()
	if err == io.EOF {
		return parseError(line, "the HMRC rate file ends before its <exchangeRateMonthList> element is complete")
	}
	return parseError(line, "the HMRC rate file could not be read as XML: "+err.Error())
}

func parseError(line int, msg string) *model.Error {
	return &model.Error{
		Code:     model.CodeParse,
		Message:  msg,
		Hint:     xmlHint,
		Examples: []string{xmlExample},
		Line:     line,
	}
}

// clip shortens user text quoted in a message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	for i := max; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return ""
}
