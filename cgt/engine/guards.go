package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/cgt-tools/cgt/internal/typo"
	"github.com/shopspring/decimal"
)

// Guards against silent wrong results (docs/tax-rules.md, "Checks on the ledger"): a typo in
// a ticker, a missing currency or a price in pence written as pounds gives a figure that looks
// right. The checks that cannot change the result are warnings; the result is still computed.
// Each ticker's worker notes what it finds in its own pass (checkTrades, and the split and
// accumulation checks where those lines are applied); assemble, which sees every ticker,
// adds the "did you mean" and the checks that need the whole ledger.

// guardNote is one warning found in a ticker's pass, placed by its ledger line. A price
// warning is written only when it is listed (see maxPriceWarnings): price is set instead of
// text.
type guardNote struct {
	src   model.Source
	date  model.Date
	text  string
	price func() string
}

// maxPriceWarnings is how many price warnings are listed; a ledger with more (every price of
// a broker export in pence, say) gets one more warning that counts the rest.
const maxPriceWarnings = 20

// The bounds of a hundredfold difference: a ratio between 100/3 and 300 (100 within a factor
// of 3) is taken for pence written as pounds (or the reverse); prescreen rules out the rest
// with a single comparison each way.
var (
	three, hundred, threeHundred, prescreen = numInt(3), numInt(100), numInt(300), numInt(30)
)

// hundredfold reports whether x is about a hundred times y (+1), y about a hundred times x
// (−1), or neither (0). Both are positive.
func hundredfold(x, y num) int {
	if x.cmp(y.mul(prescreen)) <= 0 && y.cmp(x.mul(prescreen)) <= 0 {
		return 0
	}
	switch {
	case x.mul(three).cmp(y.mul(hundred)) >= 0 && x.cmp(y.mul(threeHundred)) <= 0:
		return 1
	case y.mul(three).cmp(x.mul(hundred)) >= 0 && y.cmp(x.mul(threeHundred)) <= 0:
		return -1
	}
	return 0
}

// tradePrice is a trade's price per share as the ledger gives it, n ÷ d in currency ccy; d is
// zero for the price form, where the price is n itself, and the quantity for the total form.
func tradePrice(t *model.Transaction) (n, d num, ccy string) {
	if !t.Total.Value.IsZero() && t.Price.Value.IsZero() {
		return numOfDecimal(t.Total.Value), numOfDecimal(t.Quantity), currencyOf(t.Total)
	}
	return numOfDecimal(t.Price.Value), num{}, currencyOf(t.Price)
}

// currencyOf is an amount's currency, GBP when none is given.
func currencyOf(a model.Amount) string {
	if a.Currency == "" {
		return model.GBP
	}
	return a.Currency
}

// times multiplies by m unless m is zero (which stands for 1).
func times(n, m num) num {
	if m.isZero() {
		return n
	}
	return n.mul(m)
}

// priceJump is two consecutive trades of a ticker in one currency whose prices differ about a
// hundredfold (up: b's is the higher).
type priceJump struct {
	a, b *model.Transaction
	up   bool
}

