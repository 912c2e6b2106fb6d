package dsl

import (
	"github.com/cgt-tools/cgt/cgt/model"
)

// Format writes one transaction as a canonical ledger line ending in "\n": keywords and
// tickers upper case, one space between fields, every currency written, numbers at the scale
// they were given, FEES and TAX only when non-zero. Parse reads it back to the same
// transaction (apart from Source).
func Format(t model.Transaction) string {
	return string(appendTransaction(make([]byte, 0, 80), t))
}

// FormatAll writes transactions in the order given, one canonical line each.
func FormatAll(txns []model.Transaction) string {
	b := make([]byte, 0, 64*len(txns))
	for _, t := range txns {
		b = appendTransaction(b, t)
	}
	return string(b)
}

func appendTransaction(b []byte, t model.Transaction) []byte {
	b = appendDate(b, t.Date)
	b = append(b, ' ')
	b = append(b, t.Action...)
	b = append(b, ' ')
	b = append(b, t.Ticker...)
	switch t.Action {
	case model.Buy, model.Sell:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " @ ", t.Price)
		b = appendOptional(b, " FEES ", t.Fees)
	case model.Dividend:
		b = appendAmount(b, " TOTAL ", t.Total)
		b = appendOptional(b, " TAX ", t.Tax)
	case model.Accumulation:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " TOTAL ", t.Total)
		b = appendOptional(b, " TAX ", t.Tax)
	case model.CapReturn:
		b = appendNumber(b, " ", t.Quantity)
		b = appendAmount(b, " TOTAL ", t.Total)
		b = appendOptional(b, " FEES ", t.Fees)
	case model.Split, model.Unsplit:
		b = appendNumber(b, " RATIO ", t.Ratio)
	}
	return append(b, '\n')
}

func appendNumber(b []byte, before string, d model.Decimal) []byte {
	b = append(b, before...)
	return appendExact(b, d.Exact())
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
