package engine

import (
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// The forms a tax year's investment income goes on.
const (
	FormSA100 = "SA100" // the main return: UK dividends (and small foreign dividends)
	FormSA106 = "SA106" // the Foreign pages: foreign dividends with the tax taken off abroad, fund income
)

// Kinds of income entry, as they appear in IncomeBox.Kind.
const (
	IncomeUKDividends      = "uk_dividends"
	IncomeForeignDividends = "foreign_dividends"
	IncomeERI              = "excess_reportable_income"
)

// IncomeBox is one figure of a tax year's investment income as the return asks for it: the
// form, the box (its number only where confirmed against HMRC's form, see docs/tax-rules.md
// "Income for the return"), the amount before tax taken off, the tax taken off, and the
// securities and ledger lines it is made of.
type IncomeBox struct {
	Kind        string         `json:"kind" jsonschema_description:"uk_dividends, foreign_dividends or excess_reportable_income"`
	Form        string         `json:"form" jsonschema_description:"SA100 (the main return) or SA106 (the Foreign pages)"`
	Box         string         `json:"box" jsonschema_description:"Box number on the form; empty where the number is not confirmed: enter the figure against the label"`
	Label       string         `json:"label" jsonschema_description:"The box's label on the form"`
	Amount      model.Money    `json:"amount" jsonschema_description:"Income before any tax taken off (GBP)"`
	TaxTakenOff model.Money    `json:"tax_taken_off" jsonschema_description:"Tax taken off abroad (GBP): for foreign tax credit relief on the SA106"`
	Note        string         `json:"note" jsonschema_description:"When the figure goes elsewhere, and what is not confirmed"`
	Sources     []IncomeSource `json:"sources" jsonschema_description:"The securities the figure is made of, with their lines"`
}

// IncomeSource is one security's part of an income figure.
type IncomeSource struct {
	Ticker      string      `json:"ticker" jsonschema_description:"The security"`
	Amount      model.Money `json:"amount" jsonschema_description:"Its income before tax taken off (GBP)"`
	TaxTakenOff model.Money `json:"tax_taken_off" jsonschema_description:"Its tax taken off (GBP)"`
	Lines       []SourceRef `json:"lines" jsonschema_description:"The DIVIDEND, ACCUMULATION and ERI lines (a bundled ERI figure is cited as its table entry)"`
}

// The labels and notes of the income entries (docs/tax-rules.md, "Income for the return").
const (
	labelUKDividends      = "Dividends from UK companies"
	labelForeignDividends = "Dividends from foreign companies"
	labelERI              = "Dividends from foreign companies: excess reportable income of offshore reporting funds"
	noteUKDividends       = "Distributions from UK authorised unit trusts, OEICs and investment trusts go in 'Other dividends' on the SA100; the ledger does not say which securities are funds. Box numbers not confirmed."
	noteForeignDividends  = "With the foreign tax taken off, for foreign tax credit relief. If your only foreign income is dividends of £2,000 or less and you claim no relief, the SA100's 'Foreign dividends (up to £2,000)' may be used instead. Box numbers not confirmed."
	noteERI               = "Income though nothing was paid (SI 2009/3001 reg 94(1)); no tax taken off. From a fund more than 60% invested in interest-bearing assets it is interest: 'Interest and other income from overseas savings' (ITTOIA 2005 s378A; HMRC's online return help lists excess reportable income there) — the fund's report says which. Not confirmed: check the fund's report."
)

// incomeBoxes splits a year's income as the return asks: UK dividends (SA100), foreign
// dividends with the tax taken off abroad (SA106), and excess reportable income (SA106).
// Notional (accumulation) distributions count with the dividends of their kind.
func incomeBoxes(incomes []*income) []IncomeBox {
	kinds := []struct{ kind, form, label, note string }{
		{IncomeUKDividends, FormSA100, labelUKDividends, noteUKDividends},
		{IncomeForeignDividends, FormSA106, labelForeignDividends, noteForeignDividends},
		{IncomeERI, FormSA106, labelERI, noteERI},
	}
	var out []IncomeBox
	for _, k := range kinds {
		var amount, tax num
		bySecurity := map[string]*incomePart{}
		var tickers []string
		for _, in := range incomes {
			if incomeKind(in) != k.kind {
				continue
			}
			amount, tax = amount.add(in.amount), tax.add(in.tax)
			p := bySecurity[in.ticker]
			if p == nil {
				p = &incomePart{}
				bySecurity[in.ticker] = p
				tickers = append(tickers, in.ticker)
			}
			p.amount, p.tax = p.amount.add(in.amount), p.tax.add(in.tax)
			p.lines = append(p.lines, sourceRef(in.src))
		}
		if amount.isZero() && tax.isZero() {
			continue
		}
		order.Ascending(tickers)
		b := IncomeBox{Kind: k.kind, Form: k.form, Label: k.label, Note: k.note + withoutISIN(incomes, k.kind), Amount: amount.money(), TaxTakenOff: tax.money()}
		for _, tk := range tickers {
			p := bySecurity[tk]
			b.Sources = append(b.Sources, IncomeSource{Ticker: tk, Amount: p.amount.money(), TaxTakenOff: p.tax.money(), Lines: p.lines})
		}
		out = append(out, b)
	}
	return out
}

// withoutISIN names, in the note of the UK dividends, the securities counted there only
// because the ledger gives them no ISIN: a security from abroad would be foreign.
func withoutISIN(incomes []*income, kind string) string {
	if kind != IncomeUKDividends {
		return ""
	}
	var tickers []string
	for _, in := range incomes {
		if in.noISIN {
			tickers = append(tickers, in.ticker)
		}
	}
	if len(tickers) == 0 {
		return ""
	}
	order.Ascending(tickers)
	tickers = slices.Compact(tickers) // sorted first: a year of a large ledger pays from a thousand securities
	return " Counted here for want of an ISIN: " + strings.Join(tickers, ", ") +
		". A security from abroad pays foreign dividends (SA106): give its ISIN (an ISIN line)."
}

type incomePart struct {
	amount, tax num
	lines       []SourceRef
}

func incomeKind(in *income) string {
	switch {
	case in.eri:
		return IncomeERI
	case in.foreign:
		return IncomeForeignDividends
	}
	return IncomeUKDividends
}
