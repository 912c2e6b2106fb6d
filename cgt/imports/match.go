package imports

// The importers read a few things out of free-text descriptions ("Bought 10 VANGUARD...",
// "SPLIT 4 FOR 1", "(LSE:VMID)"). Each is read by a small hand-written matcher next to its
// importer rather than a regular expression: the regexp package and its Unicode tables were a
// tenth of the browser module's download. The matchers keep the exact behaviour of the
// expressions they replaced (match_test.go compares them, by table and by fuzzing), including
// these details of Go's regexp syntax:
//   - \s is only tab, newline, form feed, carriage return and space; \d only 0-9.
//   - \b is a boundary between an ASCII word character (letter, digit, underscore) and
//     anything else; every non-ASCII character counts as "anything else".
//   - (?i) folds case as Unicode does: s also matches ſ (U+017F) and k matches K (U+212A).
//   - . matches any character but newline; $ (without (?m)) is the end of the text.

// isSpace is \s.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isWordByte is \b's word character; a byte of a non-ASCII character never is one.
func isWordByte(c byte) bool { return isASCIILetter(c) || isDigit(c) || c == '_' }

// atBoundary is \b at i.
func atBoundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// spacesFrom returns the end of the run of \s that starts at i.
func spacesFrom(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// digitsFrom returns the end of the run of digits that starts at i.
func digitsFrom(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// The two non-ASCII characters (?i) folds onto ASCII letters.
const (
	longS  = "\u017f" // ſ, folds to s
	kelvin = "\u212a" // K, folds to k
)

// foldLetterAt is (?i)[a-z] at i: the width of an ASCII letter, ſ or K there, else 0.
func foldLetterAt(s string, i int) int {
	switch {
	case i >= len(s):
		return 0
	case isASCIILetter(s[i]):
		return 1
	case hasAt(s, i, longS):
		return len(longS)
	case hasAt(s, i, kelvin):
		return len(kelvin)
	}
	return 0
}

func hasAt(s string, i int, w string) bool { return len(s)-i >= len(w) && s[i:i+len(w)] == w }

// foldPrefixAt matches lit (lower case ASCII) at s[i:] as (?i) does, and returns where the match
// ends.
func foldPrefixAt(s string, i int, lit string) (int, bool) {
	for k := 0; k < len(lit); k++ {
		c := lit[k]
		switch {
		case i < len(s) && (s[i] == c || (isASCIILetter(c) && s[i]|0x20 == c)):
			i++
		case c == 's' && hasAt(s, i, longS):
			i += len(longS)
		case c == 'k' && hasAt(s, i, kelvin):
			i += len(kelvin)
		default:
			return 0, false
		}
	}
	return i, true
}
