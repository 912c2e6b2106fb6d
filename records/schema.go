package records

import (
	"io"
	"iter"
	"strings"

	"github.com/cgt-tools/cgt/internal/order"
)

// The schema format: one schema line naming the columns, then one row line per record.
// Structural columns (entity, kind, period, timestamp, src) come first and appear only when
// some record has them; --fields order wins for the field columns, and otherwise the fields
// most records have come first (in first-appearance order among equals), so the many rows of
// one kind (pool events, disposals) do not each start with the empty cells of the few (tax
// years). A row stops at its last non-empty cell: the missing cells are empty.
//
// The columns depend on every record, so they are counted first, from the records' shapes
// (Options.Shapes: which fields each record has, without their values, which cost most of a
// record to derive, and how many records have each: ShapeCounts), and the rows are then
// written as the records are derived, one at a time, like the compact format's lines.
// Without shapes the records are counted themselves.

// writeSchema writes recs in the schema format, then the truncation line and the warnings.
func writeSchema(w io.Writer, recs iter.Seq[Record], shapes iter.Seq2[Record, int], warnings []string, opt Options) error {
	cols := countColumns(shapes, opt.Fields)
	header := ""
	if cols.any {
		header = cols.header()
	}
	row := cols.rowWriter(opt.Fields)
	return finish(w, header, recs, row.append, 0, warnings, opt, "schema")
}

// columns is what the schema line says: which structural columns some record has, and the
// field columns in the order written.
type columns struct {
	any, period, time, src bool
	names                  []string
}

// countColumns reads the columns from the records' shapes, each with the number of records
// that have it (ShapeCounts): the named fields in their order, or every field but prose,
// those most records have first.
func countColumns(shapes iter.Seq2[Record, int], named []string) columns {
	var c columns
	number := map[string]int{} // field name → column number, in first appearance
	var uses, seen []int       // seen: the shape a column was last counted in
	byKind := kindPlaces{}     // as schemaRow's: a kind's names, found without hashing
	rows := 0
	for r, count := range shapes {
		c.any = true
		c.period = c.period || r.Period != ""
		c.time = c.time || r.Timestamp != ""
		c.src = c.src || r.Source != ""
		if named != nil {
			if c.period && c.time && c.src {
				break // the field columns are those named: nothing more to learn
			}
			continue
		}
		rows++
		lp := byKind.of(r.Kind)
		for i := range r.Fields {
			f := &r.Fields[i]
			if f.Type == "prose" {
				continue
			}
			n, ok := lp.at(i, f.Key)
			if !ok {
				if n, ok = number[f.Key]; !ok {
					n = len(c.names)
					number[f.Key] = n
					c.names = append(c.names, f.Key)
					uses, seen = append(uses, 0), append(seen, 0)
				}
				lp.remember(i, f.Key, n)
			}
			if seen[n] != rows {
				seen[n] = rows
				uses[n] += count
			}
		}
	}
	if named != nil {
		c.names = named
		return c
	}
	byUse := make([]int, len(c.names))
	for i := range byUse {
		byUse[i] = i
	}
	order.HotStable(byUse, func(a, b int) int { return uses[b] - uses[a] })
	names := make([]string, len(c.names))
	for place, n := range byUse {
		names[place] = c.names[n]
	}
	c.names = names
	return c
}

func (c columns) header() string {
	head := []string{"schema", "entity", "kind"}
	if c.period {
		head = append(head, "period")
	}
	if c.time {
		head = append(head, "timestamp")
	}
	if c.src {
		head = append(head, "src")
	}
	for _, n := range c.names {
		head = append(head, EscapeKey(n))
	}
	return strings.Join(head, "|")
}

// schemaRow writes the row lines of one schema: each record's cells in the columns' order.
type schemaRow struct {
	columns
	named []string
	place map[string]int // a field column's name → its place
	// byKind remembers, for each kind of record, the field names of the last record of that
	// kind and their places: the rows of a kind name the same fields, so a name is found by
	// comparing it with the one at its index (the same string, at once) rather than hashing.
	byKind kindPlaces
	cells  []string // a row's cells by place
	set    []bool
	plain  []bool // the cell's value needs no escape (unescaped)
	// touched is the places the last row set, cleared before the next: a result can have
	// thousands of columns (an income's sources.N.*) and a row a handful of them.
	touched []int
}

