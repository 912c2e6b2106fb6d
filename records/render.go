package records

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Options shape a dense rendering.
type Options struct {
	Fields     []string // keep only these fields, in this order (nil: all)
	MaxRecords int      // 0: no limit
	MaxChars   int      // 0: no limit; cuts at a record boundary
}

// Formats are the dense renderings an agent can ask for.
var Formats = []string{"compact", "schema", "records"}

// CheckFields returns the requested field names that no record has, and the names available.
func CheckFields(recs []Record, want []string) (unknown, available []string) {
	seen := map[string]bool{}
	for _, r := range recs {
		for _, f := range r.Fields {
			if !seen[f.Key] {
				seen[f.Key] = true
				available = append(available, f.Key)
			}
		}
	}
	for _, w := range want {
		if !seen[w] {
			unknown = append(unknown, w)
		}
	}
	return unknown, available
}

// Render writes records in a dense format, then the truncation line and the warnings.
func Render(format string, recs []Record, warnings []string, opt Options) (string, error) {
	recs = withFields(recs, opt.Fields)
	var lines []string
	switch format {
	case "compact":
		lines = compactLines(recs, opt.Fields)
	case "schema":
		lines = schemaLines(recs, opt.Fields)
	case "records":
		lines = jsonLines(recs, opt.Fields)
	default:
		return "", fmt.Errorf("unknown format %q (formats: %s)", format, strings.Join(Formats, ", "))
	}
	header := 0
	if format == "schema" && len(lines) > 0 {
		header = 1
	}
	return finish(lines, header, warnings, opt), nil
}

// RenderError writes a failed result in a dense format: the error line, then the warnings.
func RenderError(code, message string, warnings []string) string {
	var b strings.Builder
	b.WriteString("error|" + Escape(code) + "|" + Escape(message) + "\n")
	for _, w := range warnings {
		b.WriteString("warning|" + Escape(w) + "\n")
	}
	return b.String()
}

