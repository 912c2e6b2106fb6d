package jsoncodec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The tests hold every function to encoding/json: the same values, bytes and error texts.

type custom struct{ raw string }

func (c *custom) UnmarshalJSON(b []byte) error {
	if string(b) == `"fail"` {
		return errors.New("custom failed")
	}
	c.raw = string(b)
	return nil
}
func (c custom) MarshalJSON() ([]byte, error) {
	if c.raw == "" {
		return []byte(`{ "empty" : [ 1 , "<&>" ] }`), nil
	}
	if c.raw == `"badout"` {
		return []byte(`{"x":`), nil
	}
	return []byte(c.raw), nil
}

type zeroer struct{ n int }

func (z zeroer) IsZero() bool { return z.n == 1 }

type ptrZeroer struct{ n int }

func (z *ptrZeroer) IsZero() bool { return z.n == 2 }

type options struct {
	I int         `json:"i,string"`
	B bool        `json:"b,string,omitempty"`
	S string      `json:"s,string"`
	F float64     `json:"f,string"`
	N json.Number `json:"n,string"`
	P *int        `json:"p,string"`
	//lint:ignore SA5008 ",string" on a slice, which encoding/json ignores; the codec must too.
	L  []int     `json:"l,string,omitzero"`
	Z  zeroer    `json:"z,omitzero"`
	PZ *zeroer   `json:"pz,omitzero"`
	Q  ptrZeroer `json:"q,omitzero"`
	T  time.Time `json:"t,omitzero"`
	IZ any       `json:"iz,omitzero"`
	A  [2]int    `json:"a,omitzero"`
}

type ptrOnly struct{ N int }

func (p *ptrOnly) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprint(p.N * 2)), nil }

type Inner struct {
	A   int    `json:"a"`
	B   string `json:",omitempty"`
	C   *int   `json:"c,omitempty"`
	Dup int
}

type Other struct {
	Dup  int
	Deep float64 `json:"deep"`
}

type inner2 struct {
	Hidden string `json:"hidden"`
}

type sample struct {
	S      string           `json:"s"`
	I      int              `json:"i,omitempty"`
	I8     int8             `json:"i8"`
	U16    uint16           `json:"u16"`
	F32    float32          `json:"f32"`
	F64    float64          `json:"f64,omitempty"`
	B      bool             `json:"b"`
	P      *string          `json:"p"`
	PP     **int            `json:"pp"`
	L      []int            `json:"l"`
	A      [2]string        `json:"a"`
	M      map[string]int   `json:"m,omitempty"`
	MI     map[int]string   `json:"mi"`
	N      json.Number      `json:"n"`
	R      json.RawMessage  `json:"r"`
	X      any              `json:"x"`
	C      custom           `json:"c"`
	CP     *custom          `json:"cp"`
	PO     ptrOnly          `json:"po"`
	Time   time.Time        `json:"time"`
	Nested []map[string]any `json:"nested"`
	Skip   string           `json:"-"`
	//lint:ignore SA5008 a member named "-", as encoding/json reads this tag.
	Dash string `json:"-,"`
	Odd  string `json:"odd name!"`
	//lint:ignore SA5008 a name encoding/json finds invalid, so the field keeps its Go name.
	Bad string `json:"bad\"name"`
	//lint:ignore U1000 an unexported field, which neither codec reads or writes.
	low   string
	Iface fmt.Stringer      `json:"iface"`
	Arr   []Inner           `json:"arr"`
	MP    map[string]*Inner `json:"mp"`
	Inner
	*Other
	inner2
}

func decodeBoth(t *testing.T, data []byte, useNumber bool, stream bool, newV func() any) {
	t.Helper()
	want, got := newV(), newV()
	var werr, gerr error
	if stream {
		wd := json.NewDecoder(bytes.NewReader(data))
		gd := NewDecoder(bytes.NewReader(data))
		if useNumber {
			wd.UseNumber()
			gd.UseNumber()
		}
		werr, gerr = wd.Decode(want), gd.Decode(got)
		if werr == nil && wd.InputOffset() != gd.InputOffset() {
			t.Fatalf("%q: offset %d, encoding/json %d", data, gd.InputOffset(), wd.InputOffset())
		}
	} else {
		werr, gerr = json.Unmarshal(data, want), Unmarshal(data, got)
	}
	sameError(t, data, gerr, werr)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %#v\nwant %#v", data, got, want)
	}
}

