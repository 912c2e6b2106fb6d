package sources

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
)

const t212Header = "Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Total,Currency (Total),Withholding tax,Currency (Withholding tax),ID\n"

// t212 has a buy with a reference, two identical fills without one, a dividend and a split.
const t212 = t212Header +
	"Market buy,2024-03-04 10:00:00,US67066G1040,NVDA,NVIDIA,5,850,USD,1.265,3365.10,GBP,,,EOF1\n" +
	"Market buy,2024-03-05 10:00:00,US67066G1040,NVDA,NVIDIA,1,850,USD,1.265,673.02,GBP,,,\n" +
	"Market buy,2024-03-05 10:00:00,US67066G1040,NVDA,NVIDIA,1,850,USD,1.265,673.02,GBP,,,\n" +
	"Dividend (Dividend),2024-04-03 10:00:00,US67066G1040,NVDA,NVIDIA,7,0.0008,GBP,,0.04,GBP,0.01,USD,\n" +
	"Stock split close,2024-06-10 06:00:00,US67066G1040,NVDA,NVIDIA,7,,,,,,,,\n" +
	"Stock split open,2024-06-10 06:00:00,US67066G1040,NVDA,NVIDIA,70,,,,,,,,\n"

func export(t *testing.T, file, src string, opts imports.Options) Source {
	t.Helper()
	imp, err := imports.Read(file, []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return Source{File: file, Import: imp}
}

func ledger(t *testing.T, file, src string) Source {
	t.Helper()
	txns, err := dsl.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Source{File: file, Transactions: txns}
}

func count(txns []model.Transaction, a model.Action) int {
	n := 0
	for _, t := range txns {
		if t.Action == a {
			n++
		}
	}
	return n
}

func TestEveryImportedRowHasAnIdentity(t *testing.T) {
	txns, _ := Combine([]Source{export(t, "a.csv", t212, imports.Options{})})
	for _, tx := range txns {
		if tx.BrokerRef == "" {
			t.Errorf("%s has no identity", Summary(&tx))
		}
		if msg, _ := dsl.CheckBrokerRef(tx.BrokerRef); msg != "" {
			t.Errorf("identity %q cannot be written as a REF: %s", tx.BrokerRef, msg)
		}
	}
	if txns[0].BrokerRef != "EOF1" {
		t.Errorf("the broker's reference is the identity, got %q", txns[0].BrokerRef)
	}
	if txns[2].BrokerRef != txns[1].BrokerRef+"-2" {
		t.Errorf("identical fills have distinct fingerprints, the second -2: %q, %q", txns[1].BrokerRef, txns[2].BrokerRef)
	}
}

func TestSameExportTwiceCountsOnce(t *testing.T) {
	a := export(t, "a.csv", t212, imports.Options{})
	b := export(t, "b.csv", t212, imports.Options{})
	one, _ := Combine([]Source{export(t, "a.csv", t212, imports.Options{})})
	txns, warnings := Combine([]Source{a, b})
	if len(txns) != len(one) {
		t.Fatalf("two copies give %d transactions, one gives %d", len(txns), len(one))
	}
	if count(txns, model.Buy) != 3 || count(txns, model.Dividend) != 1 || count(txns, model.Split) != 1 {
		t.Errorf("partial fills must stay two and the rest count once: %d buys, %d dividends, %d splits",
			count(txns, model.Buy), count(txns, model.Dividend), count(txns, model.Split))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "b.csv:2 = a.csv:2") || !strings.Contains(warnings[0], "all 5 transactions of b.csv repeat a.csv") {
		t.Errorf("warnings %q", warnings)
	}
	if b.Import.Report.Imported+len(b.Import.Report.Skipped) != b.Import.Report.Rows {
		t.Errorf("the second report no longer accounts for its rows: %+v", b.Import.Report)
	}
	dups := 0
	for _, s := range b.Import.Report.Skipped {
		if s.Type == "duplicate" {
			dups++
		}
	}
	if dups != 5 { // the split's open row; its close row was folded into it
		t.Errorf("%d rows skipped as duplicates, want 5: %+v", dups, b.Import.Report.Skipped)
	}
}

func TestThreeCopiesCountOnce(t *testing.T) {
	txns, _ := Combine([]Source{export(t, "a.csv", t212, imports.Options{}), export(t, "b.csv", t212, imports.Options{}),
		export(t, "c.csv", t212, imports.Options{})})
	if count(txns, model.Buy) != 3 || count(txns, model.Dividend) != 1 {
		t.Errorf("%d buys, %d dividends", count(txns, model.Buy), count(txns, model.Dividend))
	}
}

func TestOverlappingExportsCountTheSharedRowsOnce(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(t212, "\n"), "\n")
	early := strings.Join(lines[:4], "\n") + "\n"             // buy and the two fills
	late := t212Header + strings.Join(lines[2:], "\n") + "\n" // one fill, dividend, split
	txns, warnings := Combine([]Source{export(t, "q1.csv", early, imports.Options{}), export(t, "q2.csv", late, imports.Options{})})
	if count(txns, model.Buy) != 3 || count(txns, model.Dividend) != 1 || count(txns, model.Split) != 1 {
		t.Errorf("%d buys, %d dividends, %d splits; warnings %q", count(txns, model.Buy), count(txns, model.Dividend), count(txns, model.Split), warnings)
	}
}

