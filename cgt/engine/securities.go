package engine

import (
	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Securities is what a ledger's declarations and labels say about its tickers, for a caller
// that looks at the transactions itself (the plans): the engine's own reading, so the caller
// agrees with the calculation about aliases, accounts and funds.
type Securities struct{ id *identity }

// IdentifySecurities reads the ledger's ALIAS, ACCOUNT, EXEMPT and NONREPORTING lines and its
// ISINs as Calculate does.
func IdentifySecurities(txns []model.Transaction) Securities {
	return Securities{id: resolveIdentity(txns)}
}

// Name is the security a ticker stands for, as the report names it (Holding.Ticker,
// Disposal.Ticker).
func (s Securities) Name(ticker string) string { return s.id.name(ticker) }

// Wrapped reports whether a transaction was made in a tax wrapper (ISA, LISA, JISA, SIPP):
// outside CGT, never matched.
func (s Securities) Wrapped(t *model.Transaction) bool { return s.id.outside(t) }

// NonReporting reports whether a security (by its name) is declared a non-reporting offshore
// fund: its gains are offshore income gains, charged to income tax.
func (s Securities) NonReporting(name string) bool { return s.id.nonReporing[name] }

// Exempt reports whether a security (by its name) is declared exempt (s115).
func (s Securities) Exempt(name string) bool { return s.id.exempt[name] }

// TradePrice is a trade's price per share in its currency, as the line wrote it or worked out
// from the total form's total (to 6 places), that price as the line wrote it (71.80, not
// 71.8), and the currency (GBP when none is written).
func TradePrice(t *model.Transaction) (price decimal.Decimal, text, currency string) {
	return perShare(t)
}

// Hundredfold reports whether x is about a hundred times y (+1), y about a hundred times x
// (−1), or neither (0), by the bounds the ledger's price check uses. Both are positive.
func Hundredfold(x, y decimal.Decimal) int { return hundredfold(numOf(x), numOf(y)) }

// Where names a ledger line for a message: "planning.cgt line 4", "the inline ledger line 4".
func Where(s model.Source) string { return where(s) }