func sameError(t *testing.T, data []byte, got, want error) {
	t.Helper()
	if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
		t.Fatalf("%q: error %v, encoding/json %v", data, got, want)
	}
	var ws *json.SyntaxError
	var gs *SyntaxError
	if errors.As(want, &ws) != errors.As(got, &gs) || ws != nil && ws.Offset != gs.Offset {
		t.Fatalf("%q: syntax error %#v, encoding/json %#v", data, gs, ws)
	}
	var wt, gt *json.UnmarshalTypeError
	if errors.As(want, &wt) && errors.As(got, &gt) && (*wt != *gt) {
		t.Fatalf("%q: type error %#v, encoding/json %#v", data, gt, wt)
	}
	if (want == io.EOF) != (got == io.EOF) || (want == io.ErrUnexpectedEOF) != (got == io.ErrUnexpectedEOF) {
		t.Fatalf("%q: error %v, encoding/json %v", data, got, want)
	}
}

func encodeBoth(t *testing.T, v any) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, gerr := Marshal(v)
	sameError(t, nil, gerr, werr)
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal(%#v):\n got %s\nwant %s", v, got, want)
	}
	for _, html := range []bool{false, true} {
		for _, ind := range [][2]string{{"", ""}, {"", "  "}, {"> ", "\t"}} {
			var wb, gb bytes.Buffer
			we, ge := json.NewEncoder(&wb), NewEncoder(&gb)
			we.SetEscapeHTML(html)
			ge.SetEscapeHTML(html)
			we.SetIndent(ind[0], ind[1])
			ge.SetIndent(ind[0], ind[1])
			sameError(t, nil, ge.Encode(v), we.Encode(v))
			if gb.String() != wb.String() {
				t.Fatalf("Encode(%#v) html=%v indent=%q:\n got %s\nwant %s", v, html, ind, gb.String(), wb.String())
			}
		}
	}
}

