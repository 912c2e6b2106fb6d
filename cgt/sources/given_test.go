package sources

import (
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestGivenInputsAreReadInOrderAndNamed(t *testing.T) {
	for _, c := range []struct {
		name string
		g    Given
		want []string // the File of each input
	}{
		{"content_alone_is_unnamed", Given{Content: "x"}, []string{""}},
		{"content_beside_a_file_is_content", Given{Files: []Input{{File: "a.cgt"}}, Content: "x"}, []string{"a.cgt", "content"}},
		{"content_beside_extra_is_content", Given{Content: "x", Extra: []string{"l1", "l2"}}, []string{"content", ExtraFile}},
		{"transactions_last", Given{Files: []Input{{File: "a.csv"}}, Transactions: []model.Transaction{}}, []string{"a.csv", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.g.Inputs()
			if len(got) != len(c.want) {
				t.Fatalf("%d inputs, want %d", len(got), len(c.want))
			}
			for i, in := range got {
				if in.File != c.want[i] {
					t.Errorf("input %d is %q, want %q", i, in.File, c.want[i])
				}
			}
		})
	}
}

func TestLedgerNameNamesWhatWasGiven(t *testing.T) {
	for _, c := range []struct {
		paths                        []string
		content, transactions, extra bool
		want                         string
	}{
		{[]string{"dir/a.cgt", "-"}, true, false, true, "a.cgt+stdin+content+extra"},
		{nil, true, false, false, "ledger"},
		{nil, false, true, false, "transactions"},
	} {
		if got := LedgerName(c.paths, c.content, c.transactions, c.extra); got != c.want {
			t.Errorf("LedgerName(%v, %v, %v, %v) = %q, want %q", c.paths, c.content, c.transactions, c.extra, got, c.want)
		}
	}
}
