package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// nameProbe is how many of a security's lines are looked at for its name (imports give it on
// every line; hand-written ledgers on none).
const nameProbe = 64

// securityLook is what a ledger says about one of its securities, for telling whether two of
// them are one security under two names.
type securityLook struct {
	_ model.NotComparable

	ticker string
	name   string // normalised: upper-case letters and digits, one space between words
	core   string // the name without the words that do not tell securities apart (coreName)
	class  string // ACC or DIST when the name says which, else ""
	isin   string
	first  model.Date
}

type pricePoint struct {
	date  model.Date
	price num
}

// aliasWarnings names each pair of securities that look like one security under two names
// but are pooled apart (no ALIAS line and no shared ISIN makes them one): the same name from
// the exports, or a ticker with and without an exchange suffix (VUSA and VUSA.L) whose prices
// are at the same level. Nothing is merged: the warning gives the ALIAS line to paste.
func (c *calc) aliasWarnings() []string {
	led := c.led
	if len(led.tickers) < 2 {
		return nil
	}
	looks := make([]securityLook, len(led.tickers))
	byName := map[string][]int{}
	byCore := map[string][]int{}
	for i, tk := range led.tickers {
		l := &looks[i]
		l.ticker = tk
		idx := led.txns[i] // in date order (see sortEvents)
		if len(idx) > 0 {
			l.first = c.txns[idx[0]].Date
		}
		for _, j := range idx[:min(len(idx), nameProbe)] {
			t := &c.txns[j]
			if c.ident.name(t.Ticker) == tk {
				if l.name == "" {
					l.name = normalName(t.Name)
				}
				if l.isin == "" {
					l.isin = t.ISIN
				}
			}
		}
		if l.name != "" {
			byName[l.name] = append(byName[l.name], i)
			l.core, l.class = coreName(l.name)
			if l.core != "" {
				byCore[l.core] = append(byCore[l.core], i)
			}
		}
	}
	type pair struct {
		a, b int
		why  string
	}
	var pairs []pair
	seen := map[[2]int]bool{}
	add := func(a, b int, why string) {
		if looks[a].isin != "" && looks[b].isin != "" { // two ISINs: two securities
			return
		}
		if a > b {
			a, b = b, a
		}
		if !seen[[2]int{a, b}] {
			seen[[2]int{a, b}] = true
			pairs = append(pairs, pair{a, b, why})
		}
	}
	for _, members := range byName {
		for x := 0; x < len(members); x++ {
			for y := x + 1; y < len(members); y++ {
				add(members[x], members[y], "the same name, "+strings.ToLower(looks[members[x]].name))
			}
		}
	}
	for _, members := range byCore {
		for x := 0; x < len(members) && x < maxNamed; x++ {
			for y := x + 1; y < len(members) && y < maxNamed; y++ {
				a, b := &looks[members[x]], &looks[members[y]]
				if a.name == b.name || a.class != "" && b.class != "" && a.class != b.class {
					continue // the same name is warned of above; Acc and Dist are two share classes
				}
				pa, pb := c.pricesOf(members[x]), c.pricesOf(members[y])
				pxa, pxb, comparable := nearest(pa, pb)
				if comparable && !sameLevel(pxa, pxb) {
					continue
				}
				why := "similar names, " + strings.ToLower(a.name) + " and " + strings.ToLower(b.name)
				if comparable {
					why += fmt.Sprintf("; prices at the same level, £%s and £%s", pxa.round(2).money(), pxb.round(2).money())
				}
				add(members[x], members[y], why)
			}
		}
	}
	for i, tk := range led.tickers {
		base := withoutExchange(tk)
		if base == tk {
			continue
		}
		j, ok := slices.BinarySearch(led.tickers, base)
		if !ok || seen[[2]int{min(i, j), max(i, j)}] {
			continue
		}
		pa, pb := c.pricesOf(j), c.pricesOf(i)
		a, b, comparable := nearest(pa, pb)
		if comparable && !sameLevel(a, b) {
			continue
		}
		why := "a ticker with and without an exchange suffix"
		if comparable {
			why += fmt.Sprintf("; prices at the same level, £%s and £%s", a.round(2).money(), b.round(2).money())
		}
		add(j, i, why)
	}
	order.Sort(pairs, func(x, y pair) int {
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	out := make([]string, 0, len(pairs))
	for _, p := range pairs {
		a, b := &looks[p.a], &looks[p.b]
		if b.first < a.first {
			a, b = b, a
		}
		out = append(out, fmt.Sprintf("%s and %s look like one security (%s) but are two Section 104 pools: "+
			"if they are one, add the line `%s ALIAS %s %s` to the ledger (one pool, named %s); if not, nothing needs doing",
			a.ticker, b.ticker, p.why, a.first, a.ticker, b.ticker, a.ticker))
	}
	return out
}

// normalName is a security name for comparing: upper-case letters and digits, one space
// between words.
func normalName(s string) string {
	if s == "" {
		return ""
	}
	words := strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') })
	return strings.Join(words, " ")
}

// madeUpNames lists the broker's name of each security whose ticker was made from that name
// (its letters and digits are the name's, or the start of them), nil when there is none.
func (c *calc) madeUpNames() map[string]string {
	var out map[string]string
	for i, tk := range c.led.tickers {
		if strings.Count(tk, ".") < 2 {
			continue
		}
		for _, j := range c.led.txns[i][:min(len(c.led.txns[i]), nameProbe)] {
			t := &c.txns[j]
			if t.Name == "" || !strings.EqualFold(t.Ticker, tk) {
				continue
			}
			stem := tk
			if k := strings.LastIndexByte(stem, '-'); k > 0 {
				stem = stem[:k] // a long name's ticker ends in a hash
			}
			if a, b := alnum(stem), alnum(t.Name); a != "" && strings.HasPrefix(b, a) {
				if out == nil {
					out = map[string]string{}
				}
				out[tk] = t.Name
			}
			break
		}
	}
	return out
}

// alnum is the ASCII letters (upper-cased) and digits of s.
func alnum(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maxNamed bounds how many securities of one core name are compared pairwise.
const maxNamed = 16

// nameNoise are the words of a security name that do not tell two securities apart: legal
// forms, share and fund wrappers, listing currencies. Words after CLASS name a share class and
// are left out too.
var nameNoise = map[string]bool{
	"PLC": true, "ORD": true, "ORDINARY": true, "SHARES": true, "SHARE": true, "SHS": true, "UCITS": true,
	"ETF": true, "FUND": true, "USD": true, "GBP": true, "EUR": true, "GBX": true, "HEDGED": true,
	"THE": true, "LTD": true, "LIMITED": true, "CORP": true, "CORPORATION": true, "CO": true, "NPV": true,
	"ADR": true, "UNITS": true, "UNIT": true, "INCORPORATED": true, "SA": true, "NV": true, "AG": true,
}

// nameClass are the words that say whether a fund accumulates or distributes its income.
var nameClass = map[string]string{
	"ACC": "ACC", "ACCUMULATING": "ACC", "ACCUMULATION": "ACC", "ACCUM": "ACC",
	"DIST": "DIST", "DISTRIBUTING": "DIST", "DISTRIBUTION": "DIST", "INC": "DIST", "INCOME": "DIST",
}

// coreName is a normalised name without the words that do not tell securities apart (plc,
// ord, UCITS ETF, a listing currency, a share class) and whether it says Acc or Dist:
// "VANGUARD S P 500 UCITS ETF USD DIST" → "VANGUARD S P 500", "DIST". A core of one short word
// is too little to compare and is "".
func coreName(name string) (core, class string) {
	words := strings.Fields(name)
	out := words[:0:0]
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "CLASS":
			i++ // the class's name
		case nameNoise[w] || nominal(w):
		case nameClass[w] != "":
			class = nameClass[w]
		default:
			out = append(out, w)
		}
	}
	core = strings.Join(out, " ")
	if len(out) < 2 && len(core) < 5 {
		return "", class
	}
	return core, class
}

// nominal reports a share's nominal value written in a name ("10P", "25P").
func nominal(w string) bool {
	return len(w) >= 2 && w[len(w)-1] == 'P' && strings.Trim(w[:len(w)-1], "0123456789") == ""
}

// withoutExchange is a ticker without its exchange suffix or prefix (VUSA.L, VUSA.LN, LON:VUSA
// → VUSA), or the ticker itself when it has none.
func withoutExchange(tk string) string {
	if i := strings.LastIndexByte(tk, '.'); i > 0 && len(tk)-i-1 >= 1 && len(tk)-i-1 <= 3 && letters(tk[i+1:]) {
		return tk[:i]
	}
	if i := strings.IndexByte(tk, ':'); i > 0 && i < len(tk)-1 && letters(tk[:i]) {
		return tk[i+1:]
	}
	return tk
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}

// pricesOf lists the per-share prices of a security's trades in pounds or pence (converted to
// pounds); trades in other currencies are left out (no rate is looked up for a hint).
func (c *calc) pricesOf(i int) []pricePoint {
	var out []pricePoint
	for _, j := range c.led.txns[i] {
		t := &c.txns[j]
		if (t.Action != model.Buy && t.Action != model.Sell) || t.Quantity.IsZero() {
			continue
		}
		a := t.Price
		per := numOfDecimal(a.Value)
		if a.Value.IsZero() {
			a = t.Total
			per = numOfDecimal(a.Value).divRound(numOfDecimal(t.Quantity), 6)
		}
		switch strings.ToUpper(a.Currency) {
		case "", model.GBP:
		case "GBX":
			per = per.divRound(numInt(100), 6)
		default:
			continue
		}
		if per.sign() > 0 {
			out = append(out, pricePoint{t.Date, per})
		}
	}
	return out
}

// nearest finds the two prices, one of each list, closest in time.
func nearest(a, b []pricePoint) (num, num, bool) {
	if len(a) == 0 || len(b) == 0 {
		return num{}, num{}, false
	}
	best, x, y := -1, 0, 0
	for i := range a {
		for j := range b {
			d := int(a[i].date - b[j].date)
			if d < 0 {
				d = -d
			}
			if best < 0 || d < best {
				best, x, y = d, i, j
			}
			if j > 64 {
				break
			}
		}
		if i > 64 {
			break
		}
	}
	return a[x].price, b[y].price, true
}

// sameLevel reports prices within half as much again of each other.
func sameLevel(a, b num) bool {
	if a.cmp(b) < 0 {
		a, b = b, a
	}
	return a.mul(numInt(2)).cmp(b.mul(numInt(3))) <= 0
}
