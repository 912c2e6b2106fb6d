package argcheck_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/registry"
	"github.com/cgt-tools/cgt/registry/argcheck"
)

// extraSchemas use the supported keywords the commands do not use yet, so that the
// differential test covers them before a command does.
var extraSchemas = map[string]string{
	"every_keyword": `{
		"type": "object",
		"required": ["code", "size"],
		"additionalProperties": false,
		"properties": {
			"code": {"type": "string", "enum": ["GBP", "USD", "EUR"]},
			"size": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5},
			"kind": {"const": "lot"},
			"level": {"type": ["integer", "null"], "minimum": -3, "maximum": 1e3},
			"tags": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "string", "maxLength": 4, "pattern": "^[0-9]+(\\.[0-9]+)?$"}},
			"mixed": {"anyOf": [{"type": "boolean"}, {"type": "integer", "minimum": 5}, {"enum": [1.5, "x", null]}]},
			"either": {"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 10}]},
			"meta": {"type": "object", "required": ["id"], "additionalProperties": {"type": "integer"}, "properties": {"id": {"type": "string", "minLength": 2}}},
			"when": {"type": "string", "format": "date"},
			"shape": {"enum": [[1, 2], {"a": 1}]},
			"nothing": false,
			"anything": true
		}
	}`,
}

type schemaCase struct {
	name string
	doc  []byte
}

func schemaCases(t testing.TB) []schemaCase {
	var out []schemaCase
	reg, err := commands.NewRegistry(&registry.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range reg.Commands() {
		b, err := json.Marshal(c.InputSchema())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, schemaCase{c.Meta().Name, b})
	}
	names := make([]string, 0, len(extraSchemas))
	for n := range extraSchemas {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, schemaCase{n, []byte(extraSchemas[n])})
	}
	return out
}

func decode(t testing.TB, b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

type pair struct {
	doc   map[string]any
	ours  *argcheck.Schema
	refer *jsonschema.Schema
}

func compilePair(t testing.TB, sc schemaCase) pair {
	doc := decode(t, sc.doc)
	ours, err := argcheck.Compile(doc)
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	ref, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.doc))
	if err != nil {
		t.Fatal(err)
	}
	url := "cgt:///" + sc.name + ".json"
	if err := c.AddResource(url, ref); err != nil {
		t.Fatal(err)
	}
	refer, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	m, _ := doc.(map[string]any)
	return pair{m, ours, refer}
}

var printer = message.NewPrinter(language.English)

// failures lists "location: message" for each failure, sorted, from either validator.
func ourFailures(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, f := range err.(*argcheck.Error).Failures {
		out = append(out, "/"+strings.Join(f.Location, "/")+": "+f.Message)
	}
	sort.Strings(out)
	return out
}

func referenceFailures(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			k := e.ErrorKind
			// The reference lists extra properties in map order; ours are sorted.
			if a, ok := k.(*kind.AdditionalProperties); ok {
				k = &kind.AdditionalProperties{Properties: slices.Sorted(slices.Values(a.Properties))}
			}
			out = append(out, "/"+strings.Join(e.InstanceLocation, "/")+": "+k.LocalizedString(printer))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(err.(*jsonschema.ValidationError))
	sort.Strings(out)
	return out
}

func agree(t *testing.T, name string, p pair, v any) {
	t.Helper()
	ours := ourFailures(p.ours.Validate(v))
	refer, ok := referenceOf(p, v)
	if !ok {
		return // the reference cannot read the value; argcheck answered without panicking
	}
	if !slices.Equal(ours, refer) {
		b, _ := json.Marshal(v)
		t.Errorf("%s: %s\n  argcheck:  %q\n  reference: %q", name, b, ours, refer)
	}
}

// referenceOf is the reference's failures for v, or false when it panics: it reads numbers
// through big.Rat.SetString, which refuses an exponent beyond a million ({"size":1e1000001}),
// and then dereferences the nil it got.
func referenceOf(p pair, v any) (failures []string, ok bool) {
	defer func() {
		if recover() != nil {
			failures, ok = nil, false
		}
	}()
	return referenceFailures(p.refer.Validate(v)), true
}

// TestAgreesWithReference generates argument objects for every command's input schema, valid
// and invalid in each way the schema can be broken, and requires the same failures from
// argcheck as from santhosh-tekuri/jsonschema.
func TestAgreesWithReference(t *testing.T) {
	const perSchema = 600
	for _, sc := range schemaCases(t) {
		p := compilePair(t, sc)
		r := rand.New(rand.NewSource(int64(len(sc.name))))
		valid := 0
		for i := 0; i < perSchema; i++ {
			v := generate(r, p.doc)
			if p.ours.Validate(v) == nil {
				valid++
			}
			agree(t, sc.name, p, v)
		}
		t.Logf("%s: %d of %d valid", sc.name, valid, perSchema)
		// Both outcomes must be well represented, or the generator has stopped exploring.
		if valid < perSchema/20 || valid > perSchema*19/20 {
			t.Errorf("%s: %d of %d generated objects valid", sc.name, valid, perSchema)
		}
	}
}

