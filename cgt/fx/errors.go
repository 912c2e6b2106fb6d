package fx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// normalizeCurrency upper-cases a code and refuses what cannot be one. "GBp" and "GBX" are
// the market convention for prices in pence; upper-casing "GBp" to GBP would overstate an
// amount a hundredfold, so both are refused with a hint.
func normalizeCurrency(s string) (string, error) {
	trimmed := strings.TrimSpace(s)
	code := strings.ToUpper(trimmed)
	if trimmed == "GBp" || code == "GBX" {
		return "", &model.Error{
			Code:     model.CodeInvalidArgument,
			Message:  fmt.Sprintf("currency %q means pence sterling, which is not a currency HMRC publishes a rate for", trimmed),
			Hint:     "Divide the amount by 100 and give it in GBP.",
			Examples: []string{"12.34 GBP"},
			Value:    trimmed,
		}
	}
	if !ValidCurrencyCode(code) {
		return "", invalid(fmt.Sprintf("currency %q is not a three-letter ISO 4217 code", clip(trimmed)), "USD")
	}
	return code, nil
}

// unavailable explains a missing rate: the nearest months with one if the currency is known,
// close codes if it is not.
func (t *Table) unavailable(code string, m month) *model.Error {
	ms := t.available(code)
	if len(ms) == 0 {
		return t.unknownCurrency(code, m)
	}
	nearest := map[string]string{}
	for _, a := range ms {
		if a < m {
			nearest["before"] = a.String()
		} else if _, ok := nearest["after"]; !ok {
			nearest["after"] = a.String()
		}
	}
	first, last := ms[0].String(), ms[len(ms)-1].String()
	return &model.Error{
		Code:     model.CodeFXUnavailable,
		Message:  fmt.Sprintf("no HMRC monthly rate for %s in %s", code, m),
		Hint:     missingHint(code, m, ms[0], ms[len(ms)-1]),
		Examples: []string{fmt.Sprintf("fx.rate %s %d %d", code, int(ms[len(ms)-1])/12, int(ms[len(ms)-1])%12+1)},
		Value:    code,
		Context: map[string]any{
			"currency":        code,
			"period":          m.String(),
			"nearest":         nearest,
			"available_range": map[string]string{"first": first, "last": last},
		},
	}
}

func missingHint(code string, m, first, last month) string {
	switch {
	case m > last:
		return fmt.Sprintf("The bundled rates for %s end at %s. HMRC publishes each month's rates shortly before the month starts: download the %s file from HMRC's monthly exchange rates and load it as a rate file.", code, last, m)
	case m < first:
		return fmt.Sprintf("The bundled rates for %s start at %s. Download HMRC's monthly exchange-rate file for %s and load it as a rate file.", code, first, m)
	}
	return fmt.Sprintf("HMRC published no %s rate for %s. Convert the amount to GBP yourself with a rate you can justify and give it in GBP, or load an HMRC rate file that has one.", code, m)
}

func (t *Table) unknownCurrency(code string, m month) *model.Error {
	matches := closeCodes(code, t.Currencies())
	msg := fmt.Sprintf("HMRC publishes no monthly rate for currency %s", code)
	hint := "Check the currency code (ISO 4217, e.g. USD, EUR, JPY)."
	if len(matches) > 0 {
		msg += "; did you mean " + strings.Join(matches, ", ") + "?"
		hint = "Use one of the close matches if it is the currency you meant."
	}
	ctx := map[string]any{"currency": code, "period": m.String()}
	if len(matches) > 0 {
		ctx["close_matches"] = matches
	}
	if first, last := t.Months(); first != "" {
		ctx["available_range"] = map[string]string{"first": first, "last": last}
	}
	return &model.Error{
		Code:     model.CodeFXUnavailable,
		Message:  msg,
		Hint:     hint,
		Examples: []string{fmt.Sprintf("fx.rate USD %d %d", int(m)/12, int(m)%12+1)},
		Value:    code,
		Context:  ctx,
	}
}

// closeCodes returns the known codes one letter away from code, or with two adjacent letters
// swapped.
func closeCodes(code string, known []string) []string {
	var out []string
	for _, k := range known {
		if nearCode(code, k) {
			out = append(out, k)
		}
	}
	return out
}

func nearCode(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	var diff []int
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			diff = append(diff, i)
		}
	}
	switch len(diff) {
	case 1:
		return true
	case 2:
		i, j := diff[0], diff[1]
		return j == i+1 && a[i] == b[j] && a[j] == b[i]
	}
	return false
}

func invalid(msg, example string) *model.Error {
	return &model.Error{
		Code:     model.CodeInvalidArgument,
		Message:  msg,
		Hint:     "Give a three-letter currency code, a year and a month number (1-12).",
		Examples: []string{example},
	}
}

// Later reports whether err is the missing-rate error of a month after the last month the
// rates have for a known currency (a month HMRC may not have published yet, or that was not
// fetched), and gives that last month. A month missing in between, or an unknown currency,
// is not later: no newer file would supply it.
func Later(err error) (last string, ok bool) {
	var me *model.Error
	if !errors.As(err, &me) || me.Code != model.CodeFXUnavailable {
		return "", false
	}
	near, _ := me.Context["nearest"].(map[string]string)
	rng, _ := me.Context["available_range"].(map[string]string)
	period, _ := me.Context["period"].(string)
	if near == nil || near["after"] != "" || rng["last"] == "" || period <= rng["last"] {
		return "", false
	}
	return rng["last"], true
}