func TestImportedLedgerBesideItsExportCountsOnce(t *testing.T) {
	imported, _ := Combine([]Source{export(t, "t212.csv", t212, imports.Options{Account: "t212"})})
	text := dsl.FormatAll(imported)
	led := ledger(t, "t212.cgt", text)
	txns, warnings := Combine([]Source{export(t, "t212.csv", t212, imports.Options{Account: "t212"}), led})
	if len(txns) != len(imported) {
		t.Fatalf("%d transactions, want %d; warnings %q", len(txns), len(imported), warnings)
	}
	for _, tx := range txns {
		if tx.Source.File != "t212.cgt" {
			t.Errorf("the ledger's line is kept, not the export's: %s from %s", Summary(&tx), tx.Source.File)
		}
	}
}

func TestLedgerLineWithoutRefBesideItsExportIsKeptWithAWarning(t *testing.T) {
	imported, _ := Combine([]Source{export(t, "t212.csv", t212, imports.Options{})})
	for i := range imported {
		imported[i].BrokerRef = "" // a ledger merged by hand: its lines are matched only by REF
	}
	led := ledger(t, "t212.cgt", dsl.FormatAll(imported))
	txns, warnings := Combine([]Source{led, export(t, "t212.csv", t212, imports.Options{})})
	if count(txns, model.Buy) != 6 || len(warnings) != 2 || !strings.Contains(warnings[0], "add REF EOF1 to t212.cgt:1") {
		t.Errorf("%d buys, want 6; warnings %q", count(txns, model.Buy), warnings)
	}
}

func TestOneReferenceOnTwoDaysIsTwoRows(t *testing.T) {
	a := ledger(t, "a.cgt", "2024-03-04 BUY NVDA 5 @ 850 USD REF ORD1\n2024-03-05 BUY NVDA 3 @ 850 USD REF ORD1\n")
	b := ledger(t, "b.cgt", "2024-03-05 BUY NVDA 3 @ 850 USD REF ORD1\n")
	txns, warnings := Combine([]Source{a, b})
	if len(txns) != 2 || len(warnings) != 1 || !strings.Contains(warnings[0], "b.cgt:1 repeats a.cgt:2") {
		t.Errorf("%d transactions, warnings %q", len(txns), warnings)
	}
}

func TestDifferentAccountsStayApart(t *testing.T) {
	txns, warnings := Combine([]Source{export(t, "isa.csv", t212, imports.Options{Account: "isa"}),
		export(t, "gia.csv", t212, imports.Options{Account: "gia"})})
	if count(txns, model.Buy) != 6 {
		t.Errorf("the same rows in two accounts are two accounts' rows: %d buys; %q", count(txns, model.Buy), warnings)
	}
}

func TestTwoHandLedgersWithTheSameLinesAreTwoTrades(t *testing.T) {
	src := "2024-01-02 BUY AAPL 10 @ 150 USD\n2024-01-02 BUY AAPL 10 @ 150 USD\n2024-03-01 SELL AAPL 5 @ 170 USD\n"
	txns, warnings := Combine([]Source{ledger(t, "a.cgt", src), ledger(t, "link.cgt", src)})
	if len(txns) != 6 || len(warnings) != 1 || !strings.Contains(warnings[0], "a.cgt:1 and link.cgt:1 read alike") ||
		!strings.Contains(warnings[0], "add REF fp-") {
		t.Errorf("%d transactions, warnings %q", len(txns), warnings)
	}
}