// checkTrades looks at the ticker's trades in processing order for a currency that changes
// between GBP and another where the pounds were not written as such (a sale with no currency
// of shares bought in dollars, or a sale in dollars of shares bought with no currency) and for
// prices about a hundred times those of the trades beside them (pence written as pounds).
// Splits and consolidations between two trades are allowed for; a takeover, a demerger or a
// negligible value claim starts afresh. Neither check changes the result.
func (r *tickerRun) checkTrades() {
	var (
		prev     *model.Transaction
		pn, pd   num    // prev's price, as tradePrice gives it
		pccy     string // prev's currency
		fn, fd   num    // shares now per share at prev (fn ÷ fd), zero while 1
		first    *model.Transaction
		seen     string // the currency of every trade so far, while they agree
		omitted  bool   // every trade so far was written without a currency
		switched bool   // the currency has changed once: no more currency warnings
		jumps    []priceJump
	)
	for k := range r.entries {
		t := r.entries[k].t
		switch t.Action {
		case model.Split, model.Unsplit:
			if prev == nil {
				continue
			}
			if fn.isZero() {
				fn, fd = numInt(1), numInt(1)
			}
			if t.Action == model.Split {
				fn = fn.mul(numOfDecimal(t.Ratio())).shortened()
			} else {
				fd = fd.mul(numOfDecimal(t.Ratio())).shortened()
			}
			if fn.writtenDigits() > maxSplitDigits || fd.writtenDigits() > maxSplitDigits {
				prev, fn, fd = nil, num{}, num{} // past any real chain of splits (the calculation refuses it): compare no further
			}
			continue
		case model.Takeover, model.Demerger, model.Negligible:
			// a new security, or one whose value has collapsed: its prices start afresh
			prev = nil
			continue
		case model.Buy, model.Sell:
		default:
			continue
		}
		n, d, ccy := tradePrice(t)
		if first == nil {
			first, seen, omitted = t, ccy, t.NoCurrency
		} else if !switched && ccy != seen {
			switched = true
			// Pounds written as such, or a currency written on every trade, are deliberate.
			if ccy == model.GBP && t.NoCurrency || seen == model.GBP && omitted {
				r.note(t, currencyWarning(t, first, seen, ccy))
			}
		} else {
			omitted = omitted && t.NoCurrency
		}
		if n.sign() <= 0 {
			prev = nil
			continue
		}
		// However far apart: a genuine hundredfold move between two consecutive trades is rare
		// even over years, and a slip of pence for pounds is not less likely for being late.
		if prev != nil && pccy == ccy {
			// t's price × fn ÷ fd is in prev's shares: compare t.n × prev.d × fn with prev.n × t.d × fd.
			x, y := times(times(n, pd), fn), times(times(pn, d), fd)
			if dir := hundredfold(x, y); dir != 0 {
				jumps = append(jumps, priceJump{a: prev, b: t, up: dir > 0})
			}
		}
		prev, pn, pd, pccy, fn, fd = t, n, d, ccy, num{}, num{}
	}
	if len(jumps) > 0 {
		r.priceWarnings(jumps)
	}
}

// note records a warning about line t.
func (r *tickerRun) note(t *model.Transaction, text string) {
	r.out.notes = append(r.out.notes, guardNote{src: t.Source, date: t.Date, text: text})
}

// currencyWarning says that trade t is in pounds among trades in another currency, or the
// reverse.
func currencyWarning(t, first *model.Transaction, was, now string) string {
	if now == model.GBP {
		return fmt.Sprintf("%s: %s %s on %s has no currency, so it is read as pounds, but the trades of %s before it (from %s) are in %s. "+
			"Did you mean %s %s? If the trade was in pounds, write GBP.", where(t.Source), t.Action, t.Ticker, t.Date, t.Ticker,
			where(first.Source), was, amountText(t), was)
	}
	return fmt.Sprintf("%s: %s %s on %s is in %s, but the trades of %s before it (from %s) have no currency, so they are read as pounds. "+
		"If they were in %s too, add %s to them; if this trade was in pounds, write %s GBP.", where(t.Source), t.Action, t.Ticker, t.Date,
		now, t.Ticker, where(first.Source), now, now, amountText(t))
}

// amountText is a trade's price or total as a line would give it, without its currency.
func amountText(t *model.Transaction) string {
	if !t.Total.Value.IsZero() && t.Price.Value.IsZero() {
		return "TOTAL " + exactString(t.Total.Value.Exact())
	}
	return "@ " + exactString(t.Price.Value.Exact())
}

// exactString writes a figure with the decimal places it was given (71.80, not 71.8).
func exactString(d decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.String()
}

// perShare is a trade's price per share in its currency, as the line wrote it, or worked out
// from the total form's total (to 6 places, without trailing zeros).
func perShare(t *model.Transaction) (p decimal.Decimal, text, ccy string) {
	n, d, ccy := tradePrice(t)
	if d.isZero() {
		p = n.decimal()
		return p, exactString(p), ccy
	}
	p = n.divRound(d, 6).decimal()
	return p, p.String(), ccy
}

// priceText is a trade's line, price and date for a message.
func priceText(t *model.Transaction) string {
	_, text, ccy := perShare(t)
	return fmt.Sprintf("%s: %s %s on %s", lineName(t.Source), text, ccy, t.Date)
}

// lineName is "line 4" (or "item 4" of a JSON array), without the file.
func lineName(s model.Source) string {
	if s.Line > 0 {
		return fmt.Sprintf("line %d", s.Line)
	}
	return fmt.Sprintf("item %d", s.Index)
}

