// Package records turns any command result into normalized Records through struct tags, and
// renders them densely for agents (compact, schema, records) and readably for people (text).
// It knows nothing of tax: what a row is, and which field names it, come from the tags.
package records

import "io"

// Record is one fact-bearing row of a result.
type Record struct {
	Entity    string         `json:"entity"`
	Kind      string         `json:"kind"`
	Period    string         `json:"period,omitempty"`
	Timestamp string         `json:"timestamp,omitempty"`
	Fields    []Field        `json:"-"`
	Source    string         `json:"source,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	// Depth is how deeply the row is nested in the result (a match inside a disposal is 1
	// deeper); the text renderer indents by it.
	Depth int `json:"-"`
}

// Field is one ordered key/value of a record. Type says how the value was typed in the result
// ("money", "decimal", "date", "text", "number", "bool", "list") so renderers can format it.
type Field struct {
	Key   string
	Value string
	Type  string
}

// Texter is implemented by a result with a text rendering of its own, which --output text
// writes instead of the record layout: an imported ledger prints as ledger lines, so that
// --out FILE.cgt gives a ledger. Warnings are the envelope's, for it to keep.
type Texter interface {
	WriteText(w io.Writer, warnings []string) error
}

// HTMLer is implemented by a result with a page of its own for --output html (the report).
type HTMLer interface {
	WriteHTML(w io.Writer, warnings []string) error
}

// Adapter is implemented by a result that needs records the generic adapter cannot derive.
type Adapter interface {
	Records() []Record
}

// Get returns the value of a field and whether it is present.
func (r Record) Get(key string) (string, bool) {
	for _, f := range r.Fields {
		if f.Key == key {
			return f.Value, true
		}
	}
	return "", false
}