func FuzzAgreesWithReference(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	cases := schemaCases(f)
	for _, sc := range cases {
		doc, _ := decode(f, sc.doc).(map[string]any)
		for i := 0; i < 20; i++ {
			b, err := json.Marshal(generate(r, doc))
			if err == nil {
				f.Add(b)
			}
		}
	}
	pairs := make([]pair, len(cases))
	for i, sc := range cases {
		pairs[i] = compilePair(f, sc)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		for i, p := range pairs {
			agree(t, cases[i].name, p, v)
		}
	})
}

func TestCompileRejectsUnsupportedKeywords(t *testing.T) {
	for _, doc := range []string{
		`{"$ref": "#/$defs/x"}`,
		`{"allOf": [{"type": "string"}]}`,
		`{"not": {"type": "string"}}`,
		`{"properties": {"a": {"patternProperties": {"^x": true}}}}`,
		`{"items": {"uniqueItems": true}}`,
		`{"oneOf": [{"multipleOf": 2}]}`,
		`{"format": "email"}`,
		`{"if": true, "then": false}`,
		`{"prefixItems": [true]}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#"}`,
		`{"type": "whole"}`,
		`{"minLength": -1}`,
		`{"pattern": "("}`,
		`{"pattern": "^[A-Z]+$"}`,
	} {
		if _, err := argcheck.Compile(decode(t, []byte(doc))); err == nil {
			t.Errorf("%s compiled", doc)
		}
	}
}

