package records

import (
	"encoding"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// Deriving records from a result works from a plan of each struct type, made once: which
// field is the entity, the rows, the source; how each value is written; the keys of nested
// fields with their prefix already joined. A large report has millions of rows of a handful
// of types, and working this out from the tags and method sets for every row (and boxing
// every value to ask it for its JSON) cost several times what writing the rows did. The
// plan gives the same records as the reflective walk in adapter.go (appendField, scalar),
// which stays the path for values whose type is only known at run time (interfaces).

// role is what a field is to the record of its row.
type role uint8

const (
	roleValue     role = iota // a field of the record
	roleSkip                  // record:"-"
	roleRows                  // record:"rows=KIND": rows of their own
	roleEntity                // record:"entity"
	rolePeriod                // record:"period"
	roleTimestamp             // record:"timestamp"
	roleSource                // record:"source"
	roleProse                 // record:"prose"
	roleEmbedded              // an embedded struct whose fields are inlined
)

// fieldOp is one field of a struct plan.
type fieldOp struct {
	index     int
	role      role
	key       string // the record key: the JSON name, after the prefix of a nested struct
	kind      string // roleRows: the kind of the rows
	omitempty bool
	embedded  *lazyPlan   // roleEmbedded
	rows      *lazyPlan   // roleRows: the rows' plan, when their type is fixed
	value     *valuePlan  // roleValue
	scalar    scalarWrite // roleEntity, rolePeriod, roleTimestamp
	dynamic   bool        // the structural parts: an interface, scalar decides from the value
	stringer  bool        // roleSource: a fmt.Stringer
	appender  bool        // roleSource: a Citer too, which appends String's text
	// always is set for a value field every record of the type has, as one field of this
	// type: Shapes adds it without reading the value.
	always    bool
	fieldType string // always: the field's type
}

// structPlan is the fields of one struct type, either as a row (tags give the structure) or
// nested in a row under a key prefix (every field but "-" and rows is a value).
type structPlan struct {
	ops []fieldOp
	// shape is the ops as Shapes reads them: runs of fields every record has, added as they
	// are, between the ops whose values decide.
	shape []shapeStep
	// fields is the most fields a record of this row type has had: the capacity given to
	// the next one's.
	fields atomic.Int32
}

// shapeStep is a run of fields every record of a type has (fixed), or else one op.
type shapeStep struct {
	fixed []Field
	op    *fieldOp
}

// shapeSteps groups p's ops for Shapes.
func shapeSteps(ops []fieldOp) []shapeStep {
	var steps []shapeStep
	for i := range ops {
		op := &ops[i]
		if !op.always {
			steps = append(steps, shapeStep{op: op})
			continue
		}
		f := Field{Key: op.key, Type: op.fieldType}
		if n := len(steps); n > 0 && steps[n-1].fixed != nil {
			steps[n-1].fixed = append(steps[n-1].fixed, f)
		} else {
			steps = append(steps, shapeStep{fixed: []Field{f}})
		}
	}
	return steps
}

// lazyPlan is a struct plan made when first used, so that a type that holds itself (through
// a pointer or a slice) does not make plans without end.
type lazyPlan struct {
	t      reflect.Type
	prefix string
	row    bool
	p      atomic.Pointer[structPlan]
}

func (l *lazyPlan) get() *structPlan {
	if p := l.p.Load(); p != nil {
		return p
	}
	p := structPlanOf(l.t, l.prefix, l.row)
	l.p.Store(p)
	return p
}

type planKey struct {
	t      reflect.Type
	prefix string
	row    bool
}

var structPlans sync.Map // planKey -> *structPlan

// structPlanOf is the plan of struct type t: as a row when row is set, else as a struct
// nested under prefix ("" or "pool_before.").
func structPlanOf(t reflect.Type, prefix string, row bool) *structPlan {
	k := planKey{t, prefix, row}
	if p, ok := structPlans.Load(k); ok {
		return p.(*structPlan)
	}
	p := &structPlan{}
	for _, fp := range planOf(t) {
		sf := t.Field(fp.index)
		op := fieldOp{index: fp.index, key: prefix + fp.name, omitempty: fp.omitempty}
		switch {
		case fp.embedded:
			op.role = roleEmbedded
			op.embedded = &lazyPlan{t: indirectType(sf.Type), prefix: prefix, row: row}
		case fp.tag == "-":
			op.role = roleSkip
		case strings.HasPrefix(fp.tag, "rows="):
			op.role, op.kind = roleRows, strings.TrimPrefix(fp.tag, "rows=")
			el := indirectType(sf.Type)
			if el.Kind() == reflect.Slice || el.Kind() == reflect.Array {
				el = indirectType(el.Elem())
			}
			if el.Kind() == reflect.Struct {
				op.rows = &lazyPlan{t: el, row: true}
			}
		case !row:
			op.value = valuePlanOf(sf.Type, op.key)
		case fp.tag == "entity" || fp.tag == "period" || fp.tag == "timestamp":
			op.role = structuralRole(fp.tag)
			e := indirectType(sf.Type)
			op.dynamic = e.Kind() == reflect.Interface
			op.scalar = scalarWriteOf(e)
		case fp.tag == "source":
			op.role = roleSource
			e := indirectType(sf.Type)
			op.stringer = e.Kind() != reflect.Interface && e.Implements(stringerType)
			op.appender = op.stringer && e.Implements(citerType)
		case fp.tag == "prose":
			op.role = roleProse
		default:
			op.value = valuePlanOf(sf.Type, op.key)
		}
		op.always, op.fieldType = alwaysOne(op, sf.Type)
		p.ops = append(p.ops, op)
	}
	p.shape = shapeSteps(p.ops)
	actual, _ := structPlans.LoadOrStore(k, p)
	return actual.(*structPlan)
}

// alwaysOne reports whether a value field of declared type t gives exactly one field
// whatever its value (not omitted when empty, no pointer or interface that may be nil, not
// flattened into several), and that field's type.
func alwaysOne(op fieldOp, t reflect.Type) (bool, string) {
	if op.role != roleValue || op.omitempty || op.value == nil || t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return false, ""
	}
	switch op.value.shape {
	case shapeScalar, shapeList:
		return true, op.value.typ
	case shapeMap:
		return true, "json"
	}
	return false, ""
}

