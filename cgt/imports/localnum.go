package imports

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// commaStyle says how a comma in a number is read by localNumber.
type commaStyle int

const (
	// commaThousands: a comma before exactly three digits separates thousands ("$1,234"),
	// any other comma is a decimal comma ("0,76672417", "100,00"). Revolut and eToro write
	// both kinds in one file.
	commaThousands commaStyle = iota
	// commaDecimal: a lone comma is always the decimal point ("5,416" is five and a bit), as
	// in DEGIRO's exports in every UI language.
	commaDecimal
)

// localNumber reads a number written the way European-language exports write it: an
// optional currency sign ($ £ € or a three-letter code), blanks or non-breaking spaces as
// thousands separators, a decimal comma, a negative in parentheses. When both '.' and ','
// appear, the last one is the decimal point. The digits are then read exactly by
// parseNumber.
func localNumber(s string, style commaStyle) (decimal.Decimal, bool) {
	s = strings.TrimSpace(strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s))
	neg := false
	if len(s) > 2 && s[0] == '(' && s[len(s)-1] == ')' {
		neg, s = true, strings.TrimSpace(s[1:len(s)-1])
	}
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg = neg != (s[0] == '-')
		s = strings.TrimSpace(s[1:])
	}
	for _, sign := range []string{"US$", "$", "£", "€"} {
		s = strings.TrimPrefix(s, sign)
	}
	if strings.HasPrefix(s, "-") { // "$-3"
		neg, s = !neg, s[1:]
	}
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	dot, comma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	switch {
	case dot >= 0 && comma >= 0 && comma > dot: // 1.234,56
		s = strings.ReplaceAll(s, ".", "")
		s = strings.Replace(s, ",", ".", 1)
		if strings.Contains(s, ",") {
			return decimal.Decimal{}, false
		}
	case dot >= 0 && comma >= 0: // 1,234.56
		if !thousands(s) {
			return decimal.Decimal{}, false
		}
		s = strings.ReplaceAll(s, ",", "")
	case comma >= 0:
		whole, _, _ := strings.Cut(s, ",")
		if style == commaThousands && thousands(s) && strings.Trim(whole, "0") != "" {
			s = strings.ReplaceAll(s, ",", "")
		} else if strings.Count(s, ",") == 1 {
			s = strings.Replace(s, ",", ".", 1)
		} else {
			return decimal.Decimal{}, false
		}
	}
	d, ok := parseNumber(s, plainNumber)
	if !ok {
		return decimal.Decimal{}, false
	}
	if neg {
		d = d.Neg()
	}
	return d, true
}

// decimalCommas reports whether one of a row's amounts is written with a decimal comma
// ("100,00", "0,7667", "1.234,56", "1 757,95"): a comma that is not followed by exactly three
// digits, or one after a '.'. In such a row a quantity's lone comma is a decimal comma too
// ("1,234" is 1.234), whatever the digits after it.
func decimalCommas(amounts ...string) bool {
	for _, s := range amounts {
		s = strings.TrimRight(strings.TrimSpace(s), ") ")
		comma := strings.LastIndexByte(s, ',')
		if comma < 0 {
			continue
		}
		if dot := strings.LastIndexByte(s, '.'); dot >= 0 && dot < comma {
			return true // 1.234,56
		}
		whole := strings.TrimLeft(s[:comma], "-+($£€US ")
		after := s[comma+1:]
		digits := after != "" && strings.Trim(after, "0123456789") == ""
		if digits && (len(after) != 3 || strings.Trim(whole, "0") == "") {
			return true // 100,00 or 0,766
		}
	}
	return false
}

// rowStyle is how a quantity's comma is read in a row whose amounts are given.
func rowStyle(amounts ...string) commaStyle {
	if decimalCommas(amounts...) {
		return commaDecimal
	}
	return commaThousands
}

// local reads a number field with localNumber; an empty (or placeholder) cell is zero and
// not ok.
func (t *table) local(c int, style commaStyle) (decimal.Decimal, bool) {
	s := t.str(c)
	if isEmptyCell(s) {
		return decimal.Decimal{}, false
	}
	if tooManyDigits(s) {
		t.fail(c, clip(s, 80), fmt.Sprintf("%q has more than %d digits", clip(s, 40), maxNumberDigits), "No quantity, price or amount has that many digits; export the file again without editing it.")
		return decimal.Decimal{}, false
	}
	d, ok := localNumber(s, style)
	if !ok {
		t.fail(c, s, fmt.Sprintf("%q is not a number", clip(s, 40)),
			"Numbers are read as the broker writes them (1,234.56 or 1.234,56 or 1 234,56); export the file again without editing it in a spreadsheet.")
		return decimal.Decimal{}, false
	}
	return d, true
}

// moneySign returns the currency a money cell's sign names ("£12.00" is GBP), or "".
func moneySign(s string) string {
	s = strings.TrimLeft(strings.TrimSpace(s), "-+( ")
	switch {
	case strings.HasPrefix(s, "£"):
		return "GBP"
	case strings.HasPrefix(s, "US$"), strings.HasPrefix(s, "$"):
		return "USD"
	case strings.HasPrefix(s, "€"):
		return "EUR"
	}
	return ""
}

// splitCosts splits the cash of a trade into consideration and costs when the export gives
// the price but not the charges: for a buy the cash debited less quantity × price, for a
// sale quantity × price less the cash credited. It gives ok false (keep the cash as the
// total, charges unknown) when quantity × price is not a whole number of pence or the
// difference is negative (the price was in another unit, or rounded).
func splitCosts(buy bool, qty, price, cash decimal.Decimal) (consideration, costs decimal.Decimal, ok bool) {
	gross := qty.Mul(price)
	if price.Sign() <= 0 || !gross.Equal(gross.Round(2)) {
		return cash, decimal.Decimal{}, false
	}
	gross = gross.Round(2)
	costs = cash.Sub(gross)
	if !buy {
		costs = gross.Sub(cash)
	}
	if costs.Sign() < 0 || costs.GreaterThanOrEqual(gross) {
		return cash, decimal.Decimal{}, false
	}
	return gross, costs, true
}