// finish applies the record and character limits at record boundaries and appends the
// truncation notice and the warnings, which are never cut.
func finish(lines []string, header int, warnings []string, opt Options) string {
	var b strings.Builder
	total := len(lines) - header
	kept := 0
	for i, l := range lines {
		isRow := i >= header
		if isRow && opt.MaxRecords > 0 && kept >= opt.MaxRecords {
			break
		}
		if isRow && opt.MaxChars > 0 && b.Len()+len(l)+1 > opt.MaxChars && kept > 0 {
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
		if isRow {
			kept++
		}
	}
	if kept < total {
		fmt.Fprintf(&b, "truncated|%d more records\n", total-kept)
	}
	for _, w := range warnings {
		b.WriteString("warning|" + Escape(w) + "\n")
	}
	return b.String()
}

// withFields keeps, when fields are named, only the records that have at least one of them:
// asking for gain should not list every pool event.
func withFields(recs []Record, fields []string) []Record {
	if fields == nil {
		return recs
	}
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		if len(selected(r, fields)) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// selected returns the fields a dense rendering shows: those named, in that order, or else
// every field but prose.
func selected(r Record, fields []string) []Field {
	if fields == nil {
		out := make([]Field, 0, len(r.Fields))
		for _, f := range r.Fields {
			if f.Type != "prose" {
				out = append(out, f)
			}
		}
		return out
	}
	out := make([]Field, 0, len(fields))
	for _, k := range fields {
		if v, ok := r.Get(k); ok {
			out = append(out, Field{Key: k, Value: v})
		}
	}
	return out
}

// compactLines: ENTITY|KIND|PERIOD|TIMESTAMP|k=v|...|src=SOURCE, structural segments only
// when set.
func compactLines(recs []Record, fields []string) []string {
	lines := make([]string, 0, len(recs))
	for _, r := range recs {
		var b strings.Builder
		b.WriteString(Escape(r.Entity) + "|" + Escape(r.Kind))
		if r.Period != "" {
			b.WriteString("|" + Escape(r.Period))
		}
		if r.Timestamp != "" {
			b.WriteString("|" + Escape(r.Timestamp))
		}
		for _, f := range selected(r, fields) {
			b.WriteString("|" + EscapeKey(f.Key) + "=" + Escape(f.Value))
		}
		if r.Source != "" {
			b.WriteString("|src=" + Escape(r.Source))
		}
		lines = append(lines, b.String())
	}
	return lines
}

// schemaLines: one schema line naming the columns, then one row line per record. Structural
// columns (entity, kind, period, timestamp, src) come first and appear only when some record
// has them; --fields order wins for the field columns. A row stops at its last non-empty
// cell: the missing cells are empty.
func schemaLines(recs []Record, fields []string) []string {
	if len(recs) == 0 {
		return nil
	}
	hasPeriod, hasTime, hasSrc := false, false, false
	for _, r := range recs {
		hasPeriod = hasPeriod || r.Period != ""
		hasTime = hasTime || r.Timestamp != ""
		hasSrc = hasSrc || r.Source != ""
	}
	cols := fields
	if cols == nil {
		cols = denseColumns(recs)
	}
	head := []string{"schema", "entity", "kind"}
	if hasPeriod {
		head = append(head, "period")
	}
	if hasTime {
		head = append(head, "timestamp")
	}
	if hasSrc {
		head = append(head, "src")
	}
	for _, c := range cols {
		head = append(head, EscapeKey(c))
	}
	lines := []string{strings.Join(head, "|")}
	for _, r := range recs {
		row := []string{"row", Escape(r.Entity), Escape(r.Kind)}
		if hasPeriod {
			row = append(row, Escape(r.Period))
		}
		if hasTime {
			row = append(row, Escape(r.Timestamp))
		}
		if hasSrc {
			row = append(row, Escape(r.Source))
		}
		for _, c := range cols {
			v, _ := r.Get(c)
			row = append(row, Escape(v))
		}
		lines = append(lines, strings.Join(trimEmpty(row), "|"))
	}
	return lines
}

// trimEmpty drops trailing empty cells.
func trimEmpty(row []string) []string {
	n := len(row)
	for n > 0 && row[n-1] == "" {
		n--
	}
	return row[:n]
}

// denseColumns lists every non-prose field name in first-appearance order.
func denseColumns(recs []Record) []string {
	var cols []string
	seen := map[string]bool{}
	for _, r := range recs {
		for _, f := range r.Fields {
			if f.Type != "prose" && !seen[f.Key] {
				seen[f.Key] = true
				cols = append(cols, f.Key)
			}
		}
	}
	return cols
}

// jsonLines: one JSON object per record with a stable, unique chunk id.
func jsonLines(recs []Record, fields []string) []string {
	ids := map[string]int{}
	lines := make([]string, 0, len(recs))
	for _, r := range recs {
		id := chunkID(r)
		ids[id]++
		if n := ids[id]; n > 1 {
			id += "#" + strconv.Itoa(n)
		}
		lines = append(lines, jsonRecord(id, r, selected(r, fields)))
	}
	return lines
}

// chunkID names a record from its entity, kind, period or timestamp, and source, so the same
// input gives the same ids on every run.
func chunkID(r Record) string {
	parts := []string{r.Entity, r.Kind}
	if r.Timestamp != "" {
		parts = append(parts, r.Timestamp)
	} else if r.Period != "" {
		parts = append(parts, r.Period)
	}
	if r.Source != "" {
		parts = append(parts, r.Source)
	}
	return strings.Join(parts, ":")
}

func jsonRecord(id string, r Record, fs []Field) string {
	var b strings.Builder
	b.WriteString(`{"id":` + jsonString(id) + `,"entity":` + jsonString(r.Entity) + `,"kind":` + jsonString(r.Kind))
	if r.Period != "" {
		b.WriteString(`,"period":` + jsonString(r.Period))
	}
	if r.Timestamp != "" {
		b.WriteString(`,"timestamp":` + jsonString(r.Timestamp))
	}
	b.WriteString(`,"fields":{`)
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(f.Key) + ":" + jsonString(f.Value))
	}
	b.WriteByte('}')
	if r.Source != "" {
		b.WriteString(`,"source":` + jsonString(r.Source))
	}
	if len(r.Metadata) > 0 {
		m, _ := json.Marshal(r.Metadata)
		b.WriteString(`,"metadata":` + string(m))
	}
	b.WriteByte('}')
	return b.String()
}

func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// Escape makes a value safe inside a |-separated line, reversibly: \ -> \\, | -> \|,
// newline -> \n, carriage return -> \r.
func Escape(s string) string {
	if !strings.ContainsAny(s, "\\|\n\r") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `|`, `\|`, "\n", `\n`, "\r", `\r`)
	return r.Replace(s)
}

// EscapeKey escapes a field name: as Escape, and = -> \=.
func EscapeKey(s string) string {
	s = Escape(s)
	if strings.Contains(s, "=") {
		s = strings.ReplaceAll(s, "=", `\=`)
	}
	return s
}

// Unescape reverses Escape and EscapeKey.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