func structuralRole(tag string) role {
	switch tag {
	case "entity":
		return roleEntity
	case "period":
		return rolePeriod
	}
	return roleTimestamp
}

// shape is how a value is written into a record.
type shape uint8

const (
	shapeDynamic  shape = iota // an interface: the reflective path decides from the value
	shapeScalar                // one field
	shapeStruct                // its fields under key.name
	shapeList                  // one field, the elements joined by ListSeparator
	shapeElements              // a list of structs: fields of their own (appendElements)
	shapeMap                   // one field of JSON
	shapeNone                  // nothing (a func, a channel)
)

// valuePlan is how a value of one declared type is written under one key.
type valuePlan struct {
	shape  shape
	typ    string      // the field type of a scalar or a list ("money", "list", ...)
	scalar scalarWrite // shapeScalar, and a list's elements
	elem   *valuePlan  // shapeList: the plan of an element, when its type is fixed
	nested *lazyPlan   // shapeStruct
}

// scalarWrite is how a scalar's text is had.
type scalarWrite uint8

const (
	writeString       scalarWrite = iota // a string kind: the string itself
	writeBool                            // true / false
	writeInt                             // a signed integer without MarshalJSON
	writeAppendJSON                      // AppendJSON(b) []byte, then as writeMarshaler
	writeMarshaler                       // MarshalJSON: the text of a plain JSON string
	writeGeneric                         // scalar(): encoding/json and back
	writeStringer                        // a list element that is no scalar: its String()
	writeTextAppender                    // an encoding.TextAppender scalar (money, decimals, dates)
	writeCiter                           // writeStringer for a Citer: String's text appended
)

// Citer is a source reference that appends its cited text (String's, "file:line") to b: a
// report's records write millions of them without a string each. It is not
// encoding.TextAppender on purpose: encoding/json/v2 (which Go 1.27's encoding/json follows)
// writes a value with a text form as that text, and a source reference is an object in JSON.
type Citer interface{ AppendCite(b []byte) []byte }

// jsonAppender is a scalar that appends the JSON MarshalJSON writes without allocating (the
// domain's money, decimals and dates).
type jsonAppender interface{ AppendJSON(b []byte) []byte }

