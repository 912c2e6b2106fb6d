// Package fx converts foreign amounts at HMRC's monthly exchange rates. It reads HMRC's
// monthly XML files, holds rates in a Table (the bundled, embedded one or one built from
// files a user downloaded) and answers strict lookups by month. It does no file I/O: callers
// pass an io.Reader or bytes.
package fx

import (
	"fmt"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// Licence is the licence under which HMRC publishes its exchange rates.
const Licence = "Open Government Licence v3.0"

// GBPSource is the Source of the rate returned for sterling, which needs no conversion.
const GBPSource = "GBP (no conversion)"

// Rate is one HMRC monthly rate: how many units of Currency buy £1 in Period.
type Rate struct {
	_ model.NotComparable

	Currency string          // ISO 4217 code, e.g. "USD"
	Period   string          // the month, "2024-03"
	PerGBP   decimal.Decimal // units of Currency per £1, exactly as published
	Source   string          // citation, e.g. "HMRC monthly exchange rates, 2024-03 (Open Government Licence v3.0)"
}

// Source answers the HMRC rate for a currency in a calendar month. Table implements it; the
// tax engine depends only on this interface.
type Source interface {
	Rate(currency string, year int, month time.Month) (Rate, error)
}

// SourceFor returns the citation for HMRC's monthly rates of a period ("2024-03").
func SourceFor(period string) string {
	return "HMRC monthly exchange rates, " + period + " (" + Licence + ")"
}

// month is a calendar month as a single ordinal (year*12 + month-1), so that months compare,
// subtract and index as integers.
type month int

func monthOf(year int, m time.Month) month { return month(year*12 + int(m) - 1) }

// String writes "YYYY-MM" (by hand: it is on the lookup path).
func (m month) String() string {
	y, mo := int(m)/12, int(m)%12+1
	if y < 0 || y > 9999 {
		return fmt.Sprintf("%d-%02d", y, mo)
	}
	b := [7]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-', byte('0' + mo/10), byte('0' + mo%10)}
	return string(b[:])
}

// parsePeriod reads a strict "YYYY-MM" period.
func parsePeriod(s string) (month, bool) {
	if len(s) != 7 || s[4] != '-' {
		return 0, false
	}
	y, ok1 := digits(s[:4])
	m, ok2 := digits(s[5:])
	if !ok1 || !ok2 || m < 1 || m > 12 {
		return 0, false
	}
	return monthOf(y, time.Month(m)), true
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}

// ValidCurrencyCode reports whether s is three upper-case ASCII letters, the form of an ISO
// 4217 code.
func ValidCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// validRateText reports whether s is a plain positive decimal as HMRC writes them ("1.2745",
// "16362"): digits with at most one point, no sign, no exponent, not absurdly long.
func validRateText(s string) bool {
	if len(s) == 0 || len(s) > 32 || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	points := 0
	nonZero := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			points++
		case c >= '1' && c <= '9':
			nonZero = true
		case c != '0':
			return false
		}
	}
	return points <= 1 && nonZero
}

// Text returns PerGBP as HMRC wrote it, trailing zeros kept ("2.7580"), which is how the
// rate is reported and stored in the embedded table.
func (r Rate) Text() string { return exactText(r.PerGBP) }

// exactText writes d at its own scale; decimal's String drops trailing zeros.
func exactText(d decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.String()
}

func (m month) year() int       { return int(m) / 12 }
func (m month) mon() time.Month { return time.Month(int(m)%12 + 1) }
