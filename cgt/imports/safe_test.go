package imports

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// injected is what a hostile export puts in a cell: a line end and then a ledger line.
const injected = "\n2024-05-03 SELL ACME 10 @ 1000000"

// Every text cell of every CSV sample, given a line end and a ledger line, either makes its row
// skipped (with a reason) or the whole file an error; never a line of the imported ledger.
func TestImportsWriteDataNeverCode(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.csv")
	if len(files) == 0 {
		t.Fatal("no CSV samples")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		im := Detect(src)
		if im == nil {
			continue
		}
		r := csv.NewReader(bytes.NewReader(decodeText(src)))
		r.FieldsPerRecord, r.LazyQuotes = -1, true
		recs, err := r.ReadAll()
		if err != nil {
			continue
		}
		t.Run(path, func(t *testing.T) {
			tried := 0
			for i := 1; i < len(recs); i++ {
				for j := range recs[i] {
					if recs[i][j] == "" {
						continue
					}
					tried++
					hostile := cloneRecords(recs)
					hostile[i][j] += injected
					var buf bytes.Buffer
					w := csv.NewWriter(&buf)
					_ = w.WriteAll(hostile)
					imp, err := Read("hostile.csv", buf.Bytes(), Options{Broker: im.Name})
					if err != nil {
						continue
					}
					checkWritesData(t, imp.Transactions)
					for _, tx := range imp.Transactions {
						if tx.Price.Value.Exact().String() == "1000000" {
							t.Fatalf("row %d column %d: the injected line became a transaction: %+v", i, j, tx)
						}
					}
				}
			}
			if tried == 0 {
				t.Fatal("no cell tried")
			}
		})
	}
}

func cloneRecords(recs [][]string) [][]string {
	out := make([][]string, len(recs))
	for i, r := range recs {
		out[i] = append([]string(nil), r...)
	}
	return out
}

func TestTrading212IDWithALineEndSkipsTheRow(t *testing.T) {
	src := t212Head + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,GBP,,,,,,\"EOF1" +
		strings.ReplaceAll(injected, "\n", "\r\n") + "\",4.71,GBP\n" +
		"Market buy,2024-01-02 16:10:05.175,US0000000002,FOO,Foo,1,124.01,USD,1.25229,,,99.00,GBP,,,,,,\"ref 2 # x\",0.10,GBP\n"
	imp, err := Read("t.csv", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Transactions) != 1 || imp.Transactions[0].BrokerRef != "ref 2 # x" {
		t.Fatalf("transactions %+v", imp.Transactions)
	}
	if len(imp.Report.Skipped) != 1 || imp.Report.Skipped[0].Type != "unsafe_text" || !strings.Contains(imp.Report.Skipped[0].Reason, "broker reference") {
		t.Fatalf("skipped %+v", imp.Report.Skipped)
	}
	if len(imp.Warnings) == 0 {
		t.Fatal("no warning")
	}
	checkWritesData(t, imp.Transactions)
}
