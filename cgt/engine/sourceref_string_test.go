package engine

import "testing"

func TestSourceRefIsCitedAsFileLineOrIndex(t *testing.T) {
	two := 2
	for _, c := range []struct {
		ref  SourceRef
		want string
	}{
		{SourceRef{File: "ledger.cgt", Line: 12}, "ledger.cgt:12"},
		{SourceRef{Line: 3}, "input:3"},
		{SourceRef{File: "trades.json", Index: &two}, "trades.json[2]"},
		{SourceRef{Index: &two}, "transactions[2]"},
		{SourceRef{File: "ledger.cgt"}, "ledger.cgt"},
		{SourceRef{}, ""},
	} {
		if got := c.ref.String(); got != c.want {
			t.Errorf("%+v: String() = %q, want %q", c.ref, got, c.want)
		}
		if got := c.ref.AppendCite([]byte("x")); string(got) != "x"+c.want {
			t.Errorf("%+v: AppendCite = %q, want %q", c.ref, got, "x"+c.want)
		}
	}
}