func TestSplitReportedTwiceIsOneEvent(t *testing.T) {
	ibkr := ledger(t, "ibkr.cgt", "2024-02-12 BUY NVDA 20 @ 720 USD\n2024-06-07 SPLIT NVDA RATIO 10\n")
	t212 := ledger(t, "t212.cgt", "2024-03-04 BUY NVDA 5 @ 850 USD\n2024-06-08 BUY NVDA 1 @ 1200 USD\n2024-06-10 SPLIT NVDA RATIO 10\n")
	txns, warnings := Combine([]Source{ibkr, t212})
	if count(txns, model.Split) != 1 {
		t.Fatalf("%d splits", count(txns, model.Split))
	}
	for _, tx := range txns {
		if tx.Action == model.Split && tx.Date.String() != "2024-06-07" {
			t.Errorf("the earlier date stands, got %s", tx.Date)
		}
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{"ibkr.cgt:2 (2024-06-07) and by t212.cgt:3 (2024-06-10): one event",
		"t212.cgt:2: 2024-06-08 BUY NVDA 1 is dated between the two reports"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "ibkr.cgt:1") || strings.Contains(all, "t212.cgt:1:") {
		t.Errorf("trades before the first report need no warning:\n%s", all)
	}
}

func TestSplitsApartOrOfOneSourceStay(t *testing.T) {
	cases := map[string][]Source{
		"eleven_days": {ledger(t, "a.cgt", "2024-06-07 SPLIT NVDA RATIO 10\n"), ledger(t, "b.cgt", "2024-06-18 SPLIT NVDA RATIO 10\n")},
		"other_ratio": {ledger(t, "a.cgt", "2024-06-07 SPLIT NVDA RATIO 10\n"), ledger(t, "b.cgt", "2024-06-08 SPLIT NVDA RATIO 4\n")},
		"one_source":  {ledger(t, "a.cgt", "2024-06-07 SPLIT NVDA RATIO 10\n2024-06-09 SPLIT NVDA RATIO 10\n")},
		"in_an_isa": {ledger(t, "a.cgt", "2024-06-07 SPLIT NVDA RATIO 10\n2024-01-01 ACCOUNT T212ISA ISA\n"),
			ledger(t, "b.cgt", "2024-06-10 SPLIT NVDA RATIO 10 ACCOUNT T212ISA\n")},
	}
	for name, srcs := range cases {
		t.Run(name, func(t *testing.T) {
			txns, _ := Combine(srcs)
			if count(txns, model.Split) != 2 {
				t.Errorf("%d splits, want 2", count(txns, model.Split))
			}
		})
	}
}

// TestFingerprintIsStable pins a fingerprint: ledgers imported earlier carry it as their REF,
// and a change would count their rows twice beside the export they came from.
func TestFingerprintIsStable(t *testing.T) {
	txns, err := dsl.Parse("a.cgt", []byte("2024-03-05 BUY NVDA 1.0000000000 TOTAL 673.02 GBP FEES 0.50 GBP\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Fingerprint("trading212", &txns[0]), "fp-"; !strings.HasPrefix(got, want) || len(got) != 19 {
		t.Fatalf("fingerprint %q", got)
	}
	other, _ := dsl.Parse("b.cgt", []byte("2024-03-05 buy nvda 1 TOTAL 673.020 GBP FEES 0.5 ACCOUNT ISA REF X\n"))
	if Fingerprint("trading212", &txns[0]) != Fingerprint("trading212", &other[0]) {
		t.Errorf("the same row written another way has another fingerprint")
	}
	if got := Fingerprint("trading212", &txns[0]); got != "fp-"+pinned {
		t.Errorf("fingerprint changed: %s, was fp-%s", got, pinned)
	}
}

const pinned = "78d88f447ff03d03"

func TestSameReferenceInTwoExportsCountsOnce(t *testing.T) {
	src := "Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Total,Currency (Total),ID\n" +
		"Market buy,2024-01-02 10:00:00,US0000000002,FOO,Foo,1,10,USD,1.25,8.00,GBP,EOF1\n"
	txns, warnings := Combine([]Source{export(t, "a.csv", src, imports.Options{}), export(t, "b.csv", src, imports.Options{})})
	if len(txns) != 1 || len(warnings) != 1 || !strings.Contains(warnings[0], "b.csv") || !strings.Contains(warnings[0], "a.csv") {
		t.Fatalf("txns %d, warnings %q", len(txns), warnings)
	}
}

// Morgan Stanley's two release reports (releases, and net shares) describe one vest.
func TestMorganStanleyBothReleaseReportsCountOnce(t *testing.T) {
	releases := "Vest Date,Order Number,Plan,Type,Status,Price,Quantity,Net Cash Proceeds,Net Share Proceeds,Tax Payment Method\n" +
		"25-Mar-2021,X,GSU Class C,Release,Complete,$102.25,400.000,$0.00,212.0,Fractional Shares\n"
	netShares := "Date,Order Number,Plan,Type,Order Status,Price,Quantity,Net Share Proceeds,Net Share Proceeds,Tax Payment Method\n" +
		"25-Mar-2021,N/A,GSU Class C,Released Shares,Completed,\"$2,045.06\",10.60,$0.00,0.000,N/A\n"
	txns, warnings := Combine([]Source{export(t, "releases.csv", releases, imports.Options{}), export(t, "net.csv", netShares, imports.Options{})})
	if len(txns) != 1 || len(warnings) != 1 {
		t.Fatalf("got %d transactions, warnings %q", len(txns), warnings)
	}
}
