package dsl

import (
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
	"github.com/cgt-tools/cgt/cgt/model"
)

// Format writes one transaction as a canonical ledger line ending in "\n": keywords and
// tickers upper case, one space between fields, every currency written, numbers at the scale
// they were given, FEES and TAX only when non-zero. Parse reads it back to the same
// transaction (apart from Source).
func Format(t model.Transaction) string {
	return string(appendTransaction(make([]byte, 0, 80), t))
}

// FormatAll writes transactions in the order given, one canonical line each. A long list is
// written in parts at once (an import of 100,000 rows writes its ledger twice: for the
// write-back check and for the result).
func FormatAll(txns []model.Transaction) string {
	parts := min(runtime.GOMAXPROCS(0), len(txns)/formatPartLines)
	if parts < 2 {
		return string(appendAll(make([]byte, 0, 64*len(txns)), txns))
	}
	bufs := make([][]byte, parts)
	fanout.Each(parts, func(k int) {
		part := txns[len(txns)*k/parts : len(txns)*(k+1)/parts]
		bufs[k] = appendAll(make([]byte, 0, 96*len(part)), part)
	})
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	var out strings.Builder
	out.Grow(n)
	for _, b := range bufs {
		out.Write(b)
	}
	return out.String()
}

// formatPartLines is the fewest lines worth a part of FormatAll's own.
const formatPartLines = 8192

func appendAll(b []byte, txns []model.Transaction) []byte {
	for i := range txns {
		b = appendTransaction(b, txns[i])
	}
	return b
}

func appendTransaction(b []byte, t model.Transaction) []byte {
	b = appendDate(b, t.Date)
	b = append(b, ' ')
	b = append(b, t.Action...)
	b = append(b, ' ')
	if t.Action == model.AccountDecl {
		b = appendAccount(b, t.Ticker)
	} else {
		b = append(b, t.Ticker...)
	}
	switch t.Action {
	case model.Buy, model.Sell:
		b = appendNumber(b, " ", t.Quantity)
		if TotalForm(t) {
			b = appendAmount(b, " TOTAL ", t.Total)
		} else {
			b = appendAmount(b, " @ ", t.Price)
		}
		b = appendOptional(b, " FEES ", t.Fees)
	case model.Dividend:
		b = appendAmount(b, " TOTAL ", t.Total)
		b = appendOptional(b, " TAX ", t.Tax())
	case model.Accumulation:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " TOTAL ", t.Total)
		b = appendOptional(b, " TAX ", t.Tax())
	case model.CapReturn:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " TOTAL ", t.Total)
		b = appendOptional(b, " FEES ", t.Fees)
		b = appendOptional(b, " VALUE ", t.Value())
	case model.Split, model.Unsplit:
		b = appendNumber(b, " RATIO ", t.Ratio())
	case model.SpouseOut:
		b = appendNumber(b, " ", t.Quantity)
	case model.SpouseIn, model.Pool:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " COST ", t.Cost())
	case model.Rights:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " @ ", t.Price)
		b = appendOptional(b, " FEES ", t.Fees)
	case model.Takeover:
		b = append(append(b, ' '), t.NewTicker()...)
		b = appendNumber(b, " ", t.Quantity)
		b = appendOptional(b, " CASH ", t.Cash())
		b = appendOptional(b, " VALUE ", t.Value())
	case model.Demerger:
		b = append(append(b, ' '), t.NewTicker()...)
		b = appendNumber(b, " ", t.Quantity)
		b = appendNumber(b, " COST ", t.Ratio())
	case model.ERI:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " TOTAL ", t.Total)
	case model.Negligible:
		if t.Value().Currency != "" || !t.Value().IsZero() { // VALUE 0 (nil, written) stays written
			b = appendAmount(b, " VALUE ", t.Value())
		}
	case model.AccountDecl:
		b = append(append(b, ' '), t.AccountType()...)
	case model.Alias:
		b = append(append(b, ' '), t.NewTicker()...)
	case model.ISINDecl:
		b = append(append(b, ' '), t.ISIN...)
		u := t
		u.ISIN = ""
		return append(appendLabels(b, u), '\n')
	}
	return append(appendLabels(b, t), '\n')
}

// TotalForm reports whether a BUY or SELL is written in the total form (the whole
// consideration) rather than with a price per share: it has no price currency and a total.
func TotalForm(t model.Transaction) bool {
	return t.Price.Currency == "" && t.Price.Value.IsZero() && (t.Total.Currency != "" || !t.Total.Value.IsZero())
}

// appendLabels writes the labels in a fixed order, and the security's name as a comment (the
// ledger language has no field for it).
func appendLabels(b []byte, t model.Transaction) []byte {
	if t.Account != "" {
		b = appendAccount(append(b, " ACCOUNT "...), t.Account)
	}
	if t.ISIN != "" {
		b = appendLabelValue(append(b, " ISIN "...), t.ISIN)
	}
	if t.BrokerRef != "" {
		b = appendLabelValue(append(b, " REF "...), t.BrokerRef)
	}
	if t.Name != "" {
		b = appendComment(append(b, " # "...), t.Name)
	}
	return b
}

// appendComment writes text for a comment: control characters (and the Unicode line and
// paragraph separators) become spaces, so the text cannot start a new line.
func appendComment(b []byte, s string) []byte {
	for _, r := range s {
		if labelControl(r) || r == utf8.RuneError {
			r = ' '
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// CommentText returns s made safe for a ledger comment: control characters become spaces.
func CommentText(s string) string { return string(appendComment(nil, s)) }

// appendAccount writes an account label bare when it follows the rules of tickers, else quoted.
func appendAccount(b []byte, s string) []byte {
	var buf [maxTickerLen]byte
	if up, bad := upperTicker([]byte(s), &buf); bad < 0 && len(up) > 0 && string(up) == s {
		return append(b, s...)
	}
	return appendQuoted(b, s)
}

func appendNumber(b []byte, before string, d model.Decimal) []byte {
	b = append(b, before...)
	return d.AppendExact(b)
}

func appendAmount(b []byte, before string, a model.Amount) []byte {
	b = appendNumber(b, before, a.Value)
	b = append(b, ' ')
	return append(b, currencyOf(a)...)
}

func appendOptional(b []byte, before string, a model.Amount) []byte {
	if a.Value.IsZero() {
		return b
	}
	return appendAmount(b, before, a)
}

// currencyOf reads an empty currency (an Amount built in code) as GBP, as the ledger does.
func currencyOf(a model.Amount) string {
	if a.Currency == "" {
		return model.GBP
	}
	return a.Currency
}
