package taxyear

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// maxStart keeps parsed years to four digits.
const maxStart = 9998

// parseExamples are the accepted spellings of one year, quoted in errors.
var parseExamples = []string{"2024/25", "2024", "2024-25", "2024/2025"}

// Parse reads a tax year as "2024/25", "2024-25", "2024/2025", "2024-2025" or "2024" (the
// year it starts in, so 2024 is 2024/25). The second part must be the following year; years
// before 2008/09 are refused as out of scope. Errors are *model.Error with code
// invalid_argument.
func Parse(s string) (Year, error) {
	text := strings.TrimSpace(s)
	first, second, split := cutSeparator(text)
	start, ok := fourDigits(first)
	if !ok {
		return Year{}, parseError(s, fmt.Sprintf("tax year %q is not in the form 2024/25", clip(s)))
	}
	if split {
		if err := checkEnd(s, start, second); err != nil {
			return Year{}, err
		}
	}
	y := Year{Start: start}
	switch {
	case start < First:
		return Year{}, parseError(s, fmt.Sprintf("tax year %s is before 2008/09: disposals before 6 April 2008 are out of scope", y.Period()))
	case start > maxStart:
		return Year{}, parseError(s, fmt.Sprintf("tax year %q is out of range", clip(s)))
	}
	return y, nil
}

// cutSeparator splits "2024/25" at '/', '-' or an en dash, trimming spaces around it.
func cutSeparator(s string) (first, second string, split bool) {
	for _, sep := range []string{"/", "-", "–"} {
		if a, b, ok := strings.Cut(s, sep); ok {
			return strings.TrimSpace(a), strings.TrimSpace(b), true
		}
	}
	return s, "", false
}

// checkEnd verifies that the second part names the year after start, as 2 or 4 digits.
func checkEnd(s string, start int, end string) error {
	want := Year{Start: start}
	switch len(end) {
	case 2:
		if n, err := strconv.Atoi(end); err == nil && isDigits(end) && n == (start+1)%100 {
			return nil
		}
	case 4:
		if n, ok := fourDigits(end); ok && n == start+1 {
			return nil
		}
	default:
		return parseError(s, fmt.Sprintf("tax year %q is not in the form 2024/25", clip(s)))
	}
	return parseError(s, fmt.Sprintf("tax year %q is inconsistent: a tax year starting in %d ends in %d, so it is %s", clip(s), start, start+1, want.Period()))
}

func fourDigits(s string) (int, bool) {
	if len(s) != 4 || !isDigits(s) {
		return 0, false
	}
	n, _ := strconv.Atoi(s)
	return n, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

func parseError(value, msg string) *model.Error {
	return &model.Error{
		Code:     model.CodeInvalidArgument,
		Message:  msg,
		Hint:     "Give the tax year as START/END, e.g. 2024/25 for 6 April 2024 to 5 April 2025, or just the start year (2024). Years from 2008/09 are supported.",
		Examples: parseExamples,
		Value:    value,
	}
}

// clip shortens user text quoted in a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
