package imports

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/model"
)

// rowCase is one row-meaning case: rows after a header, the ledger lines they give and the
// types of the rows skipped, in row order.
type rowCase struct {
	name, rows string
	want       []string
	skip       []string
}

// checkRows reads head+rows with broker forced for every case.
func checkRows(t *testing.T, broker, head string, cases []rowCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, broker, head+c.rows)
			got := lines(imp)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s\nwarnings %v", strings.Join(got, "\n"), strings.Join(c.want, "\n"), imp.Warnings)
			}
			var types []string
			for _, s := range imp.Report.Skipped {
				types = append(types, s.Type)
			}
			if strings.Join(types, ",") != strings.Join(c.skip, ",") {
				t.Errorf("skipped %v, want %v (%+v)", types, c.skip, imp.Report.Skipped)
			}
		})
	}
}

// errCase is malformed input and what its error must mention (the column, the value).
type errCase struct {
	name, src string
	want      []string
}

// checkErrors reads each case with broker forced and expects an error naming the file, the
// row and each wanted text.
func checkErrors(t *testing.T, broker string, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("bad.csv", []byte(c.src), Options{Broker: broker})
			if err == nil {
				t.Fatalf("no error, want one mentioning %q", c.want)
			}
			for _, w := range append([]string{"bad.csv"}, c.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// fuzzRead is the body of every importer's fuzz target: any input gives an error or an
// import with every row accounted for, never a panic; and the import writes data, never code:
// its transactions written as a ledger read back as the same transactions, one line each, with
// no line injected by a text of the export.
func fuzzRead(t *testing.T, broker string, src []byte) {
	imp, err := Read("f.csv", src, Options{Broker: broker})
	if err != nil {
		return
	}
	if imp.Report.Imported+len(imp.Report.Skipped) != imp.Report.Rows {
		t.Fatalf("rows not accounted for: %+v", imp.Report)
	}
	checkWritesData(t, imp.Transactions)
}

// checkWritesData checks that txns written as a ledger read back as themselves.
func checkWritesData(t testing.TB, txns []model.Transaction) {
	t.Helper()
	text := dsl.FormatAll(txns)
	if n := strings.Count(text, "\n"); n != len(txns) {
		t.Fatalf("%d transactions written as %d lines:\n%s", len(txns), n, text)
	}
	back, err := dsl.Parse("f.cgt", []byte(text))
	if err != nil {
		t.Fatalf("the imported ledger does not parse: %v\n%s", err, text)
	}
	if len(back) != len(txns) {
		t.Fatalf("%d transactions read back as %d", len(txns), len(back))
	}
	for i := range back {
		back[i].Name, back[i].Source = txns[i].Name, txns[i].Source
		if !reflect.DeepEqual(back[i], txns[i]) {
			t.Fatalf("transaction %d reads back as another:\n%+v\n%+v", i, txns[i], back[i])
		}
	}
}
