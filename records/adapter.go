package records

import (
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/shopspring/decimal"
)

// From derives the records of a result value. Struct tags drive it:
//
//	record:"kind=NAME"   on a blank field `_ struct{}` of the top-level result: its scalar
//	                      fields form one record of that kind
//	record:"rows=KIND"    on a slice of structs (or one struct): each element is a record of that kind
//	record:"entity"       the field that names the row's subject (a ticker, a currency)
//	record:"period"       the tax year or month the row belongs to
//	record:"timestamp"    the row's date
//	record:"source"       where the row came from (file:line)
//	record:"-"            left out of the record's fields
//	record:"prose"        readable text derived from the other fields (arithmetic steps): shown
//	                      by the text renderer, left out of the dense formats unless --fields
//	                      names it; when the field is empty and the row is a Proser, its Prose
//	                      is used (text written on demand rather than kept in the result)
//
// Rows nested in rows follow their parent and inherit the entity, period, timestamp and source
// they do not set themselves. Nested structs that are not rows flatten into dotted keys.
func From(v any) []Record {
	recs := slices.Collect(Of(v))
	for i := range recs {
		recs[i].resolve()
	}
	return recs
}

// Of is From as a sequence: it derives each record as it is reached, so a consumer that
// writes records out holds one at a time. It may be ranged over more than once.
func Of(v any) iter.Seq[Record] { return of(v, builder{}) }

// Stream is Of for a consumer that is done with each record by the end of the loop body that
// is given it, as the dense formats' writers are (Write): a record's fields and values are in
// memory the next records use again. A record that is kept must be copied (its Fields, and
// each string).
func Stream(v any) iter.Seq[Record] { return of(v, builder{transient: true}) }

// Shapes is Of without the values of the fields: the same records in the same order, each
// with its structural parts (entity, kind, period, timestamp, source) and every field's name
// and type, but the fields' values left empty (a prose field's aside). Writing the values is
// most of what deriving a record costs; what fields a record has, and so the columns of the
// schema format (Options.Shapes) and the names --fields may use (CheckFields), does not
// depend on them. Like Stream's, each record is
// valid only in the loop body that is given it.
func Shapes(v any) iter.Seq[Record] { return of(v, builder{shapesOnly: true, transient: true}) }

// ShapeCounts is Shapes with the records of one shape (the same kind, structural parts set
// and field names and types; see sameShape) given once with their number: what the schema
// format counts its columns from (Options.Shapes). The records are cut into runs in their
// order, and each run gives each of its shapes once, in the order they first appear in it,
// with the number of its records of that shape. A long list's runs are its chunks, counted
// by the processors at once; every other record is a run of one. Expanding each shape by its
// count therefore names the fields in the order Shapes does and counts their records the
// same (TestShapeCountsCountAsShapes), while the consumer reads a shape per chunk rather
// than a record: a million-line report's columns took a third of a second on one processor
// counted record by record.
func ShapeCounts(v any) iter.Seq2[Record, int] {
	return func(yield func(Record, int) bool) {
		like := builder{shapesOnly: true, transient: true, counted: true, emit: yield}
		of(v, like)(func(r Record) bool { return yield(r, 1) })
	}
}

// of derives the records of v as a builder like like makes them.
func of(v any, like builder) iter.Seq[Record] {
	v = viewOf(v)
	return func(yield func(Record) bool) {
		if a, ok := v.(Adapter); ok {
			for _, r := range a.Records() {
				if !yield(r) {
					return
				}
			}
			return
		}
		rv := reflect.ValueOf(v)
		for rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				return
			}
			rv = rv.Elem()
		}
		if rv.Kind() != reflect.Struct {
			return
		}
		var root Record
		if n, ok := v.(Entitled); ok {
			root.Entity = n.RecordEntity()
		}
		b := builder{shapesOnly: like.shapesOnly, transient: like.transient, counted: like.counted, emit: like.emit}
		p := structPlanOf(rv.Type(), "", true)
		kind := topKind(rv.Type())
		if kind == "" {
			b.childRows(rv, p, root, 0, yield)
			return
		}
		top := b.makeRecord(rv, p, kind, root, 0)
		if yield(top) {
			b.childRows(rv, p, top, 1, yield)
		}
	}
}

