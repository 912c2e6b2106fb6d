// Package records turns any command result into normalized Records through struct tags, and
// renders them densely for agents (compact, schema, records) and readably for people (text).
// It knows nothing of tax: what a row is, and which field names it, come from the tags.
package records

import (
	"io"
	"slices"
	"strings"
)

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
	// proser, when set, is the row whose prose fields with no value yet are written on
	// demand: a match's arithmetic steps, which the dense formats leave out, are written only
	// when read (Record.Get, the text rendering).
	proser Proser
}

// Field is one ordered key/value of a record. Type says how the value was typed in the result
// ("money", "decimal", "date", "text", "number", "bool", "list") so renderers can format it.
type Field struct {
	Key   string
	Value string
	Type  string
}

// pending reports whether f is a prose field whose value is written on demand.
func (r *Record) pending(f Field) bool { return r.proser != nil && f.Type == "prose" && f.Value == "" }

// prose is the value of a prose field written on demand.
func (r *Record) prose() string { return strings.Join(r.proser.Prose(), ListSeparator) }

// resolve writes the values written on demand, leaving out those that turn out empty (as a
// row without steps has no prose field).
func (r *Record) resolve() {
	if !slices.ContainsFunc(r.Fields, r.pending) {
		r.proser = nil
		return
	}
	fs := make([]Field, 0, len(r.Fields))
	for _, f := range r.Fields {
		if r.pending(f) {
			if f.Value = r.prose(); f.Value == "" {
				continue
			}
		}
		fs = append(fs, f)
	}
	r.Fields, r.proser = fs, nil
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
		if f.Key != key {
			continue
		}
		if !r.pending(f) {
			return f.Value, true
		}
		if v := r.prose(); v != "" { // steps written on demand may turn out to be none
			return v, true
		}
	}
	return "", false
}