var (
	textAppenderType = reflect.TypeFor[encoding.TextAppender]()
	citerType        = reflect.TypeFor[Citer]()
	jsonAppenderType = reflect.TypeFor[jsonAppender]()
	marshalerType    = reflect.TypeFor[json.Marshaler]()
)

func valuePlanOf(t reflect.Type, key string) *valuePlan {
	e := indirectType(t)
	if e.Kind() == reflect.Interface {
		return &valuePlan{shape: shapeDynamic}
	}
	if typ := staticValueType(e); typ != "" {
		return &valuePlan{shape: shapeScalar, typ: typ, scalar: scalarWriteOf(e)}
	}
	switch e.Kind() {
	case reflect.Struct:
		return &valuePlan{shape: shapeStruct, nested: &lazyPlan{t: e, prefix: key + ".", row: false}}
	case reflect.Slice, reflect.Array:
		if isComposite(e.Elem()) {
			return &valuePlan{shape: shapeElements}
		}
		vp := &valuePlan{shape: shapeList, typ: "list"}
		switch el := indirectType(e.Elem()); {
		case el.Kind() == reflect.Interface:
		case staticValueType(el) != "":
			vp.elem = &valuePlan{shape: shapeScalar, scalar: scalarWriteOf(el)}
		case el.Implements(stringerType):
			vp.elem = &valuePlan{shape: shapeScalar, scalar: writeStringer}
			if el.Implements(citerType) {
				vp.elem.scalar = writeCiter
			}
		}
		return vp
	case reflect.Map:
		return &valuePlan{shape: shapeMap}
	}
	return &valuePlan{shape: shapeNone}
}

// staticValueType is valueType for a value of type t (not a pointer or an interface): a
// Typed value's RecordType is asked of the type's zero value (it names the type's field
// type, the same for every value).
func staticValueType(t reflect.Type) string {
	switch {
	case t.Implements(typedType):
		return reflect.Zero(t).Interface().(Typed).RecordType()
	case t == decimalType:
		return "decimal"
	case t.Implements(marshalerType):
		return "text"
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	}
	return ""
}

// scalarWriteOf is how scalar writes a value of type t, in the order it tries.
func scalarWriteOf(t reflect.Type) scalarWrite {
	switch t.Kind() {
	case reflect.String:
		return writeString
	case reflect.Bool:
		return writeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !t.Implements(marshalerType) {
			return writeInt
		}
	}
	switch {
	case t.Implements(textAppenderType) && t.Implements(jsonAppenderType) && t.Implements(marshalerType):
		// A value that writes both its JSON string and that string's text (the domain's
		// money, decimals and dates): the text, without quoting it and checking it back.
		return writeTextAppender
	case t.Implements(jsonAppenderType) && t.Implements(marshalerType):
		return writeAppendJSON
	case t.Implements(marshalerType):
		return writeMarshaler
	}
	return writeGeneric
}

// builder makes one record: its fields, and the text of every value that is not already a
// string kept in one buffer, turned into one string when the record is done (one allocation
// per record rather than one per value).
type builder struct {
	rec   Record
	buf   []byte
	spans []span
	// worker is set in a builder deriving a share of a long list for Of: it does not share
	// out the lists nested in it again.
	worker bool
	// shapesOnly leaves the fields' values empty (Shapes).
	shapesOnly bool
	// transient records (Stream, Shapes) are valid only in the consumer's loop body given
	// them, so their memory is used again: spare is the fields of a record the consumer is done
	// with, for the next record's, and text is where the records' values are written (a
	// worker's chunk has its own, used again with the chunk). A large report's millions of
	// records then take a few blocks rather than two allocations each, which the collector
	// would otherwise mark the whole calculation's memory again and again to free.
	transient bool
	spare     []Field
	text      []byte
	// counted is set for ShapeCounts: a long list's workers count the records of each shape
	// in their chunk (in the order the shapes first appear there) and the consumer is given
	// each shape once with its count, through emit, rather than every record.
	counted bool
	emit    func(Record, int) bool
}

// textBlock is the size of a new block of transient records' values.
const textBlock = 64 << 10

// span is a value written into buf, to be set from the record's text at the end: a field
// (index ≥ 0) or a structural part (entity, period, timestamp, source).
type span struct {
	field      int
	start, end int
}

const (
	spanEntity = -1 - iota
	spanPeriod
	spanTimestamp
	spanSource
)

