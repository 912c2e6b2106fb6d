package fx

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"testing"

	"github.com/cgt-tools/cgt/cgt/internal/xmlscan"
)

// decodeBoth reads the first <exchangeRate> of doc with readRate and with encoding/xml's
// Decoder.DecodeElement, which readRate stands for: the fields, whether it failed and, when it
// did not, where the decoder stopped.
func decodeBoth(doc string) (hand, want string) {
	result := func(x xmlRate, err error, line, col int) string {
		if err != nil {
			return fmt.Sprintf("%q failed", x)
		}
		return fmt.Sprintf("%q at %d:%d", x, line, col)
	}
	hand = func() string {
		d := xmlscan.NewDecoder([]byte(doc))
		for {
			tok, err := d.Token()
			if err != nil {
				return "error before the entry"
			}
			if tok.Kind == xmlscan.StartElement && tok.Name == "exchangeRate" {
				x, err := readRate(d)
				line, col := d.InputPos()
				return result(x, err, line, col)
			}
		}
	}()
	want = func() string {
		d := xml.NewDecoder(bytes.NewReader([]byte(doc)))
		for {
			tok, err := d.Token()
			if err != nil {
				return "error before the entry"
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "exchangeRate" {
				var x xmlRate
				err := d.DecodeElement(&x, &se)
				line, col := d.InputPos()
				return result(x, err, line, col)
			}
		}
	}()
	return hand, want
}

var rateDocs = []string{
	`<exchangeRate><countryName>USA</countryName><currencyName>Dollar</currencyName><currencyCode>USD</currencyCode><rateNew>1.2745</rateNew></exchangeRate>`,
	`<exchangeRate><countryName> Côte d&apos;Ivoire &amp; co </countryName><currencyCode><![CDATA[XOF]]></currencyCode><rateNew>1<!-- c -->.5</rateNew></exchangeRate>`,
	`<exchangeRate><rateNew>1</rateNew><rateNew>2</rateNew><currencyCode>EUR</currencyCode><currencyCode/></exchangeRate>`,
	`<exchangeRate><rateNew>1<b>9</b>.2<?pi x?></rateNew><x><rateNew>7</rateNew></x>text<currencyCode>A<c><d/></c>B</currencyCode></exchangeRate>`,
	`<exchangeRate xmlns:h="urn:x"><h:rateNew>3</h:rateNew><currencyCode xmlns="urn:y">JPY</currencyCode></exchangeRate>`,
	`<exchangeRate><rateNew>1</rateNew>`,
	`<exchangeRate><rateNew>1</rate></exchangeRate>`,
	`<exchangeRate><rateNew>1 &bogus; </rateNew></exchangeRate>`,
	`<exchangeRate><rateNew>1</rateNew><x><y></x></exchangeRate>`,
	`<exchangeRate/>`,
	`<exchangeRate>
	  <countryName>UK</countryName>
	  <rateNew>
	    0.9
	  </rateNew>
	</exchangeRate><exchangeRate><rateNew>2</rateNew></exchangeRate>`,
}

// TestReadRateAsDecodeElement: readRate reads every entry (well-formed or not) as
// DecodeElement into xmlRate does: the fields, the error and where the decoder stops.
func TestReadRateAsDecodeElement(t *testing.T) {
	for _, doc := range rateDocs {
		if hand, want := decodeBoth(doc); hand != want {
			t.Errorf("%s:\n got %s\nwant %s", doc, hand, want)
		}
	}
}

func FuzzReadRateAsDecodeElement(f *testing.F) {
	for _, doc := range rateDocs {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if hand, want := decodeBoth(doc); hand != want {
			t.Errorf("%q:\n got %s\nwant %s", doc, hand, want)
		}
	})
}