// Count is the number of records Of yields, found without deriving them (their fields,
// their prose): a summary that only counts them costs a walk over the rows.
func Count(v any) int {
	v = viewOf(v)
	if a, ok := v.(Adapter); ok {
		return len(a.Records())
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return 0
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return 0
	}
	n := countRows(rv)
	if topKind(rv.Type()) != "" {
		n++
	}
	return n
}

func countRows(rv reflect.Value) int {
	n := 0
	for _, f := range fieldsOf(rv) {
		if strings.HasPrefix(f.tag, "rows=") {
			for _, el := range rowValues(f.val) {
				n += 1 + countRows(el)
			}
		}
	}
	return n
}

// Viewer is implemented by a result whose records are derived from another value when
// RecordView returns one (a report's summary, whose records are the filing figures): the
// JSON of the result is unchanged, only its records differ.
type Viewer interface{ RecordView() any }

func viewOf(v any) any {
	if vw, ok := v.(Viewer); ok {
		if alt := vw.RecordView(); alt != nil {
			return alt
		}
	}
	return v
}

// Entitled is implemented by a result that names its records that have no entity of their
// own (a report's tax years are the ledger's): every record has an entity.
type Entitled interface{ RecordEntity() string }

func topKind(t reflect.Type) string {
	for i := 0; i < t.NumField(); i++ {
		if k, ok := strings.CutPrefix(t.Field(i).Tag.Get("record"), "kind="); ok {
			return k
		}
	}
	return ""
}

// rowValues lists the structs a rows= field holds: the elements of a slice, or the field
// itself when it is a single struct.
func rowValues(v reflect.Value) []reflect.Value {
	v = indirect(v)
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Struct {
		return []reflect.Value{v}
	}
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil
	}
	var out []reflect.Value
	for i := 0; i < v.Len(); i++ {
		if el := indirect(v.Index(i)); el.IsValid() && el.Kind() == reflect.Struct {
			out = append(out, el)
		}
	}
	return out
}

type field struct {
	name      string
	tag       string
	omitempty bool
	val       reflect.Value
}

// fieldsOf lists the exported, JSON-visible fields of a struct, embedded structs inlined.
func fieldsOf(rv reflect.Value) []field {
	plan := planOf(rv.Type())
	out := make([]field, 0, len(plan))
	for _, p := range plan {
		fv := rv.Field(p.index)
		if p.embedded {
			if inner := indirect(fv); inner.IsValid() {
				out = append(out, fieldsOf(inner)...)
			}
			continue
		}
		out = append(out, field{name: p.name, tag: p.tag, omitempty: p.omitempty, val: fv})
	}
	return out
}

// fieldPlan is what fieldsOf needs of one struct field, read from its tags once per type:
// a large result has millions of rows of a handful of types.
type fieldPlan struct {
	index     int
	name, tag string
	omitempty bool
	embedded  bool // an embedded struct whose fields are inlined
}

var plans sync.Map // reflect.Type -> []fieldPlan

func planOf(t reflect.Type) []fieldPlan {
	if p, ok := plans.Load(t); ok {
		return p.([]fieldPlan)
	}
	var plan []fieldPlan
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		jt := sf.Tag.Get("json")
		if jt == "-" || !sf.IsExported() && !sf.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(jt, ",")
		if sf.Anonymous && name == "" && indirectType(sf.Type).Kind() == reflect.Struct {
			plan = append(plan, fieldPlan{index: i, embedded: true})
			continue
		}
		if name == "" {
			name = sf.Name
		}
		plan = append(plan, fieldPlan{index: i, name: name, tag: sf.Tag.Get("record"), omitempty: strings.Contains(opts, "omitempty")})
	}
	plans.Store(t, plan)
	return plan
}

// Proser is a row whose prose field is written when it is rendered rather than kept in the
// result (a match's arithmetic steps): Prose gives the lines when the field itself is empty.
type Proser interface{ Prose() []string }

func appendField(fs []Field, key string, v reflect.Value, omitempty bool) []Field {
	if omitempty && v.IsZero() {
		return fs
	}
	v = indirect(v)
	if !v.IsValid() {
		return fs
	}
	if typ := valueType(v); typ != "" {
		return append(fs, Field{Key: key, Value: scalar(v), Type: typ})
	}
	switch v.Kind() {
	case reflect.Struct:
		for _, f := range fieldsOf(v) {
			if f.tag != "-" && !strings.HasPrefix(f.tag, "rows=") {
				fs = appendField(fs, key+"."+f.name, f.val, f.omitempty)
			}
		}
		return fs
	case reflect.Slice, reflect.Array:
		if isComposite(v.Type().Elem()) {
			return appendElements(fs, key, v)
		}
		return append(fs, Field{Key: key, Value: listValue(v), Type: "list"})
	case reflect.Map:
		b, _ := json.Marshal(v.Interface())
		return append(fs, Field{Key: key, Value: string(b), Type: "json"})
	}
	return fs
}

