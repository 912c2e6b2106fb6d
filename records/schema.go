package records

import (
	"encoding/binary"
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
// The columns are known only once every record has been seen, so the records are read once
// and each is kept as its escaped cells (a column number and the text of each), which the
// rows are then written from: deriving a large result's records twice cost more than
// keeping them. Rows that can no longer fit the limits are counted, not kept.

// writeSchema writes recs in the schema format, then the truncation line and the warnings.
func writeSchema(w io.Writer, recs iter.Seq[Record], warnings []string, opt Options, note notice) error {
	sc := schemaOf(recs, opt)
	header := ""
	if sc.any {
		header = sc.header()
	}
	return finish(w, header, sc.rows(), sc.appendRow, sc.unread, warnings, opt, note, false)
}

// keptSchema is the records read for the schema format.
type keptSchema struct {
	any, period, time, src bool
	cols                   []string // the field columns in the order written
	order                  []int    // a kept column number → its place in cols
	kept                   [][]byte // the kept rows (see schemaOf), in blocks of about keptBlock bytes
	unread                 int      // records after the kept ones, which cannot fit
	cells                  [][]byte // scratch: a row's cells by place
	set                    []bool
}

// keptBlock is the size of a block of kept rows: one buffer grown to hold a large result's
// rows would copy them several times over.
const keptBlock = 1 << 20

func schemaOf(recs iter.Seq[Record], opt Options) *keptSchema {
	sc := &keptSchema{}
	named := opt.Fields != nil
	number := map[string]int{} // field name → column number, in first appearance
	var uses, seen []int       // seen: the record a column was last used in (its first field wins)
	rows, least := 0, 0        // least: the length the kept rows' lines have at least
	for r := range recs {
		sc.any = true
		sc.period = sc.period || r.Period != ""
		sc.time = sc.time || r.Timestamp != ""
		sc.src = sc.src || r.Source != ""
		rows++
		skip := sc.unread > 0 || opt.MaxRecords > 0 && rows > opt.MaxRecords ||
			opt.MaxChars > 0 && rows > 1 && least > opt.MaxChars
		var b []byte // the block the record is kept in
		if skip {
			sc.unread++
		} else {
			if n := len(sc.kept); n == 0 || len(sc.kept[n-1]) > keptBlock-keptBlock/16 {
				sc.kept = append(sc.kept, make([]byte, 0, keptBlock))
			}
			b, least = sc.keepStructure(sc.kept[len(sc.kept)-1], r, least)
		}
		if named {
			if !skip {
				b = binary.AppendUvarint(b, uint64(len(opt.Fields)))
				for i, k := range opt.Fields {
					v, _ := r.Get(k)
					b, least = keepCell(b, i, v, least)
				}
				sc.kept[len(sc.kept)-1] = b
			}
			continue
		}
		cells := 0
		for _, f := range r.Fields {
			if f.Type == "prose" {
				continue
			}
			n, ok := number[f.Key]
			if !ok {
				n = len(number)
				number[f.Key] = n
				sc.cols = append(sc.cols, f.Key)
				uses, seen = append(uses, 0), append(seen, 0)
			}
			if seen[n] != rows {
				seen[n] = rows
				uses[n]++
				cells++
			}
		}
		if skip {
			continue
		}
		b = binary.AppendUvarint(b, uint64(cells))
		for _, f := range r.Fields {
			if n := number[f.Key]; f.Type != "prose" && seen[n] == rows {
				seen[n] = -rows // kept once
				b, least = keepCell(b, n, f.Value, least)
			}
		}
		sc.kept[len(sc.kept)-1] = b
	}
	if named {
		sc.cols = opt.Fields
		sc.order = make([]int, len(opt.Fields))
		for i := range sc.order {
			sc.order[i] = i
		}
	} else {
		sc.order = make([]int, len(sc.cols))
		byUse := make([]int, len(sc.cols))
		for i := range byUse {
			byUse[i] = i
		}
		order.HotStable(byUse, func(a, b int) int { return uses[b] - uses[a] })
		cols := make([]string, len(sc.cols))
		for place, n := range byUse {
			sc.order[n], cols[place] = place, sc.cols[n]
		}
		sc.cols = cols
	}
	sc.cells, sc.set = make([][]byte, len(sc.cols)), make([]bool, len(sc.cols))
	return sc
}

// keepStructure appends a record's entity, kind, period, timestamp and source to b, and adds
// to least the length they take in its row at least.
func (sc *keptSchema) keepStructure(b []byte, r Record, least int) ([]byte, int) {
	least += len("row||")
	for i, s := range []string{r.Entity, r.Kind, r.Period, r.Timestamp, r.Source} {
		var n int
		b, n = appendKeptText(b, s)
		if least += n; i >= 2 && n > 0 {
			least++ // its separator
		}
	}
	return b, least
}

// keepCell appends one cell: its column number and text.
func keepCell(b []byte, col int, v string, least int) ([]byte, int) {
	b = binary.AppendUvarint(b, uint64(col))
	b, n := appendKeptText(b, v)
	if n > 0 {
		least += 1 + n
	}
	return b, least
}

// appendKeptText appends s escaped, preceded by its length; n is that length.
func appendKeptText(b []byte, s string) (_ []byte, n int) {
	at := len(b)
	b = append(b, 0) // the length's first byte, made right below
	b = appendEscaped(b, s)
	n = len(b) - at - 1
	if n < 0x80 {
		b[at] = byte(n)
		return b, n
	}
	var size [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(size[:], uint64(n))
	b = append(b, size[1:k]...)
	copy(b[at+k:], b[at+1:at+1+n])
	copy(b[at:], size[:k])
	return b, n
}

// keptRow is one kept record: its place in kept.
type keptRow []byte

// rows is the kept records.
func (sc *keptSchema) rows() iter.Seq[keptRow] {
	return func(yield func(keptRow) bool) {
		for _, rest := range sc.kept {
			for len(rest) > 0 {
				n := keptLen(rest)
				if !yield(keptRow(rest[:n])) {
					return
				}
				rest = rest[n:]
			}
		}
	}
}

// keptLen is the length of the first kept record in b.
func keptLen(b []byte) int {
	at := 0
	text := func() {
		n, k := binary.Uvarint(b[at:])
		at += k + int(n)
	}
	for range 5 {
		text()
	}
	cells, k := binary.Uvarint(b[at:])
	at += k
	for range cells {
		_, k := binary.Uvarint(b[at:])
		at += k
		text()
	}
	return at
}

func (sc *keptSchema) header() string {
	head := []string{"schema", "entity", "kind"}
	if sc.period {
		head = append(head, "period")
	}
	if sc.time {
		head = append(head, "timestamp")
	}
	if sc.src {
		head = append(head, "src")
	}
	for _, c := range sc.cols {
		head = append(head, EscapeKey(c))
	}
	return strings.Join(head, "|")
}

// appendRow appends the row line of a kept record to b: its cells in the header's order, up
// to the last one that is not empty.
func (sc *keptSchema) appendRow(b []byte, row keptRow) []byte {
	at := 0
	var parts [5][]byte
	for i := range parts {
		n, k := binary.Uvarint(row[at:])
		parts[i] = row[at+k : at+k+int(n)]
		at += k + int(n)
	}
	b = append(b, "row|"...)
	b = append(b, parts[0]...)
	b = append(b, '|')
	b = append(b, parts[1]...)
	// Empty cells are written only when a later one is not: pending counts them.
	pending := 0
	cell := func(v []byte) {
		if len(v) == 0 {
			pending++
			return
		}
		for ; pending > 0; pending-- {
			b = append(b, '|')
		}
		b = append(b, '|')
		b = append(b, v...)
	}
	if sc.period {
		cell(parts[2])
	}
	if sc.time {
		cell(parts[3])
	}
	if sc.src {
		cell(parts[4])
	}
	clear(sc.set)
	last := -1
	cells, k := binary.Uvarint(row[at:])
	at += k
	for range cells {
		col, k := binary.Uvarint(row[at:])
		at += k
		n, k := binary.Uvarint(row[at:])
		v := row[at+k : at+k+int(n)]
		at += k + int(n)
		// The first field of a name fills its cell, as Record.Get finds it.
		if place := sc.order[col]; !sc.set[place] {
			sc.set[place], sc.cells[place] = true, v
			last = max(last, place)
		}
	}
	for i := 0; i <= last; i++ {
		if sc.set[i] {
			cell(sc.cells[i])
		} else {
			cell(nil)
		}
	}
	return b
}