type lastPlaces struct {
	keys   []string
	places []int
}

// kindPlaces is the lastPlaces of each kind of record.
type kindPlaces map[string]*lastPlaces

// of is kind's lastPlaces, empty the first time.
func (k kindPlaces) of(kind string) *lastPlaces {
	lp := k[kind]
	if lp == nil {
		lp = &lastPlaces{}
		k[kind] = lp
	}
	return lp
}

// at is the place of the i-th field when it has the name the last record of the kind gave it.
func (lp *lastPlaces) at(i int, key string) (int, bool) {
	if i < len(lp.keys) && lp.keys[i] == key {
		return lp.places[i], true
	}
	return 0, false
}

// remember keeps the place of the i-th field of the kind's last record.
func (lp *lastPlaces) remember(i int, key string, p int) {
	if i < len(lp.keys) {
		lp.keys[i], lp.places[i] = key, p
	} else if i == len(lp.keys) {
		lp.keys, lp.places = append(lp.keys, key), append(lp.places, p)
	}
}

func (c columns) rowWriter(named []string) *schemaRow {
	s := &schemaRow{columns: c, named: named, place: make(map[string]int, len(c.names)),
		byKind: kindPlaces{}, cells: make([]string, len(c.names)), set: make([]bool, len(c.names)), plain: make([]bool, len(c.names))}
	for i, n := range c.names {
		if _, ok := s.place[n]; !ok {
			s.place[n] = i
		}
	}
	return s
}

// placeOf is the place of the i-th field of a record of kind lp, -1 for a name that is no
// column (a record left out of the count cannot have one; this is a guard).
func (s *schemaRow) placeOf(lp *lastPlaces, i int, key string) int {
	if p, ok := lp.at(i, key); ok {
		return p
	}
	p, ok := s.place[key]
	if !ok {
		p = -1
	}
	lp.remember(i, key, p)
	return p
}

// append appends the row line of r to b: its cells in the header's order, up to the last
// one that is not empty.
func (s *schemaRow) append(b []byte, r Record) []byte {
	b = append(b, "row|"...)
	b = appendEscaped(b, r.Entity)
	b = append(b, '|')
	b = appendEscaped(b, r.Kind)
	// Empty cells are written only when a later one is not: pending counts them.
	pending := 0
	cell := func(v string, plain bool) {
		if v == "" {
			pending++
			return
		}
		for ; pending > 0; pending-- {
			b = append(b, '|')
		}
		b = appendValue(append(b, '|'), v, plain)
	}
	if s.period {
		cell(r.Period, false)
	}
	if s.time {
		cell(r.Timestamp, false)
	}
	if s.src {
		cell(r.Source, false)
	}
	last := s.fill(r)
	for i := 0; i <= last; i++ {
		cell(s.cells[i], s.plain[i])
	}
	return b
}

// fill sets the cells of r's fields and returns the last place set (-1 for none). The first
// field of a name fills its cell, as Record.Get finds it.
func (s *schemaRow) fill(r Record) int {
	for _, p := range s.touched {
		s.set[p], s.cells[p], s.plain[p] = false, "", false
	}
	s.touched = s.touched[:0]
	last := -1
	if s.named != nil {
		for i, k := range s.named {
			if v, ok := r.Get(k); ok {
				s.setCell(i, v, false)
				last = i
			}
		}
		return last
	}
	lp := s.byKind.of(r.Kind)
	for i := range r.Fields {
		f := &r.Fields[i]
		if f.Type == "prose" {
			continue
		}
		if p := s.placeOf(lp, i, f.Key); p >= 0 && !s.set[p] {
			s.setCell(p, f.Value, unescaped(f.Type))
			last = max(last, p)
		}
	}
	return last
}

func (s *schemaRow) setCell(p int, v string, plain bool) {
	s.set[p], s.cells[p], s.plain[p] = true, v, plain
	s.touched = append(s.touched, p)
}
