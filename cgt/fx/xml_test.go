package fx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/cgt-tools/cgt/cgt/model"
)

const entryFmt = `<exchangeRate><countryName>%s</countryName><countryCode>XX</countryCode><currencyName>x</currencyName><currencyCode>%s</currencyCode><rateNew>%s</rateNew></exchangeRate>`

func monthXML(period string, entries ...[3]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<exchangeRateMonthList Period="` + period + `">` + "\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "  "+entryFmt+"\n", e[0], e[1], e[2])
	}
	b.WriteString("</exchangeRateMonthList>\n")
	return b.String()
}

const march = "01/Mar/2024 to 31/Mar/2024"

func TestReadMonthlyXML_shared_currency(t *testing.T) {
	doc := monthXML(march,
		[3]string{"USA", "USD", "1.2745"},
		[3]string{"France", "EUR", "1.1700"},
		[3]string{"Germany", "EUR", "1.17"},
		[3]string{"Spain", "EUR", "1.1700"})
	period, rates, err := ReadMonthlyXML(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if period != "2024-03" || len(rates) != 2 || rates[0].Currency != "EUR" || rates[0].Text() != "1.1700" || rates[1].Text() != "1.2745" {
		t.Fatalf("period %s rates %+v", period, rates)
	}
	if rates[1].Source != SourceFor("2024-03") || rates[1].Period != "2024-03" {
		t.Errorf("rate = %+v", rates[1])
	}
}

func TestReadMonthly_disagreeing_countries(t *testing.T) {
	majority := monthXML(march,
		[3]string{"Antigua", "XCD", "3.9831"}, [3]string{"Montserrat", "XCD", "3.983"}, [3]string{"Grenada", "XCD", "3.9831"})
	m, err := ReadMonthly(strings.NewReader(majority))
	if err != nil || m.Rates[0].Text() != "3.9831" || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "Montserrat") {
		t.Fatalf("rates %+v notes %q err %v", m.Rates, m.Notes, err)
	}
	tie := monthXML(march, [3]string{"A", "XCD", "3.9831"}, [3]string{"B", "XCD", "3.983"})
	_, err = ReadMonthly(strings.NewReader(tie))
	if me := parseErr(t, err); !strings.Contains(me.Message, "XCD") {
		t.Errorf("tie message = %q", me.Message)
	}
}

func TestReadMonthly_skips_empty_entries(t *testing.T) {
	doc := monthXML(march, [3]string{"Nowhere", "", ""}, [3]string{"Somewhere", "ABC", " "}, [3]string{"USA", "usd", " 1.27 "})
	m, err := ReadMonthly(strings.NewReader(doc))
	if err != nil || len(m.Rates) != 1 || m.Rates[0].Currency != "USD" || m.Rates[0].Text() != "1.27" || len(m.Notes) != 2 {
		t.Fatalf("m = %+v, err %v", m, err)
	}
}

func TestReadMonthly_encodings(t *testing.T) {
	doc := monthXML(march, [3]string{"Venezuela", "VES", "46.1"})
	latin := strings.Replace(doc, "UTF-8", "ISO-8859-1", 1)
	latin = strings.Replace(latin, "Venezuela", "Venezuela Bol\xedvar", 1)
	cases := map[string][]byte{
		"utf8_bom": append([]byte{0xEF, 0xBB, 0xBF}, doc...),
		"utf16le":  utf16Bytes(strings.Replace(doc, "UTF-8", "UTF-16", 1), false),
		"utf16be":  utf16Bytes(strings.Replace(doc, "UTF-8", "UTF-16", 1), true),
		"latin1":   []byte(latin),
		"crlf":     []byte(strings.ReplaceAll(doc, "\n", "\r\n")),
		"no_decl":  []byte(doc[strings.Index(doc, "\n")+1:]),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			p, rates, err := ReadMonthlyXML(bytes.NewReader(b))
			if err != nil || p != "2024-03" || len(rates) != 1 || rates[0].Text() != "46.1" {
				t.Fatalf("%s %+v %v", p, rates, err)
			}
		})
	}
}

func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestReadMonthly_rejects(t *testing.T) {
	ok := [3]string{"USA", "USD", "1.27"}
	cases := map[string]struct{ doc, want string }{
		"empty":            {"", "ends before"},
		"not_xml":          {"currency,rate\nUSD,1.27\n", "ends before"},
		"html":             {"<html><body>Not found</body></html>", "root element is <html>"},
		"truncated":        {monthXML(march, ok)[:150], "not well-formed"},
		"no_period":        {strings.Replace(monthXML(march, ok), ` Period="`+march+`"`, "", 1), "no Period"},
		"bad_period":       {monthXML("March 2024", ok), "not one whole calendar month"},
		"part_month":       {monthXML("01/Mar/2024 to 15/Mar/2024", ok), "not one whole calendar month"},
		"two_months":       {monthXML("01/Mar/2024 to 30/Apr/2024", ok), "not one whole calendar month"},
		"no_rates":         {monthXML(march), "no exchange rates"},
		"bad_code":         {monthXML(march, [3]string{"USA", "US$", "1.27"}), "not a three-letter"},
		"negative_rate":    {monthXML(march, [3]string{"USA", "USD", "-1.27"}), "not a positive decimal"},
		"zero_rate":        {monthXML(march, [3]string{"USA", "USD", "0.000"}), "not a positive decimal"},
		"comma_rate":       {monthXML(march, [3]string{"USA", "USD", "1,27"}), "not a positive decimal"},
		"exponent_rate":    {monthXML(march, [3]string{"USA", "USD", "1e3"}), "not a positive decimal"},
		"unknown_charset":  {strings.Replace(monthXML(march, ok), "UTF-8", "EBCDIC", 1), "EBCDIC"},
		"undefined_entity": {monthXML(march, [3]string{"St Kitts &nbsp; Nevis", "XCD", "3.4"}), "not well-formed"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := ReadMonthlyXML(strings.NewReader(c.doc))
			if me := parseErr(t, err); !strings.Contains(me.Message, c.want) {
				t.Errorf("message %q does not contain %q", me.Message, c.want)
			}
		})
	}
}

func TestReadMonthly_error_line(t *testing.T) {
	doc := monthXML(march, [3]string{"USA", "USD", "1.27"}, [3]string{"Japan", "JPY", "abc"})
	_, _, err := ReadMonthlyXML(strings.NewReader(doc))
	if me := parseErr(t, err); me.Line != 4 || !strings.Contains(me.Message, "Japan") {
		t.Errorf("line %d message %q", me.Line, me.Message)
	}
}

func parseErr(t *testing.T, err error) *model.Error {
	t.Helper()
	me, ok := err.(*model.Error)
	if !ok || me.Code != model.CodeParse || me.Hint == "" || len(me.Examples) == 0 {
		t.Fatalf("error = %#v, want a parse_error with hint and example", err)
	}
	return me
}

// TestEmbeddedTable_is_current regenerates rates.csv from HMRC's files and compares it with
// the committed one byte for byte.
func TestEmbeddedTable_is_current(t *testing.T) {
	requireHMRCDir(t)
	names, err := filepath.Glob(filepath.Join(hmrcDir, "*.xml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no XML files in %s: %v", hmrcDir, err)
	}
	var months []Month
	for _, n := range names {
		months = append(months, readXMLFile(t, filepath.Base(n)))
	}
	want, err := EncodeTable(months)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(embeddedRates), want) {
		t.Fatalf("cgt/fx/rates.csv is stale (%d bytes; regenerated %d bytes); run: make fx", len(embeddedRates), len(want))
	}
}

func TestEncodeTable_rejects_gaps_and_repeats(t *testing.T) {
	m := func(p string) Month { return Month{Period: p} }
	for name, ms := range map[string][]Month{
		"none":   nil,
		"gap":    {m("2024-01"), m("2024-03")},
		"repeat": {m("2024-01"), m("2024-01")},
		"bad":    {m("2024-1")},
	} {
		if _, err := EncodeTable(ms); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzReadMonthlyXML(f *testing.F) {
	f.Add([]byte(monthXML(march, [3]string{"USA", "USD", "1.27"}, [3]string{"France", "EUR", "1.17"})))
	f.Add([]byte(monthXML("01/Feb/2024 to 29/Feb/2024", [3]string{"A", "XCD", "3.9"}, [3]string{"B", "XCD", "3.8"})))
	f.Add([]byte("<exchangeRateMonthList Period=\"\"><exchangeRate/></exchangeRateMonthList>"))
	f.Add([]byte{0xFF, 0xFE, '<', 0})
	if b, err := os.ReadFile(filepath.Join(hmrcDir, "2014-03.xml")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMonthly(bytes.NewReader(data))
		if err != nil {
			if _, ok := err.(*model.Error); !ok {
				t.Fatalf("error %T is not a *model.Error", err)
			}
			return
		}
		if _, ok := parsePeriod(m.Period); !ok || len(m.Rates) == 0 {
			t.Fatalf("accepted without a period or rates: %+v", m)
		}
		for _, r := range m.Rates {
			if !ValidCurrencyCode(r.Currency) || !r.PerGBP.IsPositive() || !validRateText(r.Text()) {
				t.Fatalf("accepted a bad rate %+v", r)
			}
		}
	})
}
