package dsl

import (
	"bytes"
	"strings"
	"testing"
)

func TestSplitIncludes(t *testing.T) {
	src := "# setup\nINCLUDE isa.csv ACCOUNT MyIsa isa\n  include \"my gia.csv\" ACCOUNT \"Main GIA\" GIA # taxable\r\nINCLUDE hand.cgt\n2024-01-01 BUY A 1 @ 2\n"
	incs, rest, err := SplitIncludes("p.cgt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Include{{Path: "isa.csv", Account: "MYISA", AccountType: "ISA"}, {Path: "my gia.csv", Account: "MAIN GIA", AccountType: "GIA"}, {Path: "hand.cgt"}}
	if len(incs) != len(want) {
		t.Fatalf("includes %+v", incs)
	}
	for i, w := range want {
		if incs[i].Path != w.Path || incs[i].Account != w.Account || incs[i].AccountType != w.AccountType || incs[i].Source.Line != i+2 {
			t.Errorf("include %d: %+v, want %+v", i, incs[i], w)
		}
	}
	txns, err := Parse("p.cgt", rest)
	if err != nil || len(txns) != 1 || txns[0].Source.Line != 5 {
		t.Fatalf("the other lines keep their numbers: %+v %v", txns, err)
	}
	if len(rest) != len(src) {
		t.Error("the text changed length")
	}
}

func TestIncludeLineOutsideACommandIsAClearError(t *testing.T) {
	_, err := Parse("p.cgt", []byte("INCLUDE isa.csv ACCOUNT A ISA\n"))
	if err == nil || !strings.Contains(err.Error(), "INCLUDE line") {
		t.Fatalf("error %v", err)
	}
}

func FuzzSplitIncludes(f *testing.F) {
	for _, s := range []string{
		"INCLUDE isa.csv ACCOUNT MYISA ISA\n2024-01-01 BUY A 1 @ 2\n",
		"include \"a b.csv\" account \"x y\" gia # c\r\n",
		"INCLUDE\n", "INCLUDE \"unterminated\n", "INCLUDE a.csv ACCOUNT\n", "INCLUDE a.csv ACCOUNT A ISAA\n",
		"INCLUDEX a\n", "\xef\xbb\xbfINCLUDE a.csv\n", "INCLUDE a.csv extra\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		incs, rest, err := SplitIncludes("fuzz.cgt", src)
		if err != nil {
			checkFuzzError(t, err, true)
			return
		}
		if len(rest) != len(src) || bytes.Count(rest, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Fatalf("lines moved: %q → %q", src, rest)
		}
		for _, inc := range incs {
			if inc.Path == "" || quotable(inc.Path) != "" || (inc.Account == "") != (inc.AccountType == "") {
				t.Fatalf("include %+v from %q", inc, src)
			}
		}
		if len(incs) == 0 && !bytes.Equal(rest, src) {
			t.Fatalf("no include, yet the text changed")
		}
	})
}

// TestIncludeLineByItsFirstByte: the first-byte check passes over no line that trimming
// would make an INCLUDE line, whatever the line starts with.
func TestIncludeLineByItsFirstByte(t *testing.T) {
	trimmed := func(line []byte) bool { // isIncludeLine without the check
		line = bytes.TrimPrefix(bytes.TrimLeft(line, " \t\ufeff"), utf8BOM)
		return len(line) >= len(includeKeyword) && equalFold(line[:len(includeKeyword)], includeKeyword) &&
			(len(line) == len(includeKeyword) || byteClass[line[len(includeKeyword)]] != classToken)
	}
	for c := range 256 {
		for _, rest := range []string{"INCLUDE a.cgt", "include a.cgt", "NCLUDE a.cgt", "\ufeffINCLUDE a.cgt", "\xbb\xbfINCLUDE a.cgt", " INCLUDE", ""} {
			line := append([]byte{byte(c)}, rest...)
			if got, want := isIncludeLine(line), trimmed(line); got != want {
				t.Errorf("%q: isIncludeLine %v, want %v", line, got, want)
			}
		}
	}
}
