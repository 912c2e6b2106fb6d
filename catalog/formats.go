package catalog

// OutputFormats are the renderings of --output, with how to parse each.
var OutputFormats = []OutputFormat{
	{"json", true, "The result envelope {ok, data, error, warnings}, indented. The default.", "Parse as JSON; branch on ok; read data per the command's output_schema; surface warnings."},
	{"compact", true, "One line per record: ENTITY|KIND|PERIOD|TIMESTAMP|key=value|...|src=SOURCE (period and timestamp only when set). Dense facts for a model's context.",
		"Split lines on unescaped |; the first two segments are entity and kind; key=value segments are fields; src= is the ledger line. Unescape \\\\ \\| \\n. Lines starting warning|, error|CODE|, truncated|N are not records."},
	{"schema", true, "A header line schema|entity|kind|period|timestamp|src|FIELD... once, then row|... per record; structural columns appear only when some record has them; --fields sets the field columns and their order. Rows stop at their last non-empty cell.",
		"Read the schema line for column names, then split each row| line on unescaped | and zip with the names; cells missing at the end of a row are empty."},
	{"records", true, "JSON Lines: one Record object per line with a stable chunk id (entity:kind:timestamp-or-period:source), for retrieval pipelines.",
		"Parse each line as JSON; ids are unique within one output and the same on every run."},
	{"text", false, "The human report: tables with £ and thousands separators, for people at a terminal.", "Not for machines: use json, compact, schema or records."},
}

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