// hundredthAdvice is what to write if trade t's price is in hundredths of its currency.
func hundredthAdvice(t *model.Transaction) string {
	p, text, ccy := perShare(t)
	whole := p.Shift(-2).String()
	if ccy == model.GBP {
		return fmt.Sprintf("If %s is in pence, write %s GBX (or %s, the pound figure)", text, text, whole)
	}
	return fmt.Sprintf("If %s is in hundredths of %s (cents), write %s %s", text, ccy, whole, ccy)
}

// hundredths names the likely slip for a currency: pence written as pounds, cents as dollars.
func hundredths(ccy string) string {
	if ccy == model.GBP {
		return "pence written as pounds"
	}
	return "hundredths (cents) written as whole " + ccy
}

// priceWarnings turns the ticker's hundredfold price jumps into warnings: a trade whose
// price is off both its neighbours in opposite directions is the odd one out; any other jump
// names the two trades.
func (r *tickerRun) priceWarnings(jumps []priceJump) {
	for k := 0; k < len(jumps); k++ {
		j := jumps[k]
		if k+1 < len(jumps) && jumps[k+1].a == j.b && jumps[k+1].up != j.up {
			t, after := j.b, jumps[k+1].b
			r.out.notes = append(r.out.notes, guardNote{src: t.Source, date: t.Date, price: func() string {
				_, text, ccy := perShare(t)
				head := fmt.Sprintf("%s: %s %s on %s at %s %s a share is about", where(t.Source), t.Action, t.Ticker, t.Date, text, ccy)
				beside := "the price of the trades beside it (" + priceText(j.a) + "; " + priceText(after) + ")"
				if j.up {
					return fmt.Sprintf("%s 100 times %s: %s? %s.", head, beside, hundredths(ccy), hundredthAdvice(t))
				}
				return fmt.Sprintf("%s a hundredth of %s: if %s is right, the prices beside it look like %s. %s.",
					head, beside, text, hundredths(ccy), hundredthAdvice(j.a))
			}})
			k++
			continue
		}
		r.out.notes = append(r.out.notes, guardNote{src: j.b.Source, date: j.b.Date, price: func() string {
			hi := j.b
			if !j.up {
				hi = j.a
			}
			_, _, ccy := perShare(hi)
			return fmt.Sprintf("%s: %s %s on %s: the price changes about a hundredfold from %s to %s, with no SPLIT or UNSPLIT "+
				"to account for it: %s on one side, or a missing consolidation? %s.",
				where(j.b.Source), j.b.Action, j.b.Ticker, j.b.Date, priceText(j.a), priceText(j.b), hundredths(ccy), hundredthAdvice(hi))
		}})
	}
}

// splitOfNothing notes a SPLIT or UNSPLIT applied when no shares are held: it changes
// nothing, which is right only if the ticker is.
func (r *tickerRun) splitOfNothing(t *model.Transaction) {
	r.out.unheld = append(r.out.unheld, t)
}

// accumulationAboveHolding notes an ACCUMULATION for more units than are held.
func (r *tickerRun) accumulationAboveHolding(t *model.Transaction, amount num) {
	r.note(t, fmt.Sprintf("%s: ACCUMULATION %s on %s is for %s units, but %s are held on that date; its £%s is added to "+
		"the cost of the units held. Check the quantity, or look for a missing BUY.",
		where(t.Source), t.Ticker, t.Date, t.Quantity, r.held.quantity(), amount.money()))
}

