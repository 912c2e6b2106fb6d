package records

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/internal/jsontext"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// Options shape a dense rendering.
type Options struct {
	Fields     []string // keep only these fields, in this order (nil: all)
	MaxRecords int      // 0: no limit
	MaxChars   int      // 0: no limit; cuts at a record boundary
	// Narrow, when set, is added to the truncation notice: how the caller narrows the result
	// (the arguments to use, in the caller's language).
	Narrow string
	// More, when set, ends the output: how the caller asks for more than it was given.
	More string
	// Entity names the notices (warnings, truncation, errors) in the records format, whose
	// every line is a Record; "" means "cgt".
	Entity string
	// WarningsHint, when set, is added to the line that counts the warnings MaxChars left no
	// room for: how the caller sees them all.
	WarningsHint string
	// Shapes, when set, is the shapes of the records written, each with the number of
	// records that have it (ShapeCounts of the same result): the schema format counts its
	// columns from them before it writes the rows. Without it the records are read twice.
	Shapes iter.Seq2[Record, int]
}

// Formats are the dense renderings an agent can ask for: the output formats marked Dense.
var Formats = func() []string {
	var dense []string
	for _, f := range OutputFormats {
		if f.Dense {
			dense = append(dense, f.Name)
		}
	}
	return dense
}()

