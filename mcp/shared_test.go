package mcp

import (
	"strings"
	"testing"
)

// Output's values and default, and the bound on characters, are the same for every tool: the
// instructions say them once, and a tool's schema lists output by name only.
func TestInstructionsSayTheSharedDefaults(t *testing.T) {
	text := instructions(&Roots{})
	for _, want := range []string{`output ("compact", the default;`, `"json" for the envelope`, "max_chars defaults to 40000", "each tool's schema names its fields"} {
		if !strings.Contains(text, want) {
			t.Errorf("the instructions do not say %q:\n%s", want, text)
		}
	}
}

// A tool's fields argument names its fields within a bound, plain fields first, and says
// when there are more.
func TestFieldNamesShownWithinTheirBound(t *testing.T) {
	names := func(n ...string) map[string]any {
		ex := make([]any, len(n))
		for i, s := range n {
			ex[i] = s
		}
		return map[string]any{"items": map[string]any{"examples": ex}}
	}
	if got := fieldNamesOf(names("sa108.box24", "gains", "losses")); got != "gains, losses, sa108.box24" {
		t.Errorf("got %q", got)
	}
	long := make([]string, 40)
	for i := range long {
		long[i] = "field_name"
	}
	got := fieldNamesOf(names(long...))
	if !strings.HasSuffix(got, ", …") || len(got) > fieldNamesChars+len(", …") {
		t.Errorf("got %q (%d chars), want at most %d and a closing …", got, len(got), fieldNamesChars)
	}
	if got := fieldNamesOf(map[string]any{}); got != "" {
		t.Errorf("no names: got %q", got)
	}
}