// guardWarnings are the warnings of the checks, in ledger order: each ticker's notes, splits
// of securities not held (with the tickers it may have meant) and disposals whose 30-day
// window runs past the ledger's last date.
func (c *calc) guardWarnings(today model.Date, transfers []Disposal) []string {
	var notes []guardNote
	var last model.Date
	var unheld []*model.Transaction
	for i := range c.results {
		r := &c.results[i]
		notes = append(notes, r.notes...)
		unheld = append(unheld, r.unheld...)
		last = max(last, r.last)
	}
	if len(unheld) > 0 {
		names := c.heldTickers()
		for _, t := range unheld {
			notes = append(notes, guardNote{src: t.Source, date: t.Date, text: fmt.Sprintf(
				"%s: %s %s on %s: no shares of %s are held on that date, so it changes nothing.%s",
				where(t.Source), t.Action, t.Ticker, t.Date, t.Ticker, didYouMean(c.ident.name(t.Ticker), names, " "))})
		}
	}
	notes = append(notes, c.pendingMatches(last, today)...)
	notes = append(notes, pendingTransfers(transfers, last, today)...)
	if len(notes) == 0 {
		return nil
	}
	order.Stable(notes, func(a, b guardNote) int {
		if c := strings.Compare(a.src.File, b.src.File); c != 0 {
			return c
		}
		if c := cmp.Compare(a.src.Line, b.src.Line); c != 0 {
			return c
		}
		if c := cmp.Compare(a.src.Index, b.src.Index); c != 0 {
			return c
		}
		return cmp.Compare(a.date, b.date)
	})
	out := make([]string, 0, len(notes))
	prices := 0
	for _, n := range notes {
		if n.price == nil {
			out = append(out, n.text)
			continue
		}
		if prices++; prices <= maxPriceWarnings {
			out = append(out, n.price())
		}
	}
	if more := prices - maxPriceWarnings; more > 0 {
		out = append(out, fmt.Sprintf("%d more trades whose price is about 100 times, or a hundredth of, the price of the trades "+
			"beside them are not listed: the first %d are above. Check whether the ledger mixes prices in pence and in pounds.", more, maxPriceWarnings))
	}
	return out
}

// pendingMatches warns of each disposal identified at least in part with the Section 104
// pool less than 30 days before the ledger's last date, whose 30 days have not yet run out
// on today (when known): a purchase of the same security in the rest of its 30 days, which
// the ledger does not reach, would be matched with it first (TCGA92 s106A(5)) and change its
// gain. A window that closed before today is history the ledger is taken to record in full.
func (c *calc) pendingMatches(last, today model.Date) []guardNote {
	var out []guardNote
	all := c.place.all
	for k := len(all) - 1; k >= 0 && all[k].Date.AddDays(bnbWindow) > last; k-- {
		d := &all[k]
		if today != 0 && d.Date.AddDays(bnbWindow) < today {
			continue
		}
		if d.Kind != "" || !slices.Contains(d.Rules, RuleSection104) {
			continue
		}
		src := model.Source{File: d.Source.File, Line: d.Source.Line, Index: -1}
		if d.Source.Index != nil {
			src.Index = *d.Source.Index
		}
		out = append(out, guardNote{src: src, date: d.Date, text: fmt.Sprintf(
			"%s: SELL %s on %s is less than 30 days before the ledger's last date (%s): a purchase of %s up to %s "+
				"that the ledger does not show would be matched with it first (TCGA92 s106A(5)) and change its gain.",
			where(src), d.Ticker, d.Date, last, d.Ticker, d.Date.AddDays(bnbWindow))})
	}
	return out
}

// pendingTransfers is pendingMatches for transfers to a spouse: a purchase in the rest of a
// transfer's 30 days would be matched with it first and change the cost the spouse takes over.
func pendingTransfers(ds []Disposal, last, today model.Date) []guardNote {
	var out []guardNote
	for k := range ds {
		d := &ds[k]
		end := d.Date.AddDays(bnbWindow)
		if end <= last || today != 0 && end < today || !slices.Contains(d.Rules, RuleSection104) {
			continue
		}
		src := model.Source{File: d.Source.File, Line: d.Source.Line, Index: -1}
		if d.Source.Index != nil {
			src.Index = *d.Source.Index
		}
		out = append(out, guardNote{src: src, date: d.Date, text: fmt.Sprintf(
			"%s: SPOUSEOUT %s on %s is less than 30 days before the ledger's last date (%s): a purchase of %s up to %s "+
				"that the ledger does not show would be matched with it first (TCGA92 s106A(5)) and change the cost your spouse takes over.",
			where(src), d.Ticker, d.Date, last, d.Ticker, end)})
	}
	return out
}

// heldTickers lists the tickers the ledger acquires shares of (by BUY, POOL, SPOUSEIN, or a
// takeover or demerger), in name order, with the date of the first acquisition.
func (c *calc) heldTickers() []heldTicker {
	var out []heldTicker
	for i, name := range c.led.tickers {
		if d, ok := c.firstAcquisition(i); ok {
			out = append(out, heldTicker{name: name, from: d})
		}
	}
	return out
}