// makeRecord derives the record of row value rv (a struct of plan p) of the given kind
// under parent.
func (b *builder) makeRecord(rv reflect.Value, p *structPlan, kind string, parent Record, depth int) Record {
	b.rec = Record{Kind: kind, Entity: parent.Entity, Period: parent.Period, Timestamp: parent.Timestamp, Source: parent.Source, Depth: depth}
	if b.spare != nil {
		b.rec.Fields, b.spare = b.spare[:0], nil
	} else if n := p.fields.Load(); n > 0 {
		b.rec.Fields = make([]Field, 0, n)
	}
	b.buf, b.spans = b.buf[:0], b.spans[:0]
	b.rowFields(rv, p)
	if n := int32(len(b.rec.Fields)); n > p.fields.Load() {
		p.fields.Store(n)
	}
	if len(b.spans) > 0 {
		text := b.keepText()
		for _, s := range b.spans {
			v := text[s.start:s.end]
			switch s.field {
			case spanEntity:
				b.rec.Entity = v
			case spanPeriod:
				b.rec.Period = v
			case spanTimestamp:
				b.rec.Timestamp = v
			case spanSource:
				b.rec.Source = v
			default:
				b.rec.Fields[s.field].Value = v
			}
		}
	}
	rec := b.rec
	b.rec = Record{}
	return rec
}

// keepText is the record's values written in buf, as a string the record can keep: a copy,
// or for a transient record, a view of where the builder's text block holds them. A block
// is only written after its end, and is started over only by the worker of a chunk that owns
// it once the consumer has read every record of that chunk, so a record's values stay as
// they are for as long as the record and the rows nested in it (which take its structural
// parts) are read.
func (b *builder) keepText() string {
	if !b.transient || len(b.buf) == 0 {
		return string(b.buf)
	}
	if len(b.text)+len(b.buf) > cap(b.text) {
		// A new block: the full one stays as it is for the records that point into it. A
		// worker's chunk keeps its last block, so one that outgrew its block gets a larger
		// one, to be used again whole.
		size := textBlock
		if b.worker {
			size = max(size, min(2*cap(b.text), 1<<20))
		}
		b.text = make([]byte, 0, max(size, len(b.buf)))
	}
	start := len(b.text)
	b.text = append(b.text, b.buf...)
	return unsafe.String(&b.text[start], len(b.buf))
}

// rowFields adds the fields of a row's struct, or of a struct nested in a row (whose plan's
// fields are all values, and the structs embedded in it).
func (b *builder) rowFields(rv reflect.Value, p *structPlan) {
	if b.shapesOnly {
		for _, st := range p.shape {
			if st.op == nil {
				b.rec.Fields = append(b.rec.Fields, st.fixed...)
			} else {
				b.rowField(rv, st.op)
			}
		}
		return
	}
	for i := range p.ops {
		b.rowField(rv, &p.ops[i])
	}
}

// rowField adds what one field of a row gives its record.
func (b *builder) rowField(rv reflect.Value, op *fieldOp) {
	fv := rv.Field(op.index)
	switch op.role {
	case roleSkip, roleRows:
	case roleEmbedded:
		if inner := indirect(fv); inner.IsValid() {
			b.rowFields(inner, op.embedded.get())
		}
	case roleEntity:
		b.rec.Entity = b.scalarText(fv, op, spanEntity)
	case rolePeriod:
		b.rec.Period = b.scalarText(fv, op, spanPeriod)
	case roleTimestamp:
		b.rec.Timestamp = b.scalarText(fv, op, spanTimestamp)
	case roleSource:
		if op.appender {
			b.appendSource(fv)
		} else if s := b.source(fv, op); s != "" {
			b.rec.Source = s
		}
	case roleProse:
		b.prose(rv, fv, op.key)
	default:
		b.value(fv, op.key, op.value, op.omitempty)
	}
}

// scalarText is scalar(v) for a structural part: a string is returned as it is; any other
// value is written into the buffer as the part's span (and "" returned for now).
func (b *builder) scalarText(v reflect.Value, op *fieldOp, part int) string {
	if op.dynamic {
		return scalar(v)
	}
	v = indirect(v)
	if !v.IsValid() {
		return ""
	}
	if op.scalar == writeString {
		return v.String()
	}
	start := len(b.buf)
	b.appendScalar(v, op.scalar)
	b.spans = append(b.spans, span{part, start, len(b.buf)})
	return ""
}

