package engine

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
)

func parseLedgerFile(t *testing.T, file, src string) []model.Transaction {
	t.Helper()
	txns, err := dsl.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return txns
}

func TestWrapperType(t *testing.T) {
	cases := map[string]string{"ISA": "ISA", "isa": "ISA", "Stocks & Shares ISA": "ISA", "T212-ISA": "ISA", "MYISA": "ISA",
		"LISA": "LISA", "JISA": "JISA", "SIPP": "SIPP", "HL-SIPP": "SIPP", "SIPP2": "SIPP", "S&S": "ISA",
		"GIA": "", "U1234567": "", "VISA": "", "T212": "", "Invest": ""}
	for label, want := range cases {
		if got := model.WrapperType(label); got != want {
			t.Errorf("WrapperType(%q) = %q, want %q", label, got, want)
		}
	}
}

func TestUndeclaredWrapperLabelWarns(t *testing.T) {
	src := "2024-01-02 BUY AAPL 10 @ 150 USD ACCOUNT T212-ISA\n2024-03-01 SELL AAPL 5 @ 170 USD ACCOUNT T212-ISA\n2024-03-01 BUY VOD 5 @ 1 ACCOUNT GIA\n"
	warnings := WrapperWarnings(parseLedgerFile(t, "a.cgt", src))
	if len(warnings) != 1 || !strings.Contains(warnings[0], "2024-01-02 ACCOUNT T212-ISA ISA") || !strings.Contains(warnings[0], "a.cgt:1") {
		t.Errorf("warnings %q", warnings)
	}
	for _, decl := range []string{"2024-01-01 ACCOUNT T212-ISA ISA\n", "2024-01-01 ACCOUNT t212-isa GIA\n"} {
		if w := WrapperWarnings(parseLedgerFile(t, "a.cgt", decl+src)); len(w) != 0 {
			t.Errorf("declared: %q", w)
		}
	}
}

func TestWrapperWarningQuotesALabelThatIsNotOneWord(t *testing.T) {
	txns := parseLedgerFile(t, "a.cgt", "2024-01-02 BUY AAPL 10 @ 150\n")
	txns[0].Account = "Stocks & Shares ISA"
	w := WrapperWarnings(txns)
	if len(w) != 1 || !strings.Contains(w[0], "`2024-01-02 ACCOUNT \"STOCKS & SHARES ISA\" ISA`") {
		t.Errorf("%q", w)
	}
}

func TestUndeclaredWrapperLabelWarnsInTheReport(t *testing.T) {
	rep, err := Calculate(parseLedgerFile(t, "a.cgt", "2024-01-02 BUY AAPL 10 @ 150 ACCOUNT ISA\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range rep.Warnings {
		if strings.Contains(w, `account "ISA" looks like a tax-free ISA`) {
			n++
		}
	}
	if n != 1 || len(rep.Excluded) != 0 {
		t.Errorf("warnings %q, excluded %d", rep.Warnings, len(rep.Excluded))
	}
}
