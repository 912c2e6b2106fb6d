package dsl

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

// lineByLine reads src as one part: the reference the parallel read must match.
func lineByLine(t *testing.T, src []byte) ([]model.Transaction, *model.Error) {
	t.Helper()
	return parsePart("big.cgt", src, part{end: len(src), firstLine: 1}, nil)
}

// bigLedger is a ledger large enough to be read in several parts, with blank and comment
// lines so that the parts leave gaps to close.
func bigLedger() []byte {
	var b bytes.Buffer
	for b.Len() < 3*partBytes {
		b.Write(benchLedger(1000))
		b.WriteString("\n# a comment line\n\n")
	}
	return b.Bytes()
}

func TestParseInPartsMatchesLineByLine(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: Parse reads in one part")
	}
	src := bigLedger()
	if n := len(splitParts(src, partsFor(len(src)))); n < 2 {
		t.Fatalf("a %d-byte ledger is read in %d part; the test needs several", len(src), n)
	}
	want, werr := lineByLine(t, src)
	if werr != nil {
		t.Fatal(werr)
	}
	got, err := Parse("big.cgt", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || cap(got) != len(got) {
		t.Fatalf("got %d transactions (cap %d), want %d", len(got), cap(got), len(want))
	}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("transaction %d differs:\n got %+v\nwant %+v", i, got[i], want[i])
			}
		}
	}
}

// TestParseInPartsReportsTheFirstError puts bad lines in different parts: the error is always
// the earliest bad line's, with its line number in the whole file.
func TestParseInPartsReportsTheFirstError(t *testing.T) {
	src := bigLedger()
	lines := bytes.SplitAfter(src, []byte{'\n'})
	bad := []byte("2024-02-30 BUY X 1 @ 2\n")
	for _, at := range [][]int{{len(lines) - 2}, {len(lines) / 2, len(lines) - 2}, {10, len(lines) - 2}, {len(lines)*3/4 + 1}} {
		edited := make([][]byte, len(lines))
		copy(edited, lines)
		for _, i := range at {
			edited[i] = bad
		}
		text := bytes.Join(edited, nil)
		_, want := lineByLine(t, text)
		_, err := Parse("big.cgt", text)
		got, ok := err.(*model.Error)
		if !ok || want == nil || got.Line != at[0]+1 || !reflect.DeepEqual(got, want) {
			t.Fatalf("bad lines at %v: got %v, want the error of line %d: %v", at, err, at[0]+1, want)
		}
	}
}

func TestSplitPartsKeepsLinesWhole(t *testing.T) {
	src := []byte("a\nbb\nccc\ndddd\n\neeeee")
	for n := 1; n <= 8; n++ {
		parts := splitParts(src, n)
		pos, line := 0, 1
		for _, p := range parts {
			if p.start != pos || p.firstLine != line || (p.start > 0 && src[p.start-1] != '\n') {
				t.Fatalf("n=%d: part %+v after byte %d, line %d", n, p, pos, line)
			}
			line += bytes.Count(src[p.start:p.end], []byte{'\n'})
			pos = p.end
		}
		if pos != len(src) {
			t.Fatalf("n=%d: parts end at %d of %d", n, pos, len(src))
		}
	}
	if parts := splitParts(nil, 2); len(parts) != 1 || parts[0] != (part{firstLine: 1, bad: -1}) {
		t.Fatalf("empty text: %+v", parts)
	}
}

// TestParseInPartsReportsTheFirstBadByte puts binary bytes in different parts: the error
// names the earliest, as a one-part read does.
func TestParseInPartsReportsTheFirstBadByte(t *testing.T) {
	src := bigLedger()
	for _, edits := range []map[int]byte{
		{len(src) - 10: 0},
		{len(src) / 4: 0xFF, len(src) - 10: 0},
		{len(src) / 4: 0, len(src)*3/4 + 3: 0xFE},
		{len(src)*3/4 + 3: 0xFE, len(src) - 5: 0},
	} {
		text := bytes.Clone(src)
		first := len(text)
		for at, b := range edits {
			text[at] = b
			first = min(first, at)
		}
		want := notText("big.cgt", text, splitParts(text, 1))
		_, err := Parse("big.cgt", text)
		got, ok := err.(*model.Error)
		if !ok || want == nil || !reflect.DeepEqual(got, want) || got.Line != bytes.Count(text[:first], []byte{'\n'})+1 {
			t.Fatalf("bad bytes %v: got %v, want %v", edits, err, want)
		}
	}
}

func TestPartCapacityBoundsItsTransactions(t *testing.T) {
	for _, src := range []string{"", "\n\n\n", "2024-01-01 BUY A 1 @ 2", "2024-01-01 BUY A 1 @ 2\n", "2024-01-01 BUY A 1 @ 2\n2024-01-01 BUY A 1 @ 2"} {
		b := []byte(src)
		want := len(mustParse(t, b))
		for n := 1; n <= 3; n++ {
			total := 0
			for _, p := range splitParts(b, n) {
				total += p.capacity(b)
			}
			if total < want {
				t.Fatalf("%q in %d parts: capacity %d < %d transactions", src, n, total, want)
			}
		}
	}
}

func mustParse(t *testing.T, b []byte) []model.Transaction {
	t.Helper()
	txns, err := Parse("", b)
	if err != nil {
		t.Fatal(err)
	}
	return txns
}

// TestMain makes parts small in -short runs (the race detector's): the parallel reader then
// splits a ledger of a few hundred kilobytes into parts, and its tests stay quick.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		partBytes = 64 << 10
	}
	os.Exit(m.Run())
}
