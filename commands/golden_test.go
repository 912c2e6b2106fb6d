package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/internal/golden"
	"github.com/cgt-tools/cgt/internal/ledgergen"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// Each command's golden cases sit in testdata/<command>/: <case>.args.json holds the JSON
// arguments and <case>.golden.json the whole envelope the command answers with. A new case is
// a new args file; UPDATE_GOLDEN=1 go test ./commands writes its golden.
func testRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := NewRegistry(&registry.Deps{ReadFile: os.ReadFile, ReadDir: registry.OSReadDir})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestGoldenEnvelopes(t *testing.T) {
	reg := testRegistry(t)
	cases, err := filepath.Glob(filepath.Join("testdata", "*", "*.args.json"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases under testdata/*/ (%v)", err)
	}
	used := map[string]bool{}
	for _, argsPath := range cases {
		command := filepath.Base(filepath.Dir(argsPath))
		name := strings.TrimSuffix(filepath.Base(argsPath), ".args.json")
		goldenPath := filepath.Join("testdata", command, name+".golden.json")
		used[filepath.ToSlash(goldenPath)] = true
		t.Run(command+"/"+name, func(t *testing.T) {
			if _, ok := reg.Lookup(command); !ok {
				t.Fatalf("%s: no command %q (the folder under testdata names the command)", argsPath, command)
			}
			args, err := os.ReadFile(argsPath)
			if err != nil {
				t.Fatal(err)
			}
			res := reg.Execute(context.Background(), command, json.RawMessage(args))
			got := envelope.MarshalIndent(res)
			checkOutputSchema(t, reg, command, got)
			checkFieldNames(t, reg, command, res)
			checkShapes(t, res)
			golden.Check(t, goldenPath, got)
		})
	}
	golden.Orphans(t, "testdata", ".golden.json", used)
}

// checkFieldNames checks that every field of the result's records is one the fields
// argument's schema names (records.FieldNames of the result type).
func checkFieldNames(t *testing.T, reg *registry.Registry, name string, res envelope.Result) {
	t.Helper()
	if !res.OK {
		return
	}
	cmd, _ := reg.Lookup(name)
	known := map[string]bool{}
	for _, k := range records.FieldNames(cmd.ResultType()) {
		known[k] = true
	}
	for r := range records.Of(res.Data) {
		for _, f := range r.Fields {
			if k := numbered.ReplaceAllString(f.Key, ".N."); !known[k] {
				t.Errorf("%s: a %s record has the field %s, which records.FieldNames does not list", name, r.Kind, f.Key)
				known[k] = true
			}
		}
	}
}

// checkShapes checks that records.Stream gives the result's records as records.Of does, and
// that records.Shapes does field for field, with only values written from a value left out:
// the dense formats are written from the first and the schema format's columns and the
// --fields check read from the second.
func checkShapes(t *testing.T, res envelope.Result) {
	t.Helper()
	if !res.OK {
		return
	}
	var want []records.Record
	for r := range records.Of(res.Data) {
		want = append(want, r)
	}
	i := 0
	for got := range records.Stream(res.Data) {
		if i >= len(want) {
			t.Fatalf("Stream gives more records than Of (%d)", len(want))
		}
		w := want[i]
		if got.Entity != w.Entity || got.Kind != w.Kind || got.Period != w.Period || got.Timestamp != w.Timestamp || got.Source != w.Source || got.Depth != w.Depth || !slices.Equal(got.Fields, w.Fields) {
			t.Fatalf("record %d: Stream gives %+v, Of %+v", i, got, w)
		}
		i++
	}
	if i != len(want) {
		t.Fatalf("Stream gives %d records, Of %d", i, len(want))
	}
	i = 0
	for got := range records.Shapes(res.Data) {
		if i >= len(want) {
			t.Fatalf("Shapes gives more records than Of (%d)", len(want))
		}
		w := want[i]
		if got.Entity != w.Entity || got.Kind != w.Kind || got.Period != w.Period || got.Timestamp != w.Timestamp || got.Source != w.Source || got.Depth != w.Depth {
			t.Fatalf("record %d: Shapes gives %s|%s|%s|%s|%s depth %d, Of %s|%s|%s|%s|%s depth %d", i,
				got.Entity, got.Kind, got.Period, got.Timestamp, got.Source, got.Depth, w.Entity, w.Kind, w.Period, w.Timestamp, w.Source, w.Depth)
		}
		if len(got.Fields) != len(w.Fields) {
			t.Fatalf("record %d (%s): Shapes gives %d fields, Of %d", i, w.Kind, len(got.Fields), len(w.Fields))
		}
		for j, f := range got.Fields {
			if wf := w.Fields[j]; f.Key != wf.Key || f.Type != wf.Type || f.Value != "" && f.Value != wf.Value {
				t.Fatalf("record %d (%s) field %d: Shapes gives %+v, Of %+v", i, w.Kind, j, f, wf)
			}
		}
		i++
	}
	if i != len(want) {
		t.Fatalf("Shapes gives %d records, Of %d", i, len(want))
	}
	checkShapeCounts(t, res, want)
}

// checkShapeCounts checks that records.ShapeCounts gives as many records of each shape (kind,
// structural parts set, field names and types) as Of has, each shape first met in the same
// order: the schema format's columns are counted from it.
func checkShapeCounts(t *testing.T, res envelope.Result, want []records.Record) {
	t.Helper()
	shape := func(r records.Record) string {
		k := fmt.Sprintf("%s|%t|%t|%t", r.Kind, r.Period != "", r.Timestamp != "", r.Source != "")
		for _, f := range r.Fields {
			k += "|" + f.Key + ":" + f.Type
		}
		return k
	}
	tally := func(seq func(yield func(records.Record, int) bool)) (map[string]int, []string) {
		n, order := map[string]int{}, []string(nil)
		for r, c := range seq {
			k := shape(r)
			if n[k] == 0 {
				order = append(order, k)
			}
			n[k] += c
		}
		return n, order
	}
	gotN, gotOrder := tally(records.ShapeCounts(res.Data))
	wantN, wantOrder := tally(func(yield func(records.Record, int) bool) {
		for _, r := range want {
			if !yield(r, 1) {
				return
			}
		}
	})
	if !maps.Equal(gotN, wantN) || !slices.Equal(gotOrder, wantOrder) {
		t.Fatalf("ShapeCounts gives %v in the order %q; Of has %v in the order %q", gotN, gotOrder, wantN, wantOrder)
	}
}

// TestShapesOfALargeReport checks Shapes on a report long enough for its rows to be derived
// by several workers at once, with every pool's history.
func TestShapesOfALargeReport(t *testing.T) {
	var src bytes.Buffer
	if err := ledgergen.Write(&src, ledgergen.Options{Lines: 6000, Tickers: 40, USDPercent: 10, Events: true, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ledger.cgt")
	if err := os.WriteFile(path, src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := testRegistry(t)
	for _, detail := range []string{"disposals", "full"} {
		res := execArgs(reg, "report.calculate", map[string]any{"files": []string{path}, "detail": detail})
		if !res.OK {
			t.Fatal(res.Error)
		}
		checkShapes(t, res)
	}
}

// numbered is the number of a list's element in a field name (sources.2.ticker).
var numbered = regexp.MustCompile(`\.[0-9]+\.`)

// checkOutputSchema validates an envelope against the command's published output schema.
func checkOutputSchema(t *testing.T, reg *registry.Registry, name string, out []byte) {
	t.Helper()
	cmd, _ := reg.Lookup(name)
	schema, _ := json.Marshal(registry.OutputSchema(cmd))
	c := jsonschema.NewCompiler()
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err := c.AddResource("out.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("out.json")
	if err != nil {
		t.Fatalf("output schema of %s does not compile: %v", name, err)
	}
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err := s.Validate(inst); err != nil {
		t.Errorf("output of %s does not match its published schema: %v", name, err)
	}
}

// TestEveryCommandHasGoldenCases guards the checklist: a command with no golden case would
// pass every golden test silently, so each registered command must have at least one
// testdata/<command>/<case>.args.json.
func TestEveryCommandHasGoldenCases(t *testing.T) {
	for _, c := range testRegistry(t).Commands() {
		name := c.Meta().Name
		cases, _ := filepath.Glob(filepath.Join("testdata", name, "*.args.json"))
		if len(cases) == 0 {
			t.Errorf("%s has no golden case: add testdata/%s/<case>.args.json (the JSON arguments) and run UPDATE_GOLDEN=1 go test ./commands", name, name)
		}
	}
}
