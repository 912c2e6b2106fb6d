package records

// OutputFormat says how to parse one --output rendering.
type OutputFormat struct {
	Name            string `json:"name"`
	MachineReadable bool   `json:"machine_readable"`
	Dense           bool   `json:"-"` // rendered from records, shaped by --fields, --max-records, --max-chars
	Description     string `json:"description"`
	Parse           string `json:"parse"`
}

// OutputFormats are the renderings of --output, with how to parse each: the one list the
// command line, the catalog and the renderers read.
var OutputFormats = []OutputFormat{
	{"json", true, false, "The result envelope {ok, data, error, warnings}, indented. The default when the output is piped or written to a file.", "Parse as JSON; branch on ok; read data per the command's output_schema; surface warnings."},
	{"compact", true, true, "One line per record: ENTITY|KIND|PERIOD|TIMESTAMP|key=value|...|src=SOURCE (period and timestamp only when set). Dense facts for a model's context.",
		"Split lines on unescaped |; the first two segments are entity and kind; key=value segments are fields; src= is the ledger line. Unescape \\\\ \\| \\n. Lines starting warning|, error|CODE|, truncated|N are not records."},
	{"schema", true, true, "A header line schema|entity|kind|period|timestamp|src|FIELD... once, then row|... per record; structural columns appear only when some record has them; --fields sets the field columns and their order. Rows stop at their last non-empty cell.",
		"Read the schema line for column names, then split each row| line on unescaped | and zip with the names; cells missing at the end of a row are empty."},
	{"records", true, true, "JSON Lines: one Record object per line with a stable chunk id (entity:kind:timestamp-or-period:source), for retrieval pipelines.",
		"Parse each line as JSON; ids are unique within one output and the same on every run."},
	{"text", false, false, "For people: report.calculate prints the filing summary per tax year with the SA108 box beside each figure, the tax due, one line per disposal and the HMRC exchange rates; other commands print their records as tables. The default at a terminal; errors go to standard error.", "Not for machines: use json, compact, schema or records."},
	{"html", false, false, "The report as one self-contained HTML page (inline CSS and SVG charts, no network), to read on any device or print to PDF; report.calculate only. Write it with --out report.html.", "Not for machines: use json, compact, schema or records."},
}

// FormatNames are the names of the output formats, in order.
func FormatNames() []string {
	names := make([]string, len(OutputFormats))
	for i, f := range OutputFormats {
		names[i] = f.Name
	}
	return names
}
