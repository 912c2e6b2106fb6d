package engine

import (
	"strconv"
	"testing"
)

// groupedByDigit is appendGrouped's plain form: a comma before every digit of the integer
// part that has a multiple of three digits after it.
func groupedByDigit(s string) string {
	out := ""
	if len(s) > 0 && s[0] == '-' {
		out, s = "-", s[1:]
	}
	intLen := len(s)
	for i := range len(s) {
		if s[i] == '.' {
			intLen = i
			break
		}
	}
	for i := 0; i < intLen; i++ {
		if i > 0 && (intLen-i)%3 == 0 {
			out += ","
		}
		out += s[i : i+1]
	}
	return out + s[intLen:]
}

func TestAppendGroupedPutsACommaBeforeEachGroupOfThreeDigits(t *testing.T) {
	cases := []string{"", "0", "7", "12", "123", "1234", "12345", "123456", "1234567", "1000000000",
		"0.5", ".5", "1.000", "999.99", "1000.01", "-1", "-123", "-1234", "-1234567.891", "12345678901234567890.123456"}
	for n := int64(1); n < 1e15; n = n*7 + 3 {
		cases = append(cases, strconv.FormatInt(n, 10), strconv.FormatInt(-n, 10)+".25")
	}
	for _, c := range cases {
		got := string(appendGrouped([]byte("x"), []byte(c)))
		if want := "x" + groupedByDigit(c); got != want {
			t.Errorf("appendGrouped(%q) = %q, want %q", c, got, want)
		}
	}
	if got := string(appendGrouped(nil, []byte("1234567.5"))); got != "1,234,567.5" {
		t.Errorf("appendGrouped(1234567.5) = %q", got)
	}
}
