package argcheck

import (
	"fmt"
	"strings"
)

// A pattern is a "pattern" keyword the validator knows: the expression as the schema writes
// it, and a hand-written check of the same strings. The validator compiles no regular
// expressions (the regexp package was a tenth of the browser module, which runs this
// validator on every request); it knows the patterns the commands' schemas use and refuses any
// other when the schema is compiled, as it refuses a keyword it does not implement.
type pattern struct {
	expr  string
	match func(string) bool
}

var knownPatterns = []pattern{
	{`^[0-9]+(\.[0-9]+)?$`, isPlainDecimal},
}

func compilePattern(expr string) (*pattern, error) {
	names := make([]string, len(knownPatterns))
	for i, p := range knownPatterns {
		if p.expr == expr {
			return &knownPatterns[i], nil
		}
		names[i] = p.expr
	}
	return nil, fmt.Errorf("pattern %q is not one the argument validator knows (%s)", expr, strings.Join(names, ", "))
}

// isPlainDecimal is ^[0-9]+(\.[0-9]+)?$: digits, and decimals after a dot.
func isPlainDecimal(s string) bool {
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		return allDigits(s)
	}
	return allDigits(s[:dot]) && allDigits(s[dot+1:])
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
