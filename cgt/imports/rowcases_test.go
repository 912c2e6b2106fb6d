package imports

import (
	"strings"
	"testing"
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
// import with every row accounted for, never a panic.
func fuzzRead(t *testing.T, broker string, src []byte) {
	imp, err := Read("f.csv", src, Options{Broker: broker})
	if err == nil && imp.Report.Imported+len(imp.Report.Skipped) != imp.Report.Rows {
		t.Fatalf("rows not accounted for: %+v", imp.Report)
	}
}
