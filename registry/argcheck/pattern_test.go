package argcheck

import (
	"regexp"
	"testing"
)

// TestKnownPatternsMatchTheirExpressions checks each hand-written pattern against the regular
// expression it stands for, on the strings an argument is likely to be and on fuzzed ones.
func TestKnownPatternsMatchTheirExpressions(t *testing.T) {
	inputs := []string{"", "0", "7", "1250", "00012", "1250.00", "12.5", "0.0", "1.", ".5", ".", "1..2", "1.2.3",
		"-1.00", "+1", "1e3", "1 250", " 1", "1 ", "1,250", "abc", "1250.001x", "١٢٣", "１２", "1\n", "\n1", "1.5\n", "१"}
	for _, p := range knownPatterns {
		re := regexp.MustCompile(p.expr)
		for _, in := range inputs {
			if got, want := p.match(in), re.MatchString(in); got != want {
				t.Errorf("%s on %q: got %v, want %v", p.expr, in, got, want)
			}
		}
	}
}

func FuzzKnownPatterns(f *testing.F) {
	for _, s := range []string{"1250.00", "1.", ".5", "12a", ""} {
		f.Add(s)
	}
	res := make([]*regexp.Regexp, len(knownPatterns))
	for i, p := range knownPatterns {
		res[i] = regexp.MustCompile(p.expr)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, p := range knownPatterns {
			if got, want := p.match(s), res[i].MatchString(s); got != want {
				t.Errorf("%s on %q: got %v, want %v", p.expr, s, got, want)
			}
		}
	})
}
