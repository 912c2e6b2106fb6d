package mcp

import (
	"fmt"
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

// A tool's fields argument names its fields within a bound, in the schema's order (the
// registry puts the key fields first), and says when there are more.
func TestFieldNamesShownWithinTheirBound(t *testing.T) {
	names := func(n ...string) map[string]any {
		ex := make([]any, len(n))
		for i, s := range n {
			ex[i] = s
		}
		return map[string]any{"items": map[string]any{"examples": ex}}
	}
	if got := fieldNamesOf(names("sa108.box24", "gains", "sources.N.ticker", "losses")); got != "sa108.box24, gains, losses" {
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

// An enum of more than longEnum values (one name an importer) is said in the argument's
// description, within its bound and with the count, so a new value costs the tool nothing;
// a shorter enum is left as it is.
func TestLongEnumsSaidInTheDescription(t *testing.T) {
	schemaWith := func(n int) map[string]any {
		enum := make([]any, n)
		for i := range enum {
			enum[i] = fmt.Sprintf("broker%02d", i)
		}
		return map[string]any{"properties": map[string]any{"broker": map[string]any{"description": "Format.", "enum": enum}}}
	}
	arg := func(s map[string]any) map[string]any {
		return s["properties"].(map[string]any)["broker"].(map[string]any)
	}
	if got := arg(withShortEnums(schemaWith(longEnum))); got["enum"] == nil || got["description"] != "Format." {
		t.Errorf("an enum of %d values was changed: %v", longEnum, got)
	}
	long := schemaWith(40)
	got := arg(withShortEnums(long))
	desc, _ := got["description"].(string)
	if got["enum"] != nil || !strings.HasPrefix(desc, "Format. One of 40: broker00, broker01, ") || !strings.HasSuffix(desc, ", …") {
		t.Errorf("an enum of 40 values reads %v", got)
	}
	if listed := strings.TrimPrefix(desc, "Format. One of 40: "); len(listed) > enumChars+len(", …") {
		t.Errorf("%d characters of values listed, bound %d: %q", len(listed), enumChars, listed)
	}
	if arg(long)["enum"] == nil {
		t.Error("the catalog's schema lost its enum: it is shared by every front end")
	}
}