// Keyed is an element of a list that is written as a field of its own rather than inside one
// cell: RecordField gives the field's name within the list's parent and its value, so a
// list of SA108 boxes under sa108.boxes is written sa108.box24=30231|sa108.box25=...
type Keyed interface{ RecordField() (key, value string) }

var keyedType = reflect.TypeFor[Keyed]()

// isComposite reports whether a list's elements are structs (not scalars that marshal
// themselves), which are never embedded in a cell as JSON.
func isComposite(t reflect.Type) bool {
	if t.Implements(keyedType) {
		return true
	}
	if t.Implements(stringerType) {
		return false // written as its text (a source reference as file:line)
	}
	t = indirectType(t)
	return t.Kind() == reflect.Struct && !isScalarType(t) && t != decimalType && !t.Implements(typedType)
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

// appendElements writes a list of structs as fields: a Keyed element as the field it names
// beside the list (the list's own name dropped), any other element's fields under the list's
// name and the element's number from 1 (legs.1.amount=...).
func appendElements(fs []Field, key string, v reflect.Value) []Field {
	parent := ""
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		parent = key[:i+1]
	}
	for i := 0; i < v.Len(); i++ {
		el := v.Index(i)
		if k, ok := el.Interface().(Keyed); ok {
			name, value := k.RecordField()
			fs = append(fs, Field{Key: parent + name, Value: value, Type: "text"})
			continue
		}
		fs = appendField(fs, key+"."+strconv.Itoa(i+1), el, false)
	}
	return fs
}

// Typed is a scalar that names its own record field type ("money", "decimal", "date"): the
// domain's value types implement it, so the renderers know them without knowing the domain.
type Typed interface{ RecordType() string }

var typedType = reflect.TypeFor[Typed]()

// decimalType is shopspring's decimal, which results may hold directly.
var decimalType = reflect.TypeFor[decimal.Decimal]()