// appendSource sets the record's source from a value that appends String's text (as
// source would, a source that is empty leaves the parent's): written into the buffer as a
// span rather than a string of its own.
func (b *builder) appendSource(v reflect.Value) {
	if v = indirect(v); !v.IsValid() {
		return
	}
	start := len(b.buf)
	b.buf = methodsOf(v).(Citer).AppendCite(b.buf)
	if len(b.buf) > start {
		b.spans = append(b.spans, span{spanSource, start, len(b.buf)})
	}
}

// source is sourceString(v), calling a Stringer without boxing it.
func (b *builder) source(v reflect.Value, op *fieldOp) string {
	if !op.stringer {
		return sourceString(v)
	}
	if v = indirect(v); !v.IsValid() {
		return ""
	}
	return methodsOf(v).(fmt.Stringer).String()
}

// prose adds the row's readable steps: the field's lines when it has them, else, for a
// Proser, a field whose lines are written only when something reads them (the dense
// formats leave prose out).
func (b *builder) prose(rv, fv reflect.Value, key string) {
	v := indirect(fv)
	if v.IsValid() && v.Len() > 0 {
		b.rec.Fields = append(b.rec.Fields, Field{Key: key, Value: listValue(v), Type: "prose"})
		return
	}
	if !rv.CanAddr() {
		return
	}
	if p, ok := rv.Addr().Interface().(Proser); ok {
		b.rec.Fields = append(b.rec.Fields, Field{Key: key, Type: "prose"})
		b.rec.proser = p
	}
}

// value adds the fields of one value, as appendField does.
func (b *builder) value(v reflect.Value, key string, vp *valuePlan, omitempty bool) {
	if omitempty && v.IsZero() {
		return
	}
	if vp.shape == shapeDynamic {
		b.rec.Fields = appendField(b.rec.Fields, key, v, false)
		return
	}
	v = indirect(v)
	if !v.IsValid() {
		return
	}
	switch vp.shape {
	case shapeScalar:
		if b.shapesOnly {
			b.rec.Fields = append(b.rec.Fields, Field{Key: key, Type: vp.typ})
			return
		}
		if vp.scalar == writeString {
			b.rec.Fields = append(b.rec.Fields, Field{Key: key, Value: v.String(), Type: vp.typ})
			return
		}
		start := len(b.buf)
		b.appendScalar(v, vp.scalar)
		b.spans = append(b.spans, span{len(b.rec.Fields), start, len(b.buf)})
		b.rec.Fields = append(b.rec.Fields, Field{Key: key, Type: vp.typ})
	case shapeStruct:
		b.rowFields(v, vp.nested.get()) // a nested plan holds values only
	case shapeList:
		if b.shapesOnly {
			b.rec.Fields = append(b.rec.Fields, Field{Key: key, Type: "list"})
			return
		}
		if vp.elem == nil {
			b.rec.Fields = append(b.rec.Fields, Field{Key: key, Value: listValue(v), Type: "list"})
			return
		}
		start := len(b.buf)
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.buf = append(b.buf, ListSeparator...)
			}
			if el := indirect(v.Index(i)); el.IsValid() {
				b.appendScalar(el, vp.elem.scalar)
			}
		}
		b.spans = append(b.spans, span{len(b.rec.Fields), start, len(b.buf)})
		b.rec.Fields = append(b.rec.Fields, Field{Key: key, Type: "list"})
	case shapeElements:
		b.rec.Fields = appendElements(b.rec.Fields, key, v)
	case shapeMap:
		if b.shapesOnly {
			b.rec.Fields = append(b.rec.Fields, Field{Key: key, Type: "json"})
			return
		}
		j, _ := json.Marshal(v.Interface())
		b.rec.Fields = append(b.rec.Fields, Field{Key: key, Value: string(j), Type: "json"})
	}
}

