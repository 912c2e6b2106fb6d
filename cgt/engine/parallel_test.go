package engine

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

// TestLargeLedgerAnswersAsOnOneProcessor calculates a ledger large enough for every part of
// the engine that shares its work out (the tickers, the warnings beside the years' totals,
// the years at once, each year's sums) on every processor and then on one: the reports are
// the same, byte for byte, and each year's totals are the sums of its disposals.
func TestLargeLedgerAnswersAsOnOneProcessor(t *testing.T) {
	if testing.Short() {
		t.Skip("a ledger of 70,000 lines")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: nothing is shared out")
	}
	var src bytes.Buffer
	if err := ledgergen.Write(&src, ledgergen.Options{Lines: 70000, Tickers: 60, USDPercent: 20, Events: true, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	report := func() ([]byte, int) {
		txns, err := dsl.Parse("big.cgt", src.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		rep := calculateOrFail(t, txns)
		for i := range rep.TaxYears {
			checkYearTotals(t, &rep.TaxYears[i])
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		return b, len(allDisposals(rep))
	}
	many, disposals := report()
	if disposals < sumParallelMin {
		t.Fatalf("%d disposals: the years are totalled at once from %d", disposals, sumParallelMin)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if one, _ := report(); !bytes.Equal(many, one) {
		t.Fatalf("the report on one processor differs (%d bytes against %d)", len(one), len(many))
	}
}
