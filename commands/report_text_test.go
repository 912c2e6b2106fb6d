package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/internal/golden"
)

// The text report is for the person filing: whole reports pinned as golden files, and the
// properties the filer relies on checked directly.
func TestReportText(t *testing.T) {
	reg := testRegistry(t)
	for _, tc := range []struct{ name, args string }{
		{"portfolio_with_income", `{"path":["../examples/portfolio.cgt"],"taxable_income":60000}`},
		{"portfolio_without_income", `{"path":["../examples/portfolio.cgt"]}`},
		{"events", `{"path":["../examples/events.cgt"],"taxable_income":30000}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := reg.Execute(context.Background(), "report.calculate", json.RawMessage(tc.args))
			if !res.OK {
				t.Fatalf("%+v", res.Error)
			}
			var b bytes.Buffer
			if err := res.Data.(ReportResult).WriteText(&b, res.Warnings); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			for _, raw := range []string{"{", "}", "sa108.", "0.1 ", "rate_period", "null"} {
				if strings.Contains(text, raw) {
					t.Errorf("the report shows %q, a raw field or value a person cannot read", raw)
				}
			}
			golden.Check(t, "testdata/report.calculate/text/"+tc.name+".golden.txt", b.Bytes())
		})
	}
}