// appendScalar appends scalar(v) to the buffer. v is neither a pointer nor an interface.
func (b *builder) appendScalar(v reflect.Value, how scalarWrite) {
	switch how {
	case writeString:
		b.buf = append(b.buf, v.String()...)
		return
	case writeBool:
		b.buf = strconv.AppendBool(b.buf, v.Bool())
		return
	case writeInt:
		b.buf = strconv.AppendInt(b.buf, v.Int(), 10)
		return
	case writeAppendJSON:
		start := len(b.buf)
		b.buf = methodsOf(v).(jsonAppender).AppendJSON(b.buf)
		if unquoted, ok := plainJSONText(b.buf[start:]); ok {
			n := copy(b.buf[start:], unquoted)
			b.buf = b.buf[:start+n]
			return
		}
		b.buf = b.buf[:start]
	case writeTextAppender:
		b.buf, _ = methodsOf(v).(encoding.TextAppender).AppendText(b.buf)
		return
	case writeCiter:
		b.buf = methodsOf(v).(Citer).AppendCite(b.buf)
		return
	case writeStringer:
		b.buf = append(b.buf, methodsOf(v).(fmt.Stringer).String()...)
		return
	case writeMarshaler:
		if j, err := methodsOf(v).(json.Marshaler).MarshalJSON(); err == nil {
			if unquoted, ok := plainJSONText(j); ok {
				b.buf = append(b.buf, unquoted...)
				return
			}
		}
	}
	b.buf = append(b.buf, scalar(v)...)
}

// methodsOf is v as an interface value for calling its methods: through its address when it
// has one, which boxes nothing.
func methodsOf(v reflect.Value) any {
	if v.CanAddr() {
		return v.Addr().Interface()
	}
	return v.Interface()
}

// plainJSONText is the text of a JSON string with nothing escaped in it: what scalar gives
// for it. Anything else reports false.
func plainJSONText(j []byte) ([]byte, bool) {
	if len(j) < 2 || j[0] != '"' || j[len(j)-1] != '"' {
		return nil, false
	}
	body := j[1 : len(j)-1]
	for _, c := range body {
		if c == '"' || c == '\\' || c < 0x20 {
			return nil, false
		}
	}
	if !utf8.Valid(body) {
		return nil, false
	}
	return body, true
}

// childRows yields the rows of a struct value of plan p, depth-first; it reports false once
// yield has asked to stop.
func (b *builder) childRows(rv reflect.Value, p *structPlan, parent Record, depth int, yield func(Record) bool) bool {
	for i := range p.ops {
		op := &p.ops[i]
		switch op.role {
		case roleEmbedded:
			if inner := indirect(rv.Field(op.index)); inner.IsValid() {
				if !b.childRows(inner, op.embedded.get(), parent, depth, yield) {
					return false
				}
			}
		case roleRows:
			v := indirect(rv.Field(op.index))
			switch {
			case !v.IsValid():
			case v.Kind() == reflect.Struct:
				if !b.row(v, op, parent, depth, yield) {
					return false
				}
			case v.Kind() == reflect.Slice || v.Kind() == reflect.Array:
				if !b.worker && v.Len() >= parallelMin && runtime.GOMAXPROCS(0) > 1 {
					if !parallelRows(v, op, parent, depth, b, yield) {
						return false
					}
					continue
				}
				for j := 0; j < v.Len(); j++ {
					if el := indirect(v.Index(j)); el.IsValid() && el.Kind() == reflect.Struct {
						if !b.row(el, op, parent, depth, yield) {
							return false
						}
					}
				}
			}
		}
	}
	return true
}

// row yields the record of one row of a rows= field, then its own rows.
func (b *builder) row(el reflect.Value, op *fieldOp, parent Record, depth int, yield func(Record) bool) bool {
	var p *structPlan
	if op.rows != nil && op.rows.t == el.Type() {
		p = op.rows.get()
	} else {
		p = structPlanOf(el.Type(), "", true)
	}
	rec := b.makeRecord(el, p, op.kind, parent, depth)
	if !yield(rec) {
		return false
	}
	if b.transient && !b.worker {
		b.spare = rec.Fields // the consumer is done with it (a worker's chunk keeps its own)
	}
	return b.childRows(el, p, rec, depth+1, yield)
}

// A list of at least parallelMin rows is derived by the processors at once, in chunks of
// chunkRows rows (with the rows nested in them), while the consumer writes the records of the
// chunks already done, in order: deriving a large report's records costs more than writing
// their lines. At most 2 chunks a processor are ahead of the one the consumer reads.
const (
	parallelMin = 512
	chunkRows   = 128
)

// derived is a chunk of rows derived by a worker: their records and, for transient records,
// the block their values were last written into.
type derived struct {
	recs []Record
	text []byte
	// counts, for ShapeCounts, is how many of the chunk's records have the shape of each of
	// recs, which then holds one record of each shape, in the order they first appear.
	counts []int
}

