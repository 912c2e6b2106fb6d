package dsl

import "github.com/cgt-tools/cgt/cgt/model"

// activeCurrencies are the ISO 4217 alphabetic codes in use, including the fund and
// precious-metal codes ISO lists (XAU, XDR...). XTS (testing) and XXX (no currency) are left out:
// neither can price a trade.
var activeCurrencies = []string{
	"AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
	"BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN",
	"BZD", "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC",
	"CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD",
	"FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG",
	"HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS",
	"KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL",
	"LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK",
	"MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB",
	"PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR",
	"SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC",
	"SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH",
	"UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV", "WST",
	"XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD",
	"XPF", "XPT", "XSU", "XUA", "YER", "ZAR", "ZMW", "ZWG",
}

// withdrawnCurrencies are codes withdrawn since 6 April 2008, the start of the rules this tool
// applies, so a ledger of older trades can still name the currency it was dealt in (HMRC
// published monthly rates for each of them while it was in use).
var withdrawnCurrencies = []string{
	"ANG", "BYR", "CUC", "CYP", "EEK", "HRK", "LTL", "LVL", "MRO", "MTL", "SKK", "SLL", "STD",
	"VEF", "ZMK", "ZWL",
}

// currencies maps each accepted code to itself so that a lookup returns a shared string and
// parsing a million lines allocates no currency strings.
var currencies = func() map[string]string {
	m := make(map[string]string, len(activeCurrencies)+len(withdrawnCurrencies))
	for _, c := range activeCurrencies {
		m[c] = c
	}
	for _, c := range withdrawnCurrencies {
		m[c] = c
	}
	return m
}()

// lookupCurrency returns the canonical (upper-case) code for a three-letter token in any case,
// and false when it is not an ISO 4217 code.
func lookupCurrency(tok []byte) (string, bool) {
	if len(tok) != 3 {
		return "", false
	}
	var up [3]byte
	for i, c := range tok {
		up[i] = upper(c)
	}
	code, ok := currencies[string(up[:])]
	return code, ok
}

// IsCurrency reports whether code (upper case) is an accepted ISO 4217 currency code.
func IsCurrency(code string) bool {
	_, ok := currencies[code]
	return ok
}

// upper maps an ASCII lower-case letter to upper case and leaves other bytes alone.
func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// pence converts an amount in pence (GBX, also written GBp) to pounds exactly: the same
// digits, two places further right ("150.25" pence is "1.5025" pounds). Nothing is rounded.
func pence(v model.Decimal) model.Decimal {
	if neg, hi, lo, exp, ok := v.Parts128(); ok {
		return model.NewDecimal128(neg, hi, lo, exp-2)
	}
	return model.NewDecimal(v.Exact().Shift(-2))
}

// isPence reports a pence currency code: GBX in any case, or GBp written exactly so (GBP and
// gbp are pounds).
func isPence(code string) bool {
	return code == "GBp" || len(code) == 3 && upper(code[0]) == 'G' && upper(code[1]) == 'B' && upper(code[2]) == 'X'
}
