package catalog

import "github.com/cgt-tools/cgt/records"

// OutputFormats are the renderings of --output (records.OutputFormats).
var OutputFormats = records.OutputFormats

// RecordSchema is the JSON Schema of one Record as the records format writes it.
func RecordSchema() map[string]any {
	str := func(d string) map[string]any { return map[string]any{"type": "string", "description": d} }
	return map[string]any{
		"type":     "object",
		"required": []any{"id", "entity", "kind", "fields"},
		"properties": map[string]any{
			"id":        str("stable chunk id: entity:kind:timestamp-or-period:source, made unique with #N"),
			"entity":    str("the subject of the row: a ticker, a currency, a tax year"),
			"kind":      str("what the row is: tax_year, disposal, match, holding, transaction, fx_rate, ..."),
			"period":    str("tax year (2024/25) or month (2024-03) when the row has one"),
			"timestamp": str("the row's date, YYYY-MM-DD, when it has one"),
			"fields":    map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": "the row's values as strings, in result order"},
			"source":    str("ledger file and line the row comes from"),
			"metadata":  map[string]any{"type": "object"},
		},
	}
}
