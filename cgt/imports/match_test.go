package imports

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// A matcher pairs a hand-written matcher with the regular expression it replaced: hand and
// expr give the same view of a string (the groups the importer reads, or nil for no match).
type matcher struct {
	name  string
	re    *regexp.Regexp
	hand  func(string) []string
	expr  func(re *regexp.Regexp, s string) []string
	cases map[string][]string // input → what the importer must read (nil: no match)
}

func groups(m []string, idx ...int) []string {
	if m == nil {
		return nil
	}
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = m[k]
	}
	return out
}

func yes(ok bool) []string {
	if ok {
		return []string{}
	}
	return nil
}

var matchers = []matcher{{
	name: "ajbellListing",
	re:   regexp.MustCompile(`\(\s*([A-Za-z]+)\s*:\s*([A-Za-z0-9.\-]+)\s*\)\s*$`),
	hand: func(s string) []string {
		at, tk, ok := ajbellListing(s)
		if !ok {
			return nil
		}
		return []string{fmt.Sprint(at), tk}
	},
	expr: func(re *regexp.Regexp, s string) []string {
		if m := re.FindStringSubmatchIndex(s); m != nil {
			return []string{fmt.Sprint(m[0]), s[m[4]:m[5]]}
		}
		return nil
	},
	cases: map[string][]string{
		"Vanguard LifeStrategy 60% (LSE:VMID)": {"26", "VMID"},
		"Fund ( lse : vmid.l ) ":               {"5", "vmid.l"},
		"Fund (LSE:BRK-B)\t\n":                 {"5", "BRK-B"},
		"A (b) (LSE:VOD)":                      {"6", "VOD"},
		"Fund (LSE:VMID) Acc":                  nil,
		"Fund (LSE VMID)":                      nil,
		"Fund (:VMID)":                         nil,
		"Fund (LSE:)":                          nil,
		"Fund (L5E:VMID)":                      nil,
		"Fund (LSE:VM_ID)":                     nil,
		"Fund (LSE:VMID":                       nil,
		"((LSE:X)":                             {"1", "X"},
		"Fund (LSE:VMID)\u00a0":                nil,
		"":                                     nil,
		"Fund (LSE:VMID)\v":                    nil,
	},
}, {
	name: "dgTradeText",
	re:   regexp.MustCompile(`^(?:([^:@]+?)\s*:\s*)?(\p{L}+)\s+(\d{1,3}(?:[ \x{a0}\x{202f}]\d{3})+(?:[.,]\d+)?|[\d.,]+)\s*(?:[^@]*?)\s*@\s*([\d.,]+)\s+([A-Za-z]{3})\b`),
	hand: func(s string) []string {
		t, ok := readDgTradeText(s)
		if !ok {
			return nil
		}
		return []string{t.prefix, t.verb, t.qty, t.price, t.ccy}
	},
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1, 2, 3, 4, 5) },
	cases: map[string][]string{
		"Koop 1 @ 33,9 USD": {"", "Koop", "1", "33,9", "USD"},
		"Compra 6 ISHARES MSCI WOR A@49,785 EUR (IE00B4L5Y983)": {"", "Compra", "6", "49,785", "EUR"},
		"Sell 4 AVIVA@496 GBX (GB00BPQY8M80)":                   {"", "Sell", "4", "496", "GBX"},
		"PRODUCTWIJZIGING : Koop 500 @ 0,039 EUR":               {"PRODUCTWIJZIGING", "Koop", "500", "0,039", "EUR"},
		"Verkauf 1 234,5 @ 10 EUR":                              {"", "Verkauf", "1 234,5", "10", "EUR"},
		"Kauf 1\u00a0234\u202f567.25 Foo @ 1.5 EUR":             {"", "Kauf", "1\u00a0234\u202f567.25", "1.5", "EUR"},
		"Sprzedaż 12 X @ 3 PLN":                                 {"", "Sprzedaż", "12", "3", "PLN"},
		"Köp 1 2345 @ 1 SEK":                                    {"", "Köp", "1 234", "1", "SEK"},
		"Koop 1234 @ 1 EURO":                                    nil,
		"Koop 1 @ 1 EUR_":                                       nil,
		"Koop 1 @ 1 EUR.":                                       {"", "Koop", "1", "1", "EUR"},
		"Koop 1 @ 1 EU":                                         nil,
		"Koop 1 @ x EUR":                                        nil,
		"Koop 1 @1 EUR":                                         {"", "Koop", "1", "1", "EUR"},
		"Koop1 @ 1 EUR":                                         nil,
		"Koop 1 EUR":                                            nil,
		"Dividend: Koop 1 @ 2 EUR":                              {"Dividend", "Koop", "1", "2", "EUR"},
		"   : Koop 1 @ 2 EUR":                                   {" ", "Koop", "1", "2", "EUR"},
		": Koop 1 @ 2 EUR":                                      nil,
		"x@y: Koop 1 @ 2 EUR":                                   nil,
		"Note: 12 @ 3 EUR":                                      nil,
		"Koop 1 @ 2 EUR: more":                                  {"", "Koop", "1", "2", "EUR"},
		"A: B: Koop 1 @ 2 EUR":                                  nil,
		"A:Koop 1,5 x @ 2 EUR":                                  {"A", "Koop", "1,5", "2", "EUR"},
		"Koop 1 @ 2 @ 3 EUR":                                    nil,
		"Koop\t\n1\n@\n2\nEUR":                                  {"", "Koop", "1", "2", "EUR"},
		"Koop 1 @ 2 EURé":                                       {"", "Koop", "1", "2", "EUR"},
		"":                                                      nil,
	},
}, {
	name: "hlTradeName",
	re:   regexp.MustCompile(`^(.*?)\s+[0-9][0-9,]*(?:\.[0-9]+)?\s*@\s*[0-9][0-9,]*(?:\.[0-9]+)?\s*$`),
	hand: func(s string) []string { return one(hlTradeName(s)) },
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1) },
	cases: map[string][]string{
		"Vanguard FTSE Developed World UCITS ETF 4563 @  3287.199": {"Vanguard FTSE Developed World UCITS ETF"},
		"Fund 1,234.5 @ 12.25 ": {"Fund"},
		"Fund  10 @ 2":          {"Fund"},
		"Fund 10@2":             {"Fund"},
		" 10 @ 2":               {""},
		"Fund 5 x 10 @ 2":       {"Fund 5 x"},
		"Fund 10 @ 2 GBP":       nil,
		"Fund 10 @ 2.":          nil,
		"Fund ,10 @ 2":          nil,
		"Fund\nB 10 @ 2":        nil,
		"Fund\n10 @ 2":          {"Fund"},
		"Fund 10 @ 2\n":         {"Fund"},
		"Fund 10 @ @ 2":         nil,
		"Fund 10 2":             nil,
		"":                      nil,
	},
}, {
	name: "hlDeal",
	re:   regexp.MustCompile(`^([BS])[0-9]+$`),
	hand: func(s string) []string {
		c, ok := hlDeal(s)
		return one(string(rune(c)), ok)
	},
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1) },
	cases: map[string][]string{
		"B123": {"B"}, "S9": {"S"}, "B": nil, "b12": nil, "X12": nil, "B12a": nil, "B12\n": nil, "": nil, "B-1": nil,
	},
}, {
	name:  "flexEnvelope",
	re:    regexp.MustCompile(`^"?(BOF|BOA|BOS|EOS|EOA|EOF)"?(,|$)`),
	hand:  func(s string) []string { return yes(flexEnvelope(s)) },
	expr:  func(re *regexp.Regexp, s string) []string { return yes(re.MatchString(s)) },
	cases: map[string][]string{`"BOF","U123"`: {}, "EOF": {}, `"EOA"`: {}, "BOS,TRNT": {}, "BOF\n": nil, `"BOF`: {}, `BOF"x`: nil, "BOFX": nil, "bof": nil, `""BOF`: nil, "": nil},
}, {
	name:  "flexEnvelope (bytes)",
	re:    regexp.MustCompile(`^"?(BOF|BOA|BOS|EOS|EOA|EOF)"?(,|$)`),
	hand:  func(s string) []string { return yes(flexEnvelope([]byte(s))) },
	expr:  func(re *regexp.Regexp, s string) []string { return yes(re.Match([]byte(s))) },
	cases: map[string][]string{`"EOS","TRNT"`: {}, "EOF": {}, "BOF\n": nil},
}, {
	name: "flexDescriptor",
	re:   regexp.MustCompile(`^"?(HEADER|DATA)"?,"?[A-Z0-9]{2,6}"?,`),
	hand: func(s string) []string { return one(s[flexDescriptor(s):], flexDescriptor(s) > 0) },
	expr: func(re *regexp.Regexp, s string) []string {
		if re.MatchString(s) {
			return []string{re.ReplaceAllString(s, "")}
		}
		return nil
	},
	cases: map[string][]string{
		`"HEADER","TRNT","Buy/Sell"`: {`"Buy/Sell"`}, "DATA,CTRN,1": {"1"}, `DATA,"C2",x`: {"x"}, "DATA,ABCDEF,": {""},
		"DATA,ABCDEFG,": nil, "DATA,A,": nil, "DATA,trnt,": nil, "DATA,TRNT": nil, "HEADERS,TRNT,": nil, `""DATA,TRNT,`: nil, "": nil,
	},
}, {
	name: "flexDescriptor (bytes)",
	re:   regexp.MustCompile(`^"?(HEADER|DATA)"?,"?[A-Z0-9]{2,6}"?,`),
	hand: func(s string) []string {
		b := []byte(s)
		return one(string(b[flexDescriptor(b):]), flexDescriptor(b) > 0)
	},
	expr: func(re *regexp.Regexp, s string) []string {
		if re.Match([]byte(s)) {
			return []string{string(re.ReplaceAll([]byte(s), nil))}
		}
		return nil
	},
	cases: map[string][]string{`"DATA","TRNT","U1"` + "\n": {`"U1"` + "\n"}},
}, {
	name: "splitRatio",
	re:   regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(?:FOR|:)\s*(\d+(?:\.\d+)?)`),
	hand: func(s string) []string {
		a, b, ok := splitRatio(s)
		return two(a, b, ok)
	},
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1, 2) },
	cases: map[string][]string{
		"2:1": {"2", "1"}, "SPLIT 4 FOR 1": {"4", "1"}, "1:10 Reverse": {"1", "10"}, "split 3 for 2": {"3", "2"},
		"1.5 : 1": {"1.5", "1"}, "1.2.3:4": {"2.3", "4"}, "AAPL(US0378331005) Split 4 for 1 (AAPL, APPLE INC, US0378331005)": {"4", "1"},
		"4 fo 1": nil, "4 FOR": nil, "FOR 1": nil, "4 ſor 1": nil, "4 for1": {"4", "1"}, "4for 1.25x": {"4", "1.25"},
		"1.x:2": nil, "12a 3:4": {"3", "4"}, "no ratio": nil, "": nil, "7 FOR 1, 2 FOR 1": {"7", "1"},
	},
}, {
	name: "ibkrDescISIN",
	re:   regexp.MustCompile(`^([A-Za-z0-9.\- ]+?)\s*\(([A-Z]{2}[A-Z0-9]{9}[0-9])\)`),
	hand: func(s string) []string {
		sym, isin := ibkrDescISIN(s)
		return two(sym, isin, isin != "")
	},
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1, 2) },
	cases: map[string][]string{
		"VT(US9220427424) Cash Dividend USD 0.1": {"VT", "US9220427424"},
		"BRK B (US0846707026) Dividend":          {"BRK B", "US0846707026"},
		"VOD.L-X \t(GB00BH4HKS39)":               {"VOD.L-X", "GB00BH4HKS39"},
		"  (GB00BH4HKS39)":                       {" ", "GB00BH4HKS39"},
		"\t(GB00BH4HKS39)":                       nil,
		"(GB00BH4HKS39)":                         nil,
		"VT(us9220427424)":                       nil,
		"VT(US922042742X)":                       nil,
		"VT(U59220427424)":                       nil,
		"VT(US9220427424":                        nil,
		"VT(US92204274245)":                      nil,
		"V_T(US9220427424)":                      nil,
		"VT (x) (US9220427424)":                  nil,
		"":                                       nil,
	},
}, {
	name: "iiCash",
	re:   regexp.MustCompile(`(?i)^[\d,.]+\s+(u\.?s\.?\s+dollars?|dollars?|euros?|pounds?|sterling|[a-z]{3})\b`),
	hand: func(s string) []string { return yes(iiCash(s)) },
	expr: func(re *regexp.Regexp, s string) []string { return yes(re.MatchString(s)) },
	cases: map[string][]string{
		"1,000 U.S. DOLLARS S Date 01/02/24": {}, "1,000 US DOLLAR": {}, "5 u.s dollars": {}, "5 Euros bought": {}, "5 pounds": {},
		"5 sterling": {}, "5 ſterling": {}, "5 USD": {}, "5 ſtg": {}, "5 \u212ars": {}, "5 \u212ar": nil, "5 dollarſ": {}, "5 EUROS5": nil,
		"5 US DOLLARSX": nil, "5 GBPX": nil, "5 GB": nil, "5GBP": nil, "x 5 GBP": nil, "5 US": nil, "5 GBP_": nil, "5 GBP.": {}, "": nil,
	},
}, {
	name: "iiDealDetails",
	re:   regexp.MustCompile(`\s+(Del|S Date)(\s|$)`),
	hand: func(s string) []string {
		i := iiDealDetails(s)
		return one(fmt.Sprint(i), i >= 0)
	},
	expr: func(re *regexp.Regexp, s string) []string {
		if loc := re.FindStringIndex(s); loc != nil {
			return []string{fmt.Sprint(loc[0])}
		}
		return nil
	},
	cases: map[string][]string{
		"BARCLAYS PLC  Del 2.09 S Date 13/06/24": {"12"}, "BARCLAYS PLC S Date 13/06/24": {"12"}, "X Del": {"1"}, "X Delta Del 1": {"7"},
		"X del 1": nil, "Del 1": nil, "X\tDel\n": {"1"}, "X S Dates": nil, "": nil,
	},
}, {
	name: "msSplitNote",
	re:   regexp.MustCompile(`(?i)(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),\s*(\d{4})\s+stock split`),
	hand: func(s string) []string {
		m, d, y, ok := msSplitNote(s)
		if !ok {
			return nil
		}
		return []string{m, d, y}
	},
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1, 2, 3) },
	cases: map[string][]string{
		"Reflects the July 15, 2022 stock split.":        {"July", "15", "2022"},
		"june 1,2022  STOCK SPLIT":                       {"june", "1", "2022"},
		"Auguſt 1, 2022 ſtoc\u212a split":                {"Auguſt", "1", "2022"},
		"May 123, 2022 stock split":                      nil,
		"May 12, 20221 stock split":                      nil,
		"May 12, 2022stock split":                        nil,
		"Mayday 1, 2022 stock split":                     nil,
		"Junk. June 3, 2022 stock split":                 {"June", "3", "2022"},
		"March 1, 2020 split; April 2, 2021 stock split": {"April", "2", "2021"},
		"": nil,
	},
}, {
	name:  "vanguardCashText",
	re:    regexp.MustCompile(`(?i)^(Bought |Sold |DIV: |Reversal of |Cash Account Interest|Deposit for investment|Regular Deposit|Account Fee for the period)`),
	hand:  func(s string) []string { return yes(vanguardCashText(s)) },
	expr:  func(re *regexp.Regexp, s string) []string { return yes(re.MatchString(s)) },
	cases: map[string][]string{"Bought 10 X": {}, "ſold 1": {}, "div: X": {}, "Regular Deposit": {}, "Cash Account Interest 2024": {}, "Bought10": nil, " Bought 1": nil, "": nil},
}, {
	name: "vanguardDeal",
	re:   regexp.MustCompile(`(?i)^(Bought|Sold)\s+([0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+)\s+(.+)$`),
	hand: func(s string) []string {
		d, ok := vanguardDeal(s)
		if !ok {
			return nil
		}
		return []string{d.verb, d.qty, d.name}
	},
	expr: func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1, 2, 3) },
	cases: map[string][]string{
		"Bought 1,550 Foo ETF Distributing (FOO)": {"Bought", "1,550", "Foo ETF Distributing (FOO)"},
		"Sold .9232 Bar Fund":                     {"Sold", ".9232", "Bar Fund"},
		"SOLD 1.5 X":                              {"SOLD", "1.5", "X"},
		"ſold 1 X":                                {"ſold", "1", "X"},
		"Bought 1   ":                             {"Bought", "1", " "},
		"Bought 1 \n ":                            {"Bought", "1", " "},
		"Bought 1 \n":                             nil,
		"Bought 1 ":                               nil,
		"Bought 1 X\nY":                           nil,
		"Bought 1\nX":                             {"Bought", "1", "X"},
		"Bought 1. X":                             nil,
		"Bought . X":                              nil,
		"Bought ,1 X":                             nil,
		"Bought1 X":                               nil,
		"":                                        nil,
	},
}, {
	name:  "vanguardDiv",
	re:    regexp.MustCompile(`(?i)^DIV:\s*([A-Z0-9]+)[^ ]*`),
	hand:  func(s string) []string { return one(vanguardDiv(s)) },
	expr:  func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1) },
	cases: map[string][]string{"DIV: FOO.XLON.GB @ GBP 0.4106": {"FOO"}, "div:vusa": {"vusa"}, "DIV: ſ\u212a1.X": {"ſ\u212a1"}, "DIV: .X": nil, "DIV FOO": nil, "": nil},
}, {
	name:  "vanguardAcc",
	re:    regexp.MustCompile(`(?i)^ACC(?:UMULATION)?:\s*([A-Z0-9]+)[^ ]*`),
	hand:  func(s string) []string { return one(vanguardAcc(s)) },
	expr:  func(re *regexp.Regexp, s string) []string { return groups(re.FindStringSubmatch(s), 1) },
	cases: map[string][]string{"ACC: FOO.XLON.GB @ GBP 0.4106": {"FOO"}, "Accumulation:\tBar": {"Bar"}, "ACCUMULATIONS: X": nil, "ACC : X": nil, "": nil},
}}

func one(s string, ok bool) []string {
	if !ok {
		return nil
	}
	return []string{s}
}

func two(a, b string, ok bool) []string {
	if !ok {
		return nil
	}
	return []string{a, b}
}

// TestMatchersReadWhatTheImportersNeed pins each matcher's reading of the descriptions the
// importers meet, and of the near misses, and checks the regular expression it replaced
// reads each the same way.
func TestMatchersReadWhatTheImportersNeed(t *testing.T) {
	for _, m := range matchers {
		for in, want := range m.cases {
			got := m.hand(in)
			if !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Errorf("%s(%q) = %q, want %q", m.name, in, got, want)
			}
			if old := m.expr(m.re, in); !slices.Equal(got, old) || (got == nil) != (old == nil) {
				t.Errorf("%s(%q) = %q, the regular expression read %q", m.name, in, got, old)
			}
		}
	}
}

// FuzzMatchers checks every matcher against the regular expression it replaced, on the same
// input.
func FuzzMatchers(f *testing.F) {
	for _, m := range matchers {
		for in := range m.cases {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range matchers {
			got, old := m.hand(s), m.expr(m.re, s)
			if !slices.Equal(got, old) || (got == nil) != (old == nil) {
				t.Errorf("%s(%q) = %q, the regular expression read %q", m.name, s, got, old)
			}
		}
	})
}

// TestMatchersOnMixedText runs every matcher on texts built from the pieces the expressions
// care about (spaces of each kind, digits, separators, folded letters, invalid UTF-8), so
// that the cases a fuzzer finds slowly are covered on every run.
func TestMatchersOnMixedText(t *testing.T) {
	pieces := []string{" ", "\t", "\n", "\v", "\u00a0", "\u202f", "1", "12", "123", "1234", ",", ".", ":", "@", "(", ")", "\"",
		"ſ", "\u212a", "s", "K", "é", "\xff", "\xc5", "_", "-", "Koop", "Bought", "Sold", "DIV:", "ACC:", "for", "FOR", "EUR", "usd",
		"dollars", "U.S.", "Del", "S Date", "May", "stock split", "DATA", "HEADER", "BOF", "TRNT", "LSE", "US9220427424"}
	n := 0
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		for _, m := range matchers {
			if got, old := m.hand(prefix), m.expr(m.re, prefix); !slices.Equal(got, old) || (got == nil) != (old == nil) {
				t.Fatalf("%s(%q) = %q, the regular expression read %q", m.name, prefix, got, old)
			}
		}
		n++
		if depth == 0 {
			return
		}
		for _, p := range pieces {
			walk(prefix+p, depth-1)
		}
	}
	for _, start := range []string{"", "Koop 1 @ 2 EUR", "Bought 1 X", "5 US", "x (LSE:V)", "X  Del", "June 1, 2022 stock split", "2 FOR 1", "VT (US9220427424)", "Fund 1 @ 2"} {
		walk(start, 2)
	}
	if testing.Verbose() {
		t.Logf("%d texts", n)
	}
}
