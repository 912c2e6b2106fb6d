package reportview

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/engine"
)

// A report with no year to show says whether the ledger holds nothing or only disposals set
// apart from the SA108, which are listed after it.
func TestTextWithNothingForTheSA108(t *testing.T) {
	for _, tc := range []struct {
		name string
		rep  engine.Report
		want string
	}{
		{"empty", engine.Report{}, "No disposals or dividends in the ledger."},
		{"offshore_income_gain", engine.Report{OffshoreIncomeGains: []engine.Disposal{{Ticker: "VTI"}}}, "No disposals for the SA108 and no dividends: what the ledger holds is set apart below."},
		{"isa_only", engine.Report{Excluded: []engine.ExcludedTransaction{{Ticker: "VOD"}}}, "set apart below"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := Text(&b, &tc.rep, "l.cgt", nil); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("got:\n%s\nwant it to say %q", b.String(), tc.want)
			}
		})
	}
}
