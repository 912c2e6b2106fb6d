package dsl

import (
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Input is one ledger to read: its name (used in errors, sources and warnings) and its bytes.
type Input struct {
	File    string
	Content []byte
}

// ReadAll parses several ledgers (each may be text or a JSON array) and returns their
// transactions in input order. A transaction that appears identically in two different inputs
// is kept twice and reported in one warning per repeat, since overlapping broker exports are a
// common mistake but two real trades can be identical. Identical lines within one input are two
// fills and give no warning. The first parse error stops the read.
func ReadAll(inputs []Input) (txns []model.Transaction, warnings []string, err error) {
	perInput := make([][]model.Transaction, len(inputs))
	total := 0
	for i, in := range inputs {
		got, err := ParseAuto(in.File, in.Content)
		if err != nil {
			return nil, nil, err
		}
		perInput[i] = got
		total += len(got)
	}
	if len(inputs) == 1 { // nothing to join: a large ledger is not copied
		return perInput[0], nil, nil
	}
	txns = make([]model.Transaction, 0, total)
	for _, got := range perInput {
		txns = append(txns, got...)
	}
	if len(inputs) > 1 {
		warnings = crossFileDuplicates(perInput)
	}
	return txns, warnings, nil
}

// crossFileDuplicates warns once for every transaction that repeats one first seen in an
// earlier input.
func crossFileDuplicates(perInput [][]model.Transaction) []string {
	type seen struct {
		input int
		src   model.Source
	}
	first := make(map[string]seen)
	var warnings []string
	for i, txns := range perInput {
		for _, t := range txns {
			key := identity(t)
			prev, ok := first[key]
			switch {
			case !ok:
				first[key] = seen{i, t.Source}
			case prev.input != i:
				warnings = append(warnings, summary(t)+" appears in "+where(prev.src)+" and "+where(t.Source)+" (overlapping exports?)")
			}
		}
	}
	return warnings
}

// identity is what makes two transactions the same trade: every field but Source and the
// security's ISIN and name (information about the security, not the trade), with equal
// numbers compared by value ("50" is "50.00") and zero amounts equal whatever their currency.
// The account and the broker's reference count: the same trade in two accounts, or with two
// references, is two trades.
func identity(t model.Transaction) string {
	var b strings.Builder
	b.WriteString(t.Date.String())
	for _, s := range []string{string(t.Action), t.Ticker, normalString(t.Quantity.Exact()), amountKey(t.Price),
		amountKey(t.Fees), amountKey(t.Total), amountKey(t.Tax), normalString(t.Ratio.Exact()),
		t.NewTicker, amountKey(t.Cost), amountKey(t.Cash), amountKey(t.Value), t.AccountType, t.Account, t.BrokerRef} {
		b.WriteByte('|')
		b.WriteString(s)
	}
	return b.String()
}

func amountKey(a model.Amount) string {
	if a.Value.IsZero() {
		return "0"
	}
	return normalString(a.Value.Exact()) + " " + currencyOf(a)
}

// summary names a transaction briefly: "2024-06-20 SELL AAPL 50".
func summary(t model.Transaction) string {
	s := t.Date.String() + " " + string(t.Action) + " " + t.Ticker
	switch t.Action {
	case model.Dividend:
		return s + " TOTAL " + exactString(t.Total.Value.Exact()) + " " + currencyOf(t.Total)
	case model.Split, model.Unsplit:
		return s + " RATIO " + exactString(t.Ratio.Exact())
	case model.AccountDecl:
		return s + " " + t.AccountType
	case model.Alias:
		return s + " " + t.NewTicker
	case model.Exempt, model.NonReporting:
		return s
	case model.Takeover, model.Demerger:
		return s + " " + t.NewTicker + " " + exactString(t.Quantity.Exact())
	}
	return s + " " + exactString(t.Quantity.Exact())
}

// where names a source: "a.cgt:2" for a text line, "a.json[3]" for an array element.
func where(s model.Source) string {
	file := s.File
	if file == "" {
		file = "<input>"
	}
	if s.Line > 0 {
		return file + ":" + strconv.Itoa(s.Line)
	}
	return file + "[" + strconv.Itoa(s.Index) + "]"
}
