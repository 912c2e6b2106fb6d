package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

type valMarshaler struct{ N int }

func (v valMarshaler) MarshalText() ([]byte, error) { return []byte("text<&>"), nil }

type embedded struct{ Inner string }

type leaf struct {
	A string  `json:"a"`
	B *int    `json:"b,omitempty"`
	C []int   `json:"c"`
	D []int   `json:"d,omitempty"`
	E float64 `json:"e,string"`
}

type branch struct {
	Name     string            `json:"name"`
	Skip     string            `json:"-"`
	hidden   string            //nolint:unused // unexported fields are never written
	Untagged int               //
	Leaves   []leaf            `json:"leaves"`
	Empty    []leaf            `json:"empty"`
	Nil      []leaf            `json:"nil"`
	Ptrs     []*leaf           `json:"ptrs"`
	Map      map[string]leaf   `json:"map"`
	Any      []any             `json:"any"`
	PM       ptrMarshaler      `json:"pm"`
	PMs      []ptrMarshaler    `json:"pms"`
	VM       valMarshaler      `json:"vm"`
	Zero     *branch           `json:"zero,omitempty"`
	Nested   *branch           `json:"nested,omitempty"`
	Money    model.Money       `json:"money"`
	Tags     map[string]string `json:"tags,omitempty"`
	Deep     [][]leaf          `json:"deep"`
}

type withEmbedded struct {
	embedded
	Z int `json:"z,omitzero"`
}

// wrapped embeds a pointer to a struct, as a command result that adds a method to the
// domain's report does; its fields are written in its place.
type wrapped struct {
	*branch
	note  string
	After string `json:"after,omitempty"`
}

type embeddedValue struct {
	leaf
	Name string `json:"name"`
}

// clash has two members named a: encoding/json keeps the shallower, this writer leaves the
// struct to encoding/json.
type clash struct {
	leaf
	A int `json:"a"`
}

// TestWriteIndentMatchesEncodingJSON pins the streaming writer to encoding/json's indented
// output byte for byte, across the shapes command results use.
func TestWriteIndentMatchesEncodingJSON(t *testing.T) {
	one := 1
	full := branch{
		Name: "<&> \u2028 \"q\"", Skip: "no", hidden: "no", Untagged: 7,
		Leaves: []leaf{{A: "x", B: &one, C: []int{1, 2}, D: []int{3}, E: 1.5}, {}},
		Empty:  []leaf{},
		Ptrs:   []*leaf{nil, {A: "p"}},
		Map:    map[string]leaf{"b": {A: "1"}, "a": {}},
		Any:    []any{1, "s", nil, leaf{A: "in any"}, map[string]any{"k": []int{}}},
		PMs:    []ptrMarshaler{{1}, {2}},
		Money:  model.MoneyFromString("1234.50"),
		Deep:   [][]leaf{{{A: "d"}}, nil, {}},
	}
	full.Nested = &branch{Name: "nested", Nested: &branch{Name: "deeper", Leaves: []leaf{{A: "deepest"}}}}
	cases := []struct {
		name string
		r    Result
	}{
		{"nil_data", Success(nil, nil)},
		{"string_data", Success("<&>", []string{"w1", "w2"})},
		{"strings", Success([]string{"a<b>&c", "\u2028 \u2029", "", "\"q\" \\ \t\x01"}, []string{"w\"1", "tab\t"})},
		{"nil_strings", Success(struct {
			S []string `json:"s"`
			T []string `json:"t,omitempty"`
		}{}, nil)},
		{"named_strings", Success(struct {
			Plain  []label     `json:"plain"`
			Shouts []shout     `json:"shouts"`
			List   shoutedList `json:"list"`
		}{[]label{"x<y"}, []shout{"hey"}, shoutedList{"a", "b"}}, nil)},
		{"struct", Success(full, nil)},
		{"pointer", Success(&full, []string{})},
		{"slice_of_structs", Success([]branch{full, {}}, nil)},
		{"empty_struct", Success(struct{}{}, nil)},
		{"embedded", Success(withEmbedded{embedded{"i"}, 0}, nil)},
		{"embedded_pointer", Success(wrapped{branch: &full, note: "n", After: "a"}, nil)},
		{"embedded_nil_pointer", Success(wrapped{After: "a"}, nil)},
		{"embedded_value", Success([]embeddedValue{{leaf{A: "x"}, "n"}}, nil)},
		{"embedded_clash", Success(clash{leaf{A: "x"}, 2}, nil)},
		{"map", Success(map[string]any{"z": 1, "a": []leaf{{}}}, nil)},
		{"failure", Failure(&model.Error{Code: model.CodeParse, Message: "m", Line: 3}, []string{"kept"})},
		{"plain_error", Failure(errors.New("boom"), nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := marshal(tc.r, "  ")
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := WriteIndent(&got, tc.r); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("streamed output differs\n--- got\n%s\n--- want\n%s", got.String(), want)
			}
			want, _ = marshal(tc.r, "")
			if got := MarshalCompact(tc.r); string(got) != string(want) {
				t.Errorf("compact output differs\n--- got\n%s\n--- want\n%s", got, want)
			}
		})
	}
}

// label is a string type that encodes as a string; shout and shoutedList encode themselves.
type (
	label       string
	shout       string
	shoutedList []string
)