func TestMessages(t *testing.T) {
	s, err := argcheck.Compile(decode(t, []byte(extraSchemas["every_keyword"])))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"code": "GBP", "size": 1, "level": 21010}`, "at /level: maximum: got 21,010, want 1,000"},
		{`{"code": "CHF", "size": 1}`, "at /code: value must be one of 'GBP', 'USD', 'EUR'"},
		{`{"size": 1}`, "at /: missing property 'code'"},
		{`{"code": "GBP", "size": 1, "when": "2024-02-30"}`, `at /when: '2024-02-30' is not valid date: parsing time "2024-02-30": day out of range`},
		{`{"code": "GBP", "size": 1, "tags": ["12345", "b"]}`, "at /tags/0: maxLength: got 5, want 4; at /tags/1: 'b' does not match pattern '^[0-9]+(\\\\.[0-9]+)?$'"},
		{`{"code": "GBP", "size": 1, "either": 3}`, "at /either: 'oneOf' failed, subschemas 0, 1 matched"},
		{`{"code": "GBP", "size": 1e30}`, "at /size: exclusiveMaximum: got 1\u202f×\u202f10³⁰, want 1.5"},
		{`{"code": "GBP", "size": 1e1000001}`, "at /size: 1e1000001 is beyond the numbers checked (powers of ten up to 1,000,000 either way)"},
		{`{"code": "GBP", "size": -1e-1000001}`, "at /size: -1e-1000001 is beyond the numbers checked (powers of ten up to 1,000,000 either way)"},
		{`{"code": "GBP", "size": 1, "level": 1e1000001}`, "at /level: 1e1000001 is beyond the numbers checked (powers of ten up to 1,000,000 either way)"},
	} {
		err := s.Validate(decode(t, []byte(tc.args)))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.args, err, tc.want)
		}
	}
}

// gen makes values for a schema. A clean gen aims for valid values; otherwise values are
// usually of the right shape, often subtly wrong (a bound, a length, a pattern, an enum) and
// sometimes of the wrong type altogether.
type gen struct {
	r     *rand.Rand
	clean bool
}

// generate makes an arguments object, clean half of the time.
func generate(r *rand.Rand, s map[string]any) any {
	g := gen{r: r, clean: r.Intn(2) == 0}
	return g.value(s, 0)
}

func (g gen) value(s map[string]any, depth int) any {
	r := g.r
	if s == nil || !g.clean && r.Intn(12) == 0 {
		return g.anyJSON(depth)
	}
	if e, ok := s["enum"].([]any); ok && (g.clean || r.Intn(4) > 0) {
		return e[r.Intn(len(e))]
	}
	if c, ok := s["const"]; ok && (g.clean || r.Intn(2) == 0) {
		return c
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := s[k].([]any); ok && (g.clean || r.Intn(5) > 0) {
			alt, _ := alts[r.Intn(len(alts))].(map[string]any)
			return g.value(alt, depth)
		}
	}
	typ := s["type"]
	if list, ok := typ.([]any); ok {
		typ = list[r.Intn(len(list))]
	}
	switch typ {
	case "object":
		return g.object(s, depth)
	case "array":
		return g.array(s, depth)
	case "string":
		return g.string(s)
	case "integer", "number":
		return g.number(s, typ == "integer")
	case "boolean":
		return r.Intn(2) == 0
	case "null":
		return nil
	}
	return g.anyJSON(depth)
}

func (g gen) object(s map[string]any, depth int) any {
	r := g.r
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, n := range req {
			required[n.(string)] = true
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]any{}
	for _, n := range names {
		keep := r.Intn(3) == 0
		if required[n] {
			keep = g.clean || r.Intn(25) > 0
		}
		if b, ok := props[n].(bool); ok && !b && g.clean {
			keep = false
		}
		if keep {
			p, _ := props[n].(map[string]any)
			if b, ok := props[n].(bool); ok && b {
				p = map[string]any{}
			}
			out[n] = g.value(p, depth+1)
		}
	}
	if !g.clean && r.Intn(20) == 0 {
		out[[]string{"colour", "extra", "Year", "ticker "}[r.Intn(4)]] = g.anyJSON(depth + 1)
	}
	return out
}

func (g gen) array(s map[string]any, depth int) any {
	r := g.r
	lo, hi := 0, 2
	if m, ok := count(s["minItems"]); ok {
		lo = m
		if !g.clean {
			lo = max(0, m-1)
		}
	}
	if m, ok := count(s["maxItems"]); ok {
		hi = m
		if !g.clean {
			hi = m + 1
		}
	}
	n := lo + r.Intn(max(1, hi-lo+1))
	items, _ := s["items"].(map[string]any)
	out := make([]any, n)
	for i := range out {
		if depth > 3 {
			out[i] = "x"
			continue
		}
		out[i] = g.value(items, depth+1)
	}
	return out
}

var (
	goodDates = []string{"2024-04-05", "2024-02-29", "2000-01-01"}
	badDates  = []string{"2023-02-29", "2024-13-01", "2024-4-05", "05/04/2024", "2024-04-05T00:00:00Z", "", "20240405", "2024-00-10"}
	decimals  = []string{"0", "1250.00", "12.5", "00012"}
	bad       = []string{"-1.00", "1.", ".5", "abc", "", "1250.001x", "1 250", "1e3", "١٢٣"}
	words     = []string{"", "A", "US", "USD", "usd", "GBPX", "€€€", "é", "AAPL", "VOD.L", "2024", "2024/25", "true", "x\ny", `"q"`, "it's"}
)

func (g gen) string(s map[string]any) any {
	r := g.r
	if s["format"] == "date" && (g.clean || r.Intn(5) > 0) {
		if g.clean || r.Intn(2) == 0 {
			return goodDates[r.Intn(len(goodDates))]
		}
		return badDates[r.Intn(len(badDates))]
	}
	if _, ok := s["pattern"]; ok && (g.clean || r.Intn(5) > 0) {
		if g.clean || r.Intn(2) == 0 {
			return decimals[r.Intn(len(decimals))]
		}
		return bad[r.Intn(len(bad))]
	}
	if !g.clean {
		return words[r.Intn(len(words))]
	}
	lo, hi := 0, 8
	if m, ok := count(s["minLength"]); ok {
		lo = m
	}
	if m, ok := count(s["maxLength"]); ok {
		hi = m
	}
	for {
		w := words[r.Intn(len(words))]
		if n := len([]rune(w)); n >= lo && n <= hi {
			return w
		}
	}
}

func (g gen) number(s map[string]any, integer bool) any {
	r := g.r
	if g.clean {
		lo, hi := -500.0, 2500.0
		if f, ok := number(s["minimum"]); ok {
			lo = f
		}
		if f, ok := number(s["maximum"]); ok {
			hi = f
		}
		if f, ok := number(s["exclusiveMinimum"]); ok {
			lo = f + 0.25
		}
		if f, ok := number(s["exclusiveMaximum"]); ok {
			hi = f - 0.25
		}
		f := lo + r.Float64()*(hi-lo)
		if integer {
			return json.Number(fmt.Sprint(int64(lo) + r.Int63n(int64(hi-lo)+1)))
		}
		return json.Number(fmt.Sprint(f))
	}
	var anchors []float64
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if f, ok := number(s[k]); ok {
			anchors = append(anchors, f-1, f, f+1, f-0.5, f+0.5)
		}
	}
	f := float64(r.Intn(3000) - 500)
	if len(anchors) > 0 && r.Intn(3) > 0 {
		f = anchors[r.Intn(len(anchors))]
	}
	if integer && r.Intn(4) > 0 {
		f = float64(int64(f))
	}
	switch r.Intn(10) {
	case 0:
		return f
	case 1:
		return int(f)
	case 2:
		return json.Number(fmt.Sprintf("%.1f", f))
	case 3:
		return json.Number([]string{"1e3", "2.1e3", "-0", "1e400", "12345678901234567890", "0.1", "1E-7"}[r.Intn(7)])
	}
	return json.Number(fmt.Sprint(f))
}

func (g gen) anyJSON(depth int) any {
	r := g.r
	n := 9
	if depth > 3 {
		n = 6
	}
	switch r.Intn(n) {
	case 0:
		return nil
	case 1:
		return r.Intn(2) == 0
	case 2:
		return json.Number(fmt.Sprint(r.Intn(5000) - 100))
	case 3:
		return r.Float64() * 100
	case 4, 5:
		return words[r.Intn(len(words))]
	case 6:
		return []any{g.anyJSON(depth + 1), g.anyJSON(depth + 1)}
	case 7:
		return map[string]any{"a": g.anyJSON(depth + 1)}
	}
	return map[string]any{}
}

func count(v any) (int, bool) {
	f, ok := number(v)
	return int(f), ok
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}
