package engine

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestForeignDividend(t *testing.T) {
	for _, tc := range []struct {
		name     string
		currency string
		isin     string // the line's own
		security string // the security's, from the rest of the ledger
		foreign  bool
	}{
		{"pounds_without_isin_is_uk", "GBP", "", "", false},
		{"pounds_with_gb_isin_is_uk", "GBP", "GB0007188757", "", false},
		{"dollars_are_foreign", "USD", "", "", true},
		{"pounds_from_an_irish_fund_are_foreign", "GBP", "IE00B3RBWM25", "", true},
		{"the_security_s_isin_when_the_line_has_none", "GBP", "", "IE00B3RBWM25", true},
		{"the_security_s_gb_isin", "GBP", "", "GB0007188757", false},
		{"the_line_s_own_isin_first", "GBP", "GB0007188757", "IE00B3RBWM25", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := model.Transaction{Action: model.Dividend, Total: model.Amount{Currency: tc.currency}, ISIN: tc.isin}
			if got := foreignDividend(&tx, tc.security); got != tc.foreign {
				t.Errorf("foreign = %v, want %v", got, tc.foreign)
			}
		})
	}
}

// The security's ISIN classes its dividends however the ledger gives it: declared by an ISIN
// line, labelled on a purchase, or as the security's name; the lines themselves carry none.
func TestDividendsClassedByTheSecuritysISIN(t *testing.T) {
	for name, ledger := range map[string]string{
		"declared": "2019-06-03 ISIN VWRL IE00B3RBWM25\n2019-06-03 BUY VWRL 120 @ 78.40\n2021-03-15 DIVIDEND VWRL TOTAL 96.30\n2022-03-15 ACCUMULATION VWRL 120 TOTAL 104.10\n",
		"labelled": "2019-06-03 BUY VWRL 120 @ 78.40 ISIN IE00B3RBWM25\n2021-03-15 DIVIDEND VWRL TOTAL 96.30\n2022-03-15 ACCUMULATION VWRL 120 TOTAL 104.10\n",
		"named":    "2019-06-03 BUY IE00B3RBWM25 120 @ 78.40\n2021-03-15 DIVIDEND IE00B3RBWM25 TOTAL 96.30\n2022-03-15 ACCUMULATION IE00B3RBWM25 120 TOTAL 104.10\n",
	} {
		t.Run(name, func(t *testing.T) {
			rep := mustRun(t, ledger, Options{})
			var uk, foreign int
			for _, y := range rep.TaxYears {
				for _, in := range y.Income {
					switch in.Kind {
					case IncomeUKDividends:
						uk++
					case IncomeForeignDividends:
						foreign++
					}
				}
			}
			if uk != 0 || foreign != 2 {
				t.Errorf("UK dividend entries %d, foreign %d; want every one foreign", uk, foreign)
			}
		})
	}
}

// The UK dividends' note names the securities counted there only for want of an ISIN, and no
// security whose ISIN is given.
func TestUKDividendsNoteNamesTheSecuritiesWithoutISIN(t *testing.T) {
	ledger := "2019-06-03 BUY VOD 100 @ 1.00\n2019-06-03 BUY HSBA 100 @ 5.00 ISIN GB0005405286\n" +
		"2020-05-01 DIVIDEND VOD TOTAL 5.00\n2020-05-01 DIVIDEND HSBA TOTAL 9.00\n2021-05-01 DIVIDEND HSBA TOTAL 9.00\n"
	rep := mustRun(t, ledger, Options{})
	notes := map[string]string{}
	for _, y := range rep.TaxYears {
		for _, in := range y.Income {
			notes[y.Period] = in.Note
		}
	}
	if n := notes["2020/21"]; !strings.Contains(n, "want of an ISIN: VOD.") || strings.Contains(n, "HSBA") {
		t.Errorf("2020/21 note: %q", n)
	}
	if n := notes["2021/22"]; strings.Contains(n, "want of an ISIN") {
		t.Errorf("2021/22 note: %q", n)
	}
}