func (s shout) MarshalJSON() ([]byte, error) { return json.Marshal(strings.ToUpper(string(s))) }

func (l shoutedList) MarshalJSON() ([]byte, error) { return json.Marshal(strings.Join(l, "+")) }

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("cannot encode") }

func TestWriteIndentStopsAtTheFirstError(t *testing.T) {
	var b bytes.Buffer
	err := WriteIndent(&b, Success([]any{1, failing{}, 3}, nil))
	if err == nil || !strings.Contains(err.Error(), "cannot encode") {
		t.Fatalf("got %v, want the marshaler's error", err)
	}
	if strings.Contains(b.String(), "3") {
		t.Errorf("kept writing after the error: %s", b.String())
	}
	out := string(MarshalIndent(Success([]any{failing{}}, []string{"w"})))
	if !strings.Contains(out, `"ok": false`) || !strings.Contains(out, `"internal_error"`) || !strings.Contains(out, `"w"`) {
		t.Errorf("MarshalIndent of an unencodable result should be a failure envelope: %s", out)
	}
}

type item struct {
	N    int    `json:"n"`
	Name string `json:"name,omitempty"`
}

type failAt struct{ N, Bad int }

func (f failAt) MarshalJSON() ([]byte, error) {
	if f.N == f.Bad {
		return nil, errors.New("element cannot be encoded")
	}
	return []byte(`{"n":` + strconv.Itoa(f.N) + `}`), nil
}

// Long arrays are encoded by several goroutines; the document must not change, and an
// element that fails must stop the output exactly where the one-by-one loop stops.
func TestWriteIndentLongArrays(t *testing.T) {
	const n = 1000
	type year struct {
		Items []item `json:"items"`
	}
	type pool struct { // walked field by field, of very different sizes, some with long arrays
		Ticker string `json:"ticker"`
		Events []item `json:"events"`
	}
	type doc struct {
		Years  []year         `json:"years"`
		Leaves []leaf         `json:"leaves"`
		Ptrs   []*leaf        `json:"ptrs"`
		PMs    []ptrMarshaler `json:"pms"`
		Pools  []pool         `json:"pools"`
	}
	var d doc
	for i := range 400 {
		p := pool{Ticker: "T" + strconv.Itoa(i)}
		for j := range (i * 37) % 700 {
			p.Events = append(p.Events, item{N: j})
		}
		d.Pools = append(d.Pools, p)
	}
	d.Years = make([]year, 3)
	for y := range d.Years {
		for i := range n + y*perChunk {
			d.Years[y].Items = append(d.Years[y].Items, item{N: i, Name: strings.Repeat("x", i%5)})
		}
	}
	for i := range n {
		d.Leaves = append(d.Leaves, leaf{A: strconv.Itoa(i), C: []int{i}})
		p := &leaf{A: "p"}
		if i%3 == 0 {
			p = nil
		}
		d.Ptrs = append(d.Ptrs, p)
		d.PMs = append(d.PMs, ptrMarshaler{i})
	}
	want, _ := marshal(Success(d, nil), "  ")
	var got bytes.Buffer
	if err := WriteIndent(&got, Success(d, nil)); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Fatalf("streamed output differs from encoding/json (%d vs %d bytes)", got.Len(), len(want))
	}
	if want, _ := marshal(Success(d, nil), ""); string(MarshalCompact(Success(d, nil))) != string(want) {
		t.Fatalf("compact output differs from encoding/json")
	}

	type wrap struct {
		F failAt `json:"f"`
	}
	type fyear struct {
		Items []wrap `json:"items"`
	}
	fails := struct {
		Years []fyear `json:"years"`
	}{Years: []fyear{{}}}
	for i := range n {
		fails.Years[0].Items = append(fails.Years[0].Items, wrap{failAt{N: i, Bad: 700}})
	}
	var one, many bytes.Buffer
	prev := runtime.GOMAXPROCS(1)
	err1 := WriteIndent(&one, Success(fails, nil))
	runtime.GOMAXPROCS(max(prev, 2))
	errN := WriteIndent(&many, Success(fails, nil))
	runtime.GOMAXPROCS(prev)
	if err1 == nil || errN == nil || err1.Error() != errN.Error() {
		t.Fatalf("errors: one by one %v, at once %v", err1, errN)
	}
	if one.String() != many.String() || !strings.Contains(one.String(), `"n": 699`) || strings.Contains(one.String(), `"n": 700`) {
		t.Errorf("partial outputs differ or stop in the wrong place:\n%s\n---\n%s", tail(one.String()), tail(many.String()))
	}

	// The first element of a walked array is encoded on its own, to size the chunks: an error
	// there stops the output as the loop does.
	for i := range fails.Years[0].Items {
		fails.Years[0].Items[i].F.Bad = 0
	}
	one.Reset()
	many.Reset()
	runtime.GOMAXPROCS(1)
	err1 = WriteIndent(&one, Success(fails, nil))
	runtime.GOMAXPROCS(max(prev, 2))
	errN = WriteIndent(&many, Success(fails, nil))
	runtime.GOMAXPROCS(prev)
	if err1 == nil || errN == nil || err1.Error() != errN.Error() || one.String() != many.String() {
		t.Errorf("a first element that fails: errors %v and %v, outputs\n%s\n---\n%s", err1, errN, tail(one.String()), tail(many.String()))
	}
}

func tail(s string) string { return s[max(0, len(s)-200):] }