// CheckFields returns the requested field names that no record has, and the names available.
func CheckFields(recs iter.Seq[Record], want []string) (unknown, available []string) {
	seen := map[string]bool{}
	for r := range recs {
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
	var b strings.Builder
	err := Write(&b, format, slices.Values(recs), warnings, opt)
	return b.String(), err
}

// Write is Render to w for a sequence of records, holding one record at a time (it is done
// with each by the end of the loop body given it, so recs may be Stream's): a large result's records
// need not fit in memory. recs may be ranged over more than once: the schema format reads
// them (or opt.Shapes) once for its columns before writing the rows. A cut output still
// reads every record, to say how many it left out. Nothing is written for an unknown format.
func Write(w io.Writer, format string, recs iter.Seq[Record], warnings []string, opt Options) error {
	recs = withFields(recs, opt.Fields)
	if format == "compact" || format == "schema" {
		recs = withFacts(recs, opt.Fields)
	}
	var line lineWriter
	switch format {
	case "compact":
		line = func(b []byte, r Record) []byte { return appendCompact(b, r, opt.Fields) }
	case "schema":
		shapes := countedOnce(recs)
		if opt.Shapes != nil {
			shapes = shown(opt.Shapes, opt.Fields)
		}
		return writeSchema(w, recs, shapes, warnings, opt)
	case "records":
		ids := map[string]int{}
		line = func(b []byte, r Record) []byte { return appendJSONLine(b, ids, r, opt.Fields) }
	default:
		return fmt.Errorf("unknown format %q (formats: %s)", format, strings.Join(Formats, ", "))
	}
	return finish(w, "", recs, line, 0, warnings, opt, format)
}

// notice writes one line that is not a record of the result: a warning, the truncation, an
// error, how to ask for more. In compact and schema it is KIND|value|key=value...; in records
// it is a Record like any other (id, entity, kind, fields), so the output stays JSON Lines.
type notice func(kind string, n int, fields ...Field) string

func notices(format, entity string) notice {
	if entity == "" {
		entity = "cgt"
	}
	if format != "records" {
		return func(kind string, _ int, fields ...Field) string {
			parts := []string{kind}
			for _, f := range fields {
				if f.Key == "" {
					parts = append(parts, Escape(f.Value))
				} else {
					parts = append(parts, EscapeKey(f.Key)+"="+Escape(f.Value))
				}
			}
			return strings.Join(parts, "|")
		}
	}
	return func(kind string, n int, fields ...Field) string {
		id := kind
		if n > 0 {
			id += ":" + strconv.Itoa(n)
		}
		named := make([]Field, len(fields))
		for i, f := range fields {
			if f.Key == "" {
				f.Key = "message"
			}
			named[i] = f
		}
		return jsonRecord(id, Record{Entity: entity, Kind: kind}, named)
	}
}

// NoticeLine is one notice line in a dense format, for front ends that add their own.
func NoticeLine(format, entity, kind string, fields ...Field) string {
	return notices(format, entity)(kind, 0, fields...)
}

// RenderError writes a failed result in the compact and schema formats: the error line,
// then the warnings.
func RenderError(code, message string, warnings []string) string {
	return RenderErrorAs("compact", "", code, message, nil, warnings)
}

// RenderErrorAs writes a failed result in a dense format: the error line (in records, an
// error Record whose fields are the code, the message and then extra), then the warnings.
func RenderErrorAs(format, entity, code, message string, extra []Field, warnings []string) string {
	note := notices(format, entity)
	var b strings.Builder
	if format == "records" {
		b.WriteString(note("error", 0, append([]Field{{Key: "code", Value: code}, {Key: "message", Value: message}}, extra...)...) + "\n")
	} else {
		b.WriteString(note("error", 0, append([]Field{{Value: code}, {Value: message}}, extra...)...) + "\n")
	}
	for i, w := range warnings {
		b.WriteString(note("warning", i+1, Field{Value: w}) + "\n")
	}
	return b.String()
}

// lineWriter appends the line of one record (without its newline) to b.
type lineWriter = func(b []byte, r Record) []byte

// finish writes the header, then a line per record within the record and character limits
// (cutting at a record boundary), the truncation notice, the warnings and the line saying how
// to ask for more. Every line is written into one reused buffer. unread is the number of
// records after recs that are left out whatever the limits (the schema format stops keeping
// rows once they can no longer fit). With MaxChars the whole output stays within it, notices
// included: the warnings keep what room they need up to half of it (the records come first,
// and the warnings then take whatever the records left), and those that do not fit are
// counted in a last truncated line that says how to see them (WarningsHint).
func finish[R any](w io.Writer, header string, recs iter.Seq[R], line func([]byte, R) []byte, unread int, warnings []string, opt Options, format string) error {
	note, jsonl := notices(format, opt.Entity), format == "records"
	bw, flush := bufferedTo(w)
	defer flush()
	written := 0
	put := func(s string) {
		n, _ := bw.WriteString(s)
		written += n
	}
	more := ""
	if opt.More != "" {
		more = fixedLine(fixedKey{"more", format, opt.Entity, opt.More}, func() string {
			return note("more", 0, Field{Value: opt.More}) + "\n"
		})
	}
	truncation := func(left int) string {
		fs := []Field{{Value: fmt.Sprintf("%d more records", left)}}
		if jsonl {
			fs = []Field{{Key: "more_records", Value: strconv.Itoa(left)}}
		}
		if opt.Narrow != "" {
			fs = append(fs, Field{Key: "narrow", Value: opt.Narrow})
		}
		return note("truncated", 0, fs...) + "\n"
	}
	recordRoom := 0 // 0: no limit
	if opt.MaxChars > 0 {
		// Room kept after the records: the truncation line (at its longest), the warnings
		// (what they need, up to half of what is left) and the more line.
		longest := fixedLine(fixedKey{"truncated", format, opt.Entity, opt.Narrow}, func() string { return truncation(1e9) })
		tail := len(more) + len(longest)
		need := warningsSize(warnings, note)
		recordRoom = max(1, opt.MaxChars-tail-min(need, max(0, opt.MaxChars-tail-len(header)-1)/2))
	}
	if header != "" {
		put(header + "\n")
	}
	kept, left := 0, 0
	var l []byte
	for r := range recs {
		if left > 0 || opt.MaxRecords > 0 && kept >= opt.MaxRecords {
			left++
			continue
		}
		l = line(l[:0], r)
		if recordRoom > 0 && written+len(l)+1 > recordRoom {
			left++
			continue
		}
		l = append(l, '\n')
		n, _ := bw.Write(l)
		written += n
		kept++
	}
	left += unread
	if left > 0 {
		put(truncation(left))
	}
	if kept == 0 && left == 0 {
		// Say that nothing matched rather than print nothing, which reads as a failure.
		put(note("none", 0, Field{Value: "no records"}) + "\n")
	}
	room := -1 // no limit
	if opt.MaxChars > 0 {
		room = max(0, opt.MaxChars-written-len(more))
	}
	for _, l := range fitWarnings(warnings, room, note, jsonl, opt.WarningsHint) {
		put(l)
	}
	put(more)
	return flush()
}

// fixedLines holds the notice lines that depend only on the format, the entity and one
// option's text, which a server writes or measures for every call of a command: the "more"
// line and the longest truncation line. Those texts are a command's, not a call's; at most
// maxFixedLines are kept all the same.
var (
	fixedLines     sync.Map // fixedKey -> string
	fixedLineCount atomic.Int32
)

const maxFixedLines = 1024

type fixedKey struct{ kind, format, entity, text string }

func fixedLine(key fixedKey, line func() string) string {
	if l, ok := fixedLines.Load(key); ok {
		return l.(string)
	}
	l := line()
	if fixedLineCount.Add(1) <= maxFixedLines {
		fixedLines.Store(key, l)
	}
	return l
}

// maxWarningChars is the most of one warning's text a bounded output shows; a longer one is cut
// with "…" (a warning quoting a very long line of an export).
const maxWarningChars = 1000

// warningsSize is the length of the warnings' lines.
func warningsSize(warnings []string, note notice) int {
	n := 0
	for i, w := range warnings {
		n += len(note("warning", i+1, Field{Value: clipText(w, maxWarningChars)})) + 1
	}
	return n
}

// fitWarnings is the warnings' lines within room characters (room < 0: all, whole). When some
// do not fit, the last line (kept within room with them) says how many were left out and, in
// hint, how to see them.
func fitWarnings(warnings []string, room int, note notice, jsonl bool, hint string) []string {
	if len(warnings) == 0 {
		return nil
	}
	lines := make([]string, 0, len(warnings))
	if room < 0 {
		for i, w := range warnings {
			lines = append(lines, note("warning", i+1, Field{Value: w})+"\n")
		}
		return lines
	}
	omitted := func(n int) string {
		fs := []Field{{Value: fmt.Sprintf("%d more warnings", n)}}
		if jsonl {
			fs = []Field{{Key: "more_warnings", Value: strconv.Itoa(n)}}
		}
		if hint != "" {
			fs = append(fs, Field{Key: "get", Value: hint})
		}
		return note("truncated", 0, fs...) + "\n"
	}
	reserve := len(omitted(len(warnings)))
	used := 0
	for i, w := range warnings {
		l := note("warning", i+1, Field{Value: clipText(w, maxWarningChars)}) + "\n"
		rest := 0
		if i < len(warnings)-1 {
			rest = reserve // room to say that the others were left out
		}
		if used+len(l)+rest > room {
			if o := omitted(len(warnings) - i); used+len(o) <= room {
				lines = append(lines, o)
			}
			return lines
		}
		lines = append(lines, l)
		used += len(l)
	}
	return lines
}

// clipText cuts s to at most n bytes (at a character boundary), ending it with "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// FitWarnings is the warnings that fit in room characters of JSON text (each as a JSON
// string with its comma): those that fit, each cut to a bounded length, then, when some were
// left out, one more saying how many and, in hint, how to see them. room < 0 keeps them all.
func FitWarnings(warnings []string, room int, hint string) []string {
	if room < 0 {
		return warnings
	}
	omitted := func(n int) string {
		s := fmt.Sprintf("%d more warnings left out", n)
		if hint != "" {
			s += "; " + hint
		}
		return s
	}
	size := func(s string) int { b, _ := json.Marshal(s); return len(b) + 1 }
	reserve := size(omitted(len(warnings)))
	out := make([]string, 0, len(warnings))
	used := 0
	for i, w := range warnings {
		w = clipText(w, maxWarningChars)
		rest := 0
		if i < len(warnings)-1 {
			rest = reserve
		}
		if used+size(w)+rest > room {
			if o := omitted(len(warnings) - i); used+size(o) <= room {
				out = append(out, o)
			}
			return out
		}
		out = append(out, w)
		used += size(w)
	}
	return out
}

// bufferedTo returns a writer of strings to w and the function that flushes it (once; later
// calls return nil). A writer in memory (a strings.Builder, a bytes.Buffer) is written
// directly; any other goes through a 64 KiB buffer taken from a pool: a server answering a
// short result for every call would otherwise allocate and clear 64 KiB for each.
func bufferedTo(w io.Writer) (stringWriter, func() error) {
	switch m := w.(type) {
	case *strings.Builder:
		return m, func() error { return nil }
	case *bytes.Buffer:
		return m, func() error { return nil }
	}
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(w)
	done := false
	return bw, func() error {
		if done {
			return nil
		}
		done = true
		err := bw.Flush()
		bw.Reset(nil)
		writers.Put(bw)
		return err
	}
}

// stringWriter takes bytes and strings (a strings.Builder, a bytes.Buffer, a bufio.Writer).
type stringWriter interface {
	io.Writer
	io.StringWriter
}

var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// withFields keeps, when fields are named, only the records that have at least one of them:
// asking for gain should not list every pool event.
func withFields(recs iter.Seq[Record], fields []string) iter.Seq[Record] {
	if fields == nil {
		return recs
	}
	return func(yield func(Record) bool) {
		for r := range recs {
			if len(selected(r, fields)) > 0 && !yield(r) {
				return
			}
		}
	}
}

// withFacts leaves out the records with no field to show (a closed pool, whose rows are its
// events): a line of entity and kind alone tells nothing.
func withFacts(recs iter.Seq[Record], fields []string) iter.Seq[Record] {
	if fields != nil {
		return recs // withFields kept only records with a field named
	}
	return func(yield func(Record) bool) {
		for r := range recs {
			if hasFacts(r) && !yield(r) {
				return
			}
		}
	}
}

// countedOnce is recs, each record as a shape of its own (ShapeCounts' form).
func countedOnce(recs iter.Seq[Record]) iter.Seq2[Record, int] {
	return func(yield func(Record, int) bool) {
		for r := range recs {
			if !yield(r, 1) {
				return
			}
		}
	}
}

// shown is withFacts(withFields(...)) for shapes with their counts: the shapes a dense
// rendering writes a line for. Both filters read only a record's field names and types, which
// all the records of a shape share.
func shown(shapes iter.Seq2[Record, int], fields []string) iter.Seq2[Record, int] {
	return func(yield func(Record, int) bool) {
		for r, n := range shapes {
			if fields != nil && len(selected(r, fields)) == 0 || fields == nil && !hasFacts(r) {
				continue
			}
			if !yield(r, n) {
				return
			}
		}
	}
}

func hasFacts(r Record) bool {
	for i := range r.Fields { // by index: a field is three strings, not worth a copy each
		if r.Fields[i].Type != "prose" {
			return true
		}
	}
	return false
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

// appendCompact appends the compact line of r to b: ENTITY|KIND|PERIOD|TIMESTAMP|k=v|...|src=SOURCE,
// structural segments only when set.
func appendCompact(b []byte, r Record, fields []string) []byte {
	b = appendEscaped(b, r.Entity)
	b = append(b, '|')
	b = appendEscaped(b, r.Kind)
	if r.Period != "" {
		b = append(b, '|')
		b = appendEscaped(b, r.Period)
	}
	if r.Timestamp != "" {
		b = append(b, '|')
		b = appendEscaped(b, r.Timestamp)
	}
	if fields == nil {
		for i := range r.Fields {
			if f := &r.Fields[i]; f.Type != "prose" {
				b = appendPair(b, f.Key, f.Value, unescaped(f.Type))
			}
		}
	} else {
		for _, k := range fields {
			if v, ok := r.Get(k); ok {
				b = appendPair(b, k, v, false)
			}
		}
	}
	if r.Source != "" {
		b = append(b, "|src="...)
		b = appendEscaped(b, r.Source)
	}
	return b
}

// unescaped reports whether the values of a field of type typ never hold a byte Escape
// changes, so the dense formats write them as they are: the figures, dates and flags of the
// domain, written as digits, signs, points, dashes and letters (TestUnescapedTypesNeedNoEscape).
// Most of a report's bytes are such values.
func unescaped(typ string) bool {
	switch typ {
	case "money", "decimal", "date", "number", "bool":
		return true
	}
	return false
}

// appendPair appends |key=value, escaped (the value as appendValue writes it).
func appendPair(b []byte, key, value string, plain bool) []byte {
	b = append(b, '|')
	b = appendEscapedKey(b, key)
	b = append(b, '=')
	return appendValue(b, value, plain)
}

// appendValue appends a field's value, escaped unless plain: its type never needs it
// (unescaped).
func appendValue(b []byte, v string, plain bool) []byte {
	if plain {
		return append(b, v...)
	}
	return appendEscaped(b, v)
}

// appendJSONLine appends one JSON object per record with a stable, unique chunk id; ids
// counts the ids given so far.
func appendJSONLine(b []byte, ids map[string]int, r Record, fields []string) []byte {
	id := chunkID(r)
	ids[id]++
	if n := ids[id]; n > 1 {
		id += "#" + strconv.Itoa(n)
	}
	return appendJSONRecord(b, id, r, selected(r, fields))
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
	return string(appendJSONRecord(nil, id, r, fs))
}

func appendJSONRecord(b []byte, id string, r Record, fs []Field) []byte {
	b = append(b, `{"id":`...)
	b = jsontext.AppendString(b, id, false)
	b = append(b, `,"entity":`...)
	b = jsontext.AppendString(b, r.Entity, false)
	b = append(b, `,"kind":`...)
	b = jsontext.AppendString(b, r.Kind, false)
	if r.Period != "" {
		b = append(b, `,"period":`...)
		b = jsontext.AppendString(b, r.Period, false)
	}
	if r.Timestamp != "" {
		b = append(b, `,"timestamp":`...)
		b = jsontext.AppendString(b, r.Timestamp, false)
	}
	b = append(b, `,"fields":{`...)
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, f.Key, false)
		b = append(b, ':')
		b = jsontext.AppendString(b, f.Value, false)
	}
	b = append(b, '}')
	if r.Source != "" {
		b = append(b, `,"source":`...)
		b = jsontext.AppendString(b, r.Source, false)
	}
	if len(r.Metadata) > 0 {
		m, _ := json.Marshal(r.Metadata)
		b = append(b, `,"metadata":`...)
		b = append(b, m...)
	}
	return append(b, '}')
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

// appendEscaped appends Escape(s). The dense formats pass every byte of a report through it,
// so the bytes that need no escape are passed over by a table rather than a switch.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		as := escapedAs[s[i]]
		if as == 0 {
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, '\\', as)
		start = i + 1
	}
	return append(b, s[start:]...)
}

// escapedAs is what follows the backslash Escape writes for a byte it escapes, and 0 for
// the bytes it leaves as they are.
var escapedAs = [256]byte{'\\': '\\', '|': '|', '\n': 'n', '\r': 'r'}

// appendEscapedKey appends EscapeKey(s).
func appendEscapedKey(b []byte, s string) []byte {
	if strings.IndexByte(s, '=') < 0 {
		return appendEscaped(b, s)
	}
	return append(b, EscapeKey(s)...)
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
