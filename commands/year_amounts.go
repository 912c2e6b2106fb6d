package commands

import (
	"bytes"

	"github.com/cgt-tools/cgt/cgt/tax"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// YearAmounts is an argument giving an amount of GBP either once, for every tax year, or per
// tax year. Over JSON it is a number or a string (one amount, or "2023:52000,2024:60000"), or
// an object keyed by tax year ({"2023/24": 52000, "2024": "60000"}); in the CLI the string
// forms. The value is kept as given and read by Resolve, so errors can name the argument.
type YearAmounts struct {
	raw json.RawMessage
}

// UnmarshalJSON keeps the value as given; Resolve reads it.
func (a *YearAmounts) UnmarshalJSON(b []byte) error {
	a.raw = append(json.RawMessage(nil), b...)
	return nil
}

// SchemaMap publishes the three forms as alternatives of the one property (read by the schema
// reflector of cgt gen; a plain map, so that running a command links no reflector). The
// alternatives sit inside the property, not at the top of the input schema, which some MCP
// clients refuse. Amounts are checked by Resolve, whose errors say more than a schema failure
// would.
func (YearAmounts) SchemaMap() map[string]any {
	amount := map[string]any{"oneOf": []any{map[string]any{"type": "number"}, map[string]any{"type": "string"}}}
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "number"},
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "additionalProperties": amount},
	}}
}

// given reports whether the argument was passed.
func (a *YearAmounts) given() bool {
	return a != nil && len(a.raw) > 0 && !bytes.Equal(bytes.TrimSpace(a.raw), []byte("null"))
}

// Resolve reads the argument named arg (tax.ReadAmounts); a nil result means it was not given.
func (a *YearAmounts) Resolve(arg string) (*tax.Amounts, error) {
	if !a.given() {
		return nil, nil
	}
	return tax.ReadAmounts(arg, a.raw)
}
