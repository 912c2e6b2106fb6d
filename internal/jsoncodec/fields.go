package jsoncodec

import (
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/internal/jsontext"
	"github.com/cgt-tools/cgt/internal/order"
)

// field is one JSON member of a struct type: its name, the path of field indexes to it
// through embedded structs, and how it is written.
type field struct {
	name      string
	index     []int
	tagged    bool
	omitEmpty bool
	omitZero  bool
	// quoted is the ",string" option on a bool, number or string field: its value is
	// written inside a JSON string.
	quoted   bool
	keyPlain string // `"name":`
	keyHTML  string // the same with <, > and & escaped
	typ      reflect.Type
	methods  methods // the field type's MarshalJSON, looked up once
}

type structInfo struct {
	fields []field
	exact  map[string]int
	folded map[string]int
}

var structCache sync.Map // reflect.Type -> *structInfo

func structOf(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	fields := visibleFields(t)
	for i := range fields {
		fields[i].methods = methodsOf(fields[i].typ)
	}
	si := &structInfo{fields: fields, exact: make(map[string]int, len(fields)), folded: make(map[string]int, len(fields))}
	for i, f := range fields {
		si.exact[f.name] = i
		if k := string(foldName([]byte(f.name))); !has(si.folded, k) {
			si.folded[k] = i
		}
	}
	structCache.Store(t, si)
	return si
}

func has(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// lookup finds the field a member's key names: exactly, else ignoring case.
func (si *structInfo) lookup(key []byte) *field {
	i, ok := si.exact[string(key)]
	if !ok {
		i, ok = si.folded[string(foldName(key))]
	}
	if !ok {
		return nil
	}
	return &si.fields[i]
}

// visibleFields lists the members encoding/json gives a struct type, in field order: exported
// fields and those promoted from embedded structs, where among fields of one name the
// shallowest wins, then the only tagged one at that depth, and otherwise none does.
func visibleFields(t reflect.Type) []field {
	type embedded struct {
		typ   reflect.Type
		index []int
	}
	var all []field
	seen := map[reflect.Type]bool{}
	level, times := []embedded{{typ: t}}, map[reflect.Type]int{}
	for len(level) > 0 {
		var next []embedded
		nextTimes := map[reflect.Type]int{}
		for _, e := range level {
			if seen[e.typ] {
				continue
			}
			seen[e.typ] = true
			for i := 0; i < e.typ.NumField(); i++ {
				sf := e.typ.Field(i)
				f, nested, ok := fieldOf(sf, append(e.index[:len(e.index):len(e.index)], i))
				switch {
				case !ok:
				case nested != nil:
					// Fields of a struct embedded more than once at one depth collide and vanish.
					if nextTimes[nested]++; nextTimes[nested] == 1 {
						next = append(next, embedded{nested, f.index})
					}
				default:
					all = append(all, f)
					if times[e.typ] > 1 {
						all = append(all, f)
					}
				}
			}
		}
		level, times = next, nextTimes
	}
	order.Hot(all, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if len(a.index) != len(b.index) {
			return len(a.index) - len(b.index)
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return compareIndex(a.index, b.index)
	})
	out := all[:0]
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		if j-i == 1 || len(all[i].index) != len(all[i+1].index) || all[i].tagged != all[i+1].tagged {
			out = append(out, all[i])
		}
		i = j
	}
	order.Hot(out, func(a, b field) int { return compareIndex(a.index, b.index) })
	return out
}

// fieldOf reads one struct field: a member (ok, nested nil), an untagged embedded struct whose
// fields are promoted (nested is its type), or nothing (not ok).
func fieldOf(sf reflect.StructField, index []int) (f field, nested reflect.Type, ok bool) {
	if sf.Anonymous {
		t := sf.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if !sf.IsExported() && t.Kind() != reflect.Struct {
			return f, nil, false
		}
	} else if !sf.IsExported() {
		return f, nil, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return f, nil, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if !validName(name) {
		name = ""
	}
	ft := sf.Type
	if ft.Name() == "" && ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	f = field{name: name, index: index, tagged: name != "", typ: sf.Type}
	if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
		return f, ft, true
	}
	if name == "" {
		f.name = sf.Name
	}
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		f.omitEmpty = f.omitEmpty || o == "omitempty"
		f.omitZero = f.omitZero || o == "omitzero"
		f.quoted = f.quoted || o == "string" && quotable(ft.Kind())
	}
	f.keyPlain = string(jsontext.AppendString(nil, f.name, false)) + ":"
	f.keyHTML = string(jsontext.AppendString(nil, f.name, true)) + ":"
	return f, nil, true
}

func quotable(k reflect.Kind) bool {
	return k == reflect.Bool || k >= reflect.Int && k <= reflect.Float64 || k == reflect.String
}

func compareIndex(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return len(a) - len(b)
}

// validName reports whether a tag's name is used: letters, digits and the punctuation
// encoding/json allows.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// foldName maps a name to a key equal for every name that matches it ignoring case (ASCII
// upper-cased, other runes to their smallest simple case fold), as encoding/json matches keys.
func foldName(in []byte) []byte {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		for {
			f := unicode.SimpleFold(r)
			if f <= r {
				r = f
				break
			}
			r = f
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}