// heldTicker is a ticker the ledger holds shares of, from a date.
type heldTicker struct {
	name string
	from model.Date
}

// firstAcquisition is the date of ticker i's first acquisition.
func (c *calc) firstAcquisition(i int) (model.Date, bool) {
	var first model.Date
	found := false
	for _, k := range c.led.txns[i] {
		t := &c.txns[k]
		switch t.Action {
		case model.Buy, model.Pool, model.SpouseIn:
		case model.Takeover, model.Demerger:
			if c.led.of[k] == int32(i) {
				continue // the shares given up, not received
			}
		default:
			continue
		}
		if !found || t.Date < first {
			first, found = t.Date, true
		}
	}
	return first, found
}

// maxSuggestions is how many tickers a "did you mean" names at most.
const maxSuggestions = 3

// didYouMean names the held tickers nearest to name (see nearTickers), as a sentence starting
// with sep, or "" when none is near.
func didYouMean(name string, held []heldTicker, sep string) string {
	near := nearTickers(name, held)
	if len(near) == 0 {
		return ""
	}
	return sep + "Did you mean " + orList(near) + "?"
}

// orList writes "A", "A or B", "A, B or C".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// nearTickers are the held tickers other than name that are close to it: within one edit
// (two for names of six letters or more; a swap of neighbouring letters is one edit), or
// sharing a prefix of at least three letters and half the shorter name (VWRL and VWRL.L).
// Nearest first, then by name; at most maxSuggestions.
func nearTickers(name string, held []heldTicker) []string {
	type cand struct {
		name   string
		dist   int
		prefix int
	}
	var cs []cand
	limit := 1
	if len(name) >= 6 {
		limit = 2
	}
	for _, h := range held {
		if h.name == name {
			continue
		}
		d := typo.Distance(name, h.name)
		p := commonPrefix(name, h.name)
		if d <= limit || p >= 3 && 2*p >= min(len(name), len(h.name)) {
			cs = append(cs, cand{h.name, d, p})
		}
	}
	order.Sort(cs, func(a, b cand) int {
		if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		if c := cmp.Compare(b.prefix, a.prefix); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, 0, min(len(cs), maxSuggestions))
	for k := 0; k < len(cs) && k < maxSuggestions; k++ {
		out = append(out, cs[k].name)
	}
	return out
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// withSuggestions adds a "did you mean" to an error about a ticker the ledger never held
// before the line's date (a SELL, or an event that needs shares): such a ticker is most often
// a typo of one it does hold.
func (c *calc) withSuggestions(err error) error {
	me, ok := err.(*model.Error)
	if !ok || me.Code != model.CodeValidation {
		return err
	}
	ticker, _ := me.Context["ticker"].(string)
	date, _ := me.Context["date"].(string)
	if ticker == "" || date == "" {
		return err
	}
	name := c.ident.name(ticker)
	i, found := slices.BinarySearch(c.led.tickers, name)
	if !found {
		return err
	}
	d, derr := model.ParseDate(date)
	if derr != nil {
		return err
	}
	if from, ok := c.firstAcquisition(i); ok && from <= d {
		return err
	}
	held := slices.DeleteFunc(c.heldTickers(), func(h heldTicker) bool { return h.name == name })
	e := *me
	e.Context = make(map[string]any, len(me.Context)+1)
	for k, v := range me.Context {
		e.Context[k] = v
	}
	near := nearTickers(name, held)
	switch {
	case len(near) > 0:
		e.Hint = fmt.Sprintf("%s is not held before %s: did you mean %s? ", name, date, orList(near)) + asSentence(me.Hint)
		e.Context["did_you_mean"] = near
	case len(held) > 0 && len(held) <= 5:
		names := make([]string, len(held))
		for k, h := range held {
			names[k] = h.name
		}
		e.Hint = fmt.Sprintf("%s is not held before %s; the ledger holds %s. ", name, date, strings.Join(names, ", ")) + asSentence(me.Hint)
	default:
		e.Hint = fmt.Sprintf("%s is not held before %s. ", name, date) + asSentence(me.Hint)
	}
	return &e
}

// asSentence starts a hint that follows another sentence with a capital letter.
func asSentence(hint string) string {
	if hint == "" || hint[0] < 'a' || hint[0] > 'z' {
		return hint
	}
	return string(hint[0]-'a'+'A') + hint[1:]
}