var seeds = []string{
	``, ` `, `null`, `true`, `false`, `0`, `-0`, `1.5e-7`, `1e400`, `-`, `1.`, `1e`, `1e+`, `01`, `tru`, `nul`, `fals`,
	`"`, `"\`, `"\u12`, `"\uD83D\uDE00"`, `"\uD83D"`, `"\uDE00x"`, "\"\xff\"", `"a\/b\"c"`, "\"\x01\"",
	`[]`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{,}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{1:2}`,
	`{"s":"x","i":3,"i8":300,"u16":-1,"f32":1e39,"b":"no","p":"q","pp":5,"l":[1,2,3],"a":["x","y","z"]}`,
	`{"m":{"a":1},"mi":{"1":"x","y":"z"},"mt":{"k":true,"bad":false},"n":"12","r":{"any": [1, 2]},"x":{"y":[1.5,"s",null]}}`,
	`{"t":"tx","c":"fail","cp":{"q":1},"po":{"N":3},"time":"2024-01-02T03:04:05Z","bytes":"aGk="}`,
	`{"nested":[{"a":1},{"b":[true]}],"-":"d","odd name!":"o","bad\"name":"b","low":"l","S":"folded","A":7}`,
	`{"arr":[{"a":1,"Dup":2,"deep":3}],"mp":{"k":{"a":2}},"Dup":5,"deep":1.25,"hidden":"h","iface":"s"}`,
	`{"a":"str","c":null,"p":null,"l":null,"x":1,"x":"again"}`, `{"n":"nan"}`, `{"n":1e2}`, `{"t":5}`, `{"t":null}`,
	`[1] 2`, `{"a":1} x`, `123 `, ` "x"`, `[[[[[]]]]]`, `{"i":1.0}`, `{"mi":{"99999999999999999999":"x"}}`,
}

func FuzzUnmarshalAsEncodingJSON(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, stream := range []bool{false, true} {
			decodeBoth(t, data, false, stream, func() any { return new(any) })
			decodeBoth(t, data, true, stream, func() any { return new(any) })
			decodeBoth(t, data, false, stream, func() any { return new(sample) })
			decodeBoth(t, data, true, stream, func() any { return &[]sample{} })
			decodeBoth(t, data, false, stream, func() any { return new(map[string]json.RawMessage) })
			decodeBoth(t, data, false, stream, func() any { return new([]json.RawMessage) })
			decodeBoth(t, data, false, stream, func() any { return new(string) })
			decodeBoth(t, data, false, stream, func() any { return new(int) })
		}
	})
}

func FuzzMarshalAsEncodingJSON(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var x any
		if json.Unmarshal(data, &x) == nil {
			encodeBoth(t, x)
		}
		var s sample
		if json.Unmarshal(data, &s) == nil {
			encodeBoth(t, s)
			encodeBoth(t, &s)
			encodeBoth(t, []any{s, &s.Inner, s.Other})
		}
		encodeBoth(t, string(data))
		encodeBoth(t, json.RawMessage(data))
		encodeBoth(t, custom{string(data)})
		encodeBoth(t, data)
	})
}

// FuzzTokensAsEncodingJSON reads a stream by tokens, as the importers read a document's keys,
// with values decoded whole where the byte says so.
func FuzzTokensAsEncodingJSON(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(0x5555))
	}
	f.Fuzz(func(t *testing.T, data []byte, decodeAt uint16) {
		wd, gd := json.NewDecoder(bytes.NewReader(data)), NewDecoder(bytes.NewReader(data))
		for i := 0; i < 64; i++ {
			if wm, gm := wd.More(), gd.More(); wm != gm {
				t.Fatalf("%q: More %v, encoding/json %v", data, gm, wm)
			}
			var wt, gt any
			var werr, gerr error
			if decodeAt>>(i%16)&1 == 1 {
				var wr, gr json.RawMessage
				werr, gerr = wd.Decode(&wr), gd.Decode(&gr)
				wt, gt = string(wr), string(gr)
			} else {
				wt, werr = wd.Token()
				gt, gerr = gd.Token()
			}
			sameError(t, data, gerr, werr)
			if !reflect.DeepEqual(gt, wt) || gd.InputOffset() != wd.InputOffset() {
				t.Fatalf("%q: token %d %#v at %d, encoding/json %#v at %d", data, i, gt, gd.InputOffset(), wt, wd.InputOffset())
			}
			if werr != nil {
				return
			}
		}
	})
}

// TestBase64IntoBytesRefused: the codec says it does not decode base64 rather than decode
// it differently (no value cgt decodes holds a []byte).
func TestBase64IntoBytesRefused(t *testing.T) {
	var v struct{ B []byte }
	err := Unmarshal([]byte(`{"B":"aGk="}`), &v)
	if err == nil || !strings.Contains(err.Error(), "base64") {
		t.Fatalf("got %v, want an error that names base64", err)
	}
}

func TestSeedsAgree(t *testing.T) {
	for _, s := range seeds {
		for _, stream := range []bool{false, true} {
			decodeBoth(t, []byte(s), false, stream, func() any { return new(any) })
			decodeBoth(t, []byte(s), false, stream, func() any { return new(sample) })
		}
	}
}

func TestEncodeValuesAgree(t *testing.T) {
	n := 7
	pn := &n
	str := "<p>"
	values := []any{
		nil, 0, -3, uint8(200), 1.0, 1e21, 1e-7, 123456789.125, float32(3.4e38), float32(1e-7), math.Copysign(0, -1),
		"a<b>&c\u2028\u2029\xff\x00\t\"\\", json.Number("1.5"), json.Number(""), json.Number("x"),
		[]int(nil), []int{}, [0]int{}, [3]bool{true}, map[string]int(nil), map[string]int{"b": 1, "a": 2, "<": 3},
		map[int]bool{10: true, 9: false, -1: true}, map[bool]int{true: 1}, map[uint8]string{200: "x"},
		sample{P: &str, PP: &pn, Other: &Other{Dup: 1}, X: []any{1, "x", nil}}, &sample{}, make(chan int),
		struct{ F func() }{}, struct{ F func() }{F: func() {}}, []byte("hi there"), []byte{}, [2]byte{1, 2},
		map[string]any{"f": 1.5, "n": nil, "m": map[string]any{}}, custom{`"badout"`}, custom{}, &custom{},
		ptrOnly{2}, &ptrOnly{3}, []ptrOnly{{4}}, struct{ P ptrOnly }{ptrOnly{5}}, &struct{ P ptrOnly }{ptrOnly{6}},
		time.Date(2024, 3, 4, 5, 6, 7, 8, time.UTC), options{}, &options{
			I: 1, B: true, S: `<"s">`, F: 1.5e-9, N: "7", P: &n, Z: zeroer{1}, PZ: &zeroer{2}, T: time.Unix(1, 0), IZ: zeroer{0}},
		[]options{{IZ: &zeroer{}}, {IZ: (*zeroer)(nil)}, {PZ: &zeroer{}}, {S: "\u2028"}},
	}
	for _, v := range values {
		t.Run(fmt.Sprintf("%T", v), func(t *testing.T) {
			want, werr := json.Marshal(v)
			got, gerr := Marshal(v)
			sameError(t, nil, gerr, werr)
			if !bytes.Equal(got, want) {
				t.Fatalf("got %s, want %s", got, want)
			}
			encodeBoth(t, v)
		})
	}
}