// sameShapeAs is the index of the record in recs that r has the shape of (see ShapeCounts),
// or -1. A chunk's records are of a few shapes, so they are compared one by one; the keys and
// types of one plan are the same strings, compared at once.
func sameShapeAs(recs []Record, r *Record) int {
	for i := range recs {
		if sameShape(&recs[i], r) {
			return i
		}
	}
	return -1
}

// sameShape reports whether a and b have the same shape: the same kind, the same structural
// parts set, and fields of the same names and types in the same order.
func sameShape(a, b *Record) bool {
	if a.Kind != b.Kind || len(a.Fields) != len(b.Fields) || (a.Period == "") != (b.Period == "") ||
		(a.Timestamp == "") != (b.Timestamp == "") || (a.Source == "") != (b.Source == "") {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].Key != b.Fields[i].Key || a.Fields[i].Type != b.Fields[i].Type {
			return false
		}
	}
	return true
}

// chunkPool is the chunks read, to be used again (by any list's workers): a kept record's chunk
// is cleared first, so a chunk never holds memory a record still in use has.
var chunkPool = sync.Pool{New: func() any { return &derived{recs: make([]Record, 0, 4*chunkRows)} }}

// parallelRows yields the rows of the list v (and theirs) in order, derived by workers
// making records as like does (Of's, Stream's or Shapes'); it reports false once yield has
// asked to stop, after the workers have stopped.
func parallelRows(v reflect.Value, op *fieldOp, parent Record, depth int, like *builder, yield func(Record) bool) bool {
	n := v.Len()
	nChunks := (n + chunkRows - 1) / chunkRows
	workers := min(runtime.GOMAXPROCS(0), nChunks)
	results := make([]chan *derived, nChunks)
	jobs := make(chan int, nChunks)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := builder{worker: true, shapesOnly: like.shapesOnly, transient: like.transient, counted: like.counted}
			for c := range jobs {
				d := chunkPool.Get().(*derived)
				recs := d.recs
				// Transient records take the fields of the records the chunk held before
				// (which the consumer has read, and which are not cleared for this) and
				// write their values from the start of its block.
				b.text = d.text[:0]
				spare := func() {
					b.spare = nil // never one of a chunk another worker may have now
					if b.transient && len(recs) < cap(recs) {
						b.spare = recs[:len(recs)+1][len(recs)].Fields
					}
				}
				spare()
				counts := d.counts[:0]
				going := func() bool {
					select {
					case <-done:
						return false
					default:
						return true
					}
				}
				collect := func(r Record) bool {
					if b.counted {
						if i := sameShapeAs(recs, &r); i >= 0 {
							counts[i]++
							b.spare = r.Fields // counted, and not kept
							return going()
						}
						counts = append(counts, 1)
					}
					recs = append(recs, r)
					spare()
					return going()
				}
				for j := c * chunkRows; j < min(n, (c+1)*chunkRows); j++ {
					if el := indirect(v.Index(j)); el.IsValid() && el.Kind() == reflect.Struct {
						if !b.row(el, op, parent, depth, collect) {
							break
						}
					}
				}
				d.recs, d.text, d.counts = recs, b.text, counts
				results[c] <- d
				b.text, b.spare = nil, nil // the chunk's now
			}
		}()
	}
	sent := 0
	send := func() {
		if sent < nChunks {
			results[sent] = make(chan *derived, 1)
			jobs <- sent
			sent++
		}
	}
	// 2 chunks a worker ahead of the one being read; the next is asked for once that one is
	// read, so its worker finds the chunk's memory free to use again.
	for range 2*workers + 1 {
		send()
	}
	ok := true
	for c := 0; c < nChunks && ok; c++ {
		d := <-results[c]
		for i, r := range d.recs {
			if like.counted && !like.emit(r, d.counts[i]) || !like.counted && !yield(r) {
				ok = false
				break
			}
		}
		if !like.transient {
			clear(d.recs) // kept records may be held by the consumer: only the slice is reused
			d.text = nil
		}
		d.recs = d.recs[:0]
		chunkPool.Put(d)
		send()
	}
	if !ok {
		close(done)
	}
	close(jobs)
	wg.Wait()
	return ok
}
