package imports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/cgt-tools/cgt/cgt/model"
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

func TestTrading212IDWithALineEndKeepsTheRowWithoutIt(t *testing.T) {
	src := t212Head + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,GBP,,,,,,\"EOF1" +
		strings.ReplaceAll(injected, "\n", "\r\n") + "\",4.71,GBP\n" +
		"Market buy,2024-01-02 16:10:05.175,US0000000002,FOO,Foo,1,124.01,USD,1.25229,,,99.00,GBP,,,,,,\"ref 2 # x\",0.10,GBP\n"
	imp, err := Read("t.csv", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Transactions) != 2 || imp.Transactions[0].BrokerRef != "" || imp.Transactions[1].BrokerRef != "ref 2 # x" {
		t.Fatalf("transactions %+v", imp.Transactions)
	}
	if len(imp.Report.Skipped) != 0 || imp.Report.Imported != 2 {
		t.Fatalf("report %+v", imp.Report)
	}
	if len(imp.Warnings) != 1 || !strings.Contains(imp.Warnings[0], "broker reference") || !strings.Contains(imp.Warnings[0], "the transactions are kept") {
		t.Fatalf("warnings %q", imp.Warnings)
	}
	checkWritesData(t, imp.Transactions)
}

// A reference too long for a ledger (65 bytes) or holding a tab loses the reference, never the trade.
func TestUnwritableReferenceKeepsTheTrade(t *testing.T) {
	for name, ref := range map[string]string{"65_bytes": strings.Repeat("R", 65), "tab": "ab\tcd"} {
		t.Run(name, func(t *testing.T) {
			src := t212Head + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,GBP,,,,,,\"" + ref + "\",4.71,GBP\n"
			imp, err := Read("t.csv", []byte(src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(imp.Transactions) != 1 || imp.Transactions[0].BrokerRef != "" || len(imp.Report.Skipped) != 0 {
				t.Fatalf("transactions %+v, skipped %+v", imp.Transactions, imp.Report.Skipped)
			}
			if len(imp.Warnings) != 1 || !strings.Contains(imp.Warnings[0], "row 2") {
				t.Fatalf("warnings %q", imp.Warnings)
			}
			checkWritesData(t, imp.Transactions)
		})
	}
}

// A sample saved with CR-only line ends ("CSV (Macintosh)") or as UTF-16 ("Unicode text")
// reads as the sample itself.
func TestLineEndsAndEncodingsAsSaved(t *testing.T) {
	src, err := os.ReadFile("testdata/trading212/kapji_2026_transactions.csv")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read("t.csv", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lf := bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	variants := map[string][]byte{
		"cr-only":    bytes.ReplaceAll(lf, []byte("\n"), []byte("\r")),
		"utf-16le":   utf16Bytes(string(lf), false, true),
		"utf-16be":   utf16Bytes(string(lf), true, true),
		"utf-16-bom": utf16Bytes(string(lf), false, false),
	}
	for name, v := range variants {
		got, err := Read("t.csv", v, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Transactions) != len(want.Transactions) || got.Report.Rows != want.Report.Rows {
			t.Fatalf("%s: %d transactions from %d rows, want %d from %d", name, len(got.Transactions), got.Report.Rows, len(want.Transactions), want.Report.Rows)
		}
		for i := range got.Transactions {
			got.Transactions[i].Source = want.Transactions[i].Source
		}
		if !reflect.DeepEqual(got.Transactions, want.Transactions) {
			t.Fatalf("%s: transactions differ", name)
		}
	}
}

func utf16Bytes(s string, big, noBOM bool) []byte {
	var out []byte
	if !noBOM {
		out = append(out, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// An export recognised by its header that gives no data row is an error, never an empty import.
func TestRecognisedExportWithoutRowsIsAnError(t *testing.T) {
	_, err := Read("t.csv", []byte(t212Head), Options{})
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeParse || e.Context["reason"] != "no_rows" || !strings.Contains(e.Hint, "export it again") {
		t.Fatalf("err = %#v", err)
	}
}

// An XML export saved as UTF-16, declaring it, reads like its UTF-8 original.
func TestUTF16XMLExport(t *testing.T) {
	src, err := os.ReadFile("testdata/ibkr-flex/ibflex_activity_cash.xml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read("f.xml", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	u16 := utf16Bytes(strings.Replace(string(src), `encoding="UTF-8"`, `encoding="UTF-16"`, 1), false, false)
	got, err := Read("f.xml", u16, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Report.Rows != want.Report.Rows || len(got.Transactions) != len(want.Transactions) {
		t.Fatalf("UTF-16: %+v, want %+v", got.Report, want.Report)
	}
}

// A field that fails its column's rule because it holds a line end (a currency cell followed by
// a ledger line) skips its row; the other rows are read.
func TestControlCharacterInAFieldSkipsOnlyItsRow(t *testing.T) {
	src := t212Head + "Market buy,2024-01-01 16:10:05.175,US0000000002,FOO,Foo,24,124.01,USD,1.25229,,,2381.35,\"GBP" + injected + "\",,,,,,EOF1,4.71,GBP\n" +
		"Market buy,2024-01-02 16:10:05.175,US0000000002,FOO,Foo,1,124.01,USD,1.25229,,,99.00,GBP,,,,,,EOF2,0.10,GBP\n"
	imp, err := Read("t.csv", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Transactions) != 1 || imp.Transactions[0].BrokerRef != "EOF2" {
		t.Fatalf("transactions %+v", imp.Transactions)
	}
	if len(imp.Report.Skipped) != 1 || imp.Report.Skipped[0].Type != "unsafe_text" || imp.Report.Rows != 2 {
		t.Fatalf("report %+v", imp.Report)
	}
}