// valueType classifies scalar values; "" means the value is a composite.
func valueType(v reflect.Value) string {
	switch t := v.Type(); {
	case t.Implements(typedType):
		return v.Interface().(Typed).RecordType()
	case t == decimalType:
		return "decimal"
	}
	if _, ok := v.Interface().(json.Marshaler); ok {
		return "text"
	}
	switch v.Kind() {
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

// scalar renders a scalar the way it appears in the JSON output, without quotes.
func scalar(v reflect.Value) string {
	v = indirect(v)
	if !v.IsValid() {
		return ""
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if _, ok := v.Interface().(json.Marshaler); !ok {
			return strconv.FormatInt(v.Int(), 10)
		}
	}
	if s, ok := plainJSONString(v); ok {
		return s
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return string(b)
}

// plainJSONString is the common case of scalar for a value that marshals itself (money,
// decimals, dates): its JSON is a string with nothing escaped, whose text is what the slower
// path decodes. Anything else reports false.
func plainJSONString(v reflect.Value) (string, bool) {
	m, ok := v.Interface().(json.Marshaler)
	if !ok {
		return "", false
	}
	b, err := m.MarshalJSON()
	if err != nil || len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	body := b[1 : len(b)-1]
	for _, c := range body {
		if c == '"' || c == '\\' || c < 0x20 {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

func listValue(v reflect.Value) string {
	parts := make([]string, 0, v.Len())
	for i := 0; i < v.Len(); i++ {
		el := indirect(v.Index(i))
		if valueType(el) == "" {
			if st, ok := el.Interface().(fmt.Stringer); ok {
				parts = append(parts, st.String())
				continue
			}
			b, _ := json.Marshal(el.Interface())
			parts = append(parts, string(b))
			continue
		}
		parts = append(parts, scalar(el))
	}
	return strings.Join(parts, ListSeparator)
}

// sourceString renders a source: a Stringer, a string, or a struct with file and line.
func sourceString(v reflect.Value) string {
	v = indirect(v)
	if !v.IsValid() {
		return ""
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	if v.Kind() == reflect.String {
		return v.String()
	}
	if v.Kind() != reflect.Struct {
		return scalar(v)
	}
	var file, line, index string
	for _, f := range fieldsOf(v) {
		switch f.name {
		case "file":
			file = scalar(f.val)
		case "line":
			line = scalar(f.val)
		case "index":
			index = scalar(f.val)
		}
	}
	switch {
	case line != "" && line != "0":
		if file == "" {
			file = "input"
		}
		return file + ":" + line
	case index != "":
		if file == "" {
			file = "transactions"
		}
		return file + "[" + index + "]"
	}
	return file
}

func indirect(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

func indirectType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// ListSeparator joins the items of a list field.
const ListSeparator = "; "

// FieldNames lists, from a result type alone, the field keys its records can carry, in first
// appearance order: those of the types its RecordView can return first (ViewTyped), then its
// own. A list of structs numbers its elements' fields from 1; N stands for the number
// (sources.N.ticker). They are the names the fields argument takes (shell completion of
// --fields, the fields argument's schema).
func FieldNames(t reflect.Type) []string {
	n := fieldNamer{seen: map[string]bool{}}
	t = indirectType(t)
	if t.Implements(viewTypedType) {
		for _, vt := range reflect.Zero(t).Interface().(ViewTyped).RecordViewTypes() {
			n.top(indirectType(vt))
		}
	}
	n.top(t)
	return n.out
}

// ViewTyped is implemented by a Viewer that names the types its RecordView can return, so
// that FieldNames knows a result's field names from its type. It is asked of the type's zero
// value.
type ViewTyped interface{ RecordViewTypes() []reflect.Type }

var viewTypedType = reflect.TypeFor[ViewTyped]()

// KeyNamed is implemented by a Keyed list element that names every key RecordField can give,
// so that FieldNames lists them. It is asked of the type's zero value.
type KeyNamed interface{ RecordFieldNames() []string }

var keyNamedType = reflect.TypeFor[KeyNamed]()

// fieldNamer collects field names in first appearance order.
type fieldNamer struct {
	out  []string
	seen map[string]bool
}

// What a struct's fields are to FieldNames: a top-level result without a kind of its own
// has only rows; a row's tagged fields are its structure; a struct nested in a row has every
// field but "-" and rows as a value.
const (
	namesRowsOnly = iota
	namesRow
	namesNested
)

func (n *fieldNamer) add(k string) {
	if !n.seen[k] {
		n.seen[k] = true
		n.out = append(n.out, k)
	}
}

func (n *fieldNamer) top(t reflect.Type) {
	if topKind(t) != "" {
		n.collect(t, "", namesRow)
	} else {
		n.collect(t, "", namesRowsOnly)
	}
}

func (n *fieldNamer) collect(t reflect.Type, prefix string, mode int) {
	if t.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		tag := sf.Tag.Get("record")
		ft := indirectType(sf.Type)
		switch {
		case sf.Anonymous && name == "" && ft.Kind() == reflect.Struct && !isScalarType(ft):
			n.collect(ft, prefix, mode)
		case !sf.IsExported() || name == "-" || tag == "-":
		case strings.HasPrefix(tag, "rows="):
			if ft.Kind() == reflect.Slice {
				ft = indirectType(ft.Elem())
			}
			n.collect(ft, "", namesRow)
		case mode == namesRowsOnly || mode == namesRow && tag != "" && tag != "prose":
		case ft.Kind() == reflect.Struct && !isScalarType(ft):
			n.collect(ft, prefix+name+".", namesNested)
		case ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array:
			n.list(ft.Elem(), prefix, name)
		default:
			n.add(prefix + name)
		}
	}
}

// list adds the names of a list field: Keyed elements are fields beside the list, named by
// the element (sa108.box24); other composite elements' fields are numbered (N); a list of
// scalars is one field.
func (n *fieldNamer) list(el reflect.Type, prefix, name string) {
	switch {
	case el.Implements(keyNamedType):
		for _, k := range reflect.Zero(el).Interface().(KeyNamed).RecordFieldNames() {
			n.add(prefix + k)
		}
	case isComposite(el) && !el.Implements(keyedType):
		n.collect(indirectType(el), prefix+name+".N.", namesNested)
	default:
		n.add(prefix + name)
	}
}

// isScalarType reports whether a struct type renders as one JSON value (money, dates,
// decimals), so it is a field rather than a group of fields.
func isScalarType(t reflect.Type) bool {
	m := reflect.TypeFor[json.Marshaler]()
	return t.Implements(m) || reflect.PointerTo(t).Implements(m)
}
