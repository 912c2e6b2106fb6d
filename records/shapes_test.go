package records

import (
	"bytes"
	"fmt"
	"iter"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

// shapeOf names a record's shape as sameShape compares it.
func shapeOf(r Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%t|%t|%t", r.Kind, r.Period != "", r.Timestamp != "", r.Source != "")
	for _, f := range r.Fields {
		fmt.Fprintf(&b, "|%s:%s", f.Key, f.Type)
	}
	return b.String()
}

// varied is a row whose records take several shapes: an optional field, a pointer that may be
// nil, a period that may be empty.
type varied struct {
	Ticker string       `json:"ticker" record:"entity"`
	Period string       `json:"period" record:"period"`
	Gain   model.Money  `json:"gain"`
	Note   string       `json:"note,omitempty"`
	Cost   *model.Money `json:"cost"`
	Parts  []variedPart `json:"parts" record:"rows=part"`
}

type variedPart struct {
	Rule string `json:"rule,omitempty"`
	Qty  int    `json:"qty"`
}

type variedReport struct {
	Rows []varied `json:"rows" record:"rows=row"`
}

// variedRows is n rows whose shapes follow no pattern a chunk could line up with.
func variedRows(n int) *variedReport {
	rng := rand.New(rand.NewPCG(5, 7))
	cost := model.MoneyFromString("12.50")
	rep := &variedReport{}
	for i := range n {
		r := varied{Ticker: fmt.Sprintf("T%d", i%17), Gain: model.MoneyFromString("1.25")}
		if rng.IntN(3) == 0 {
			r.Period = "2024/25"
		}
		if rng.IntN(4) == 0 {
			r.Note = "note"
		}
		if rng.IntN(2) == 0 {
			r.Cost = &cost
		}
		for range rng.IntN(3) {
			p := variedPart{Qty: i}
			if rng.IntN(2) == 0 {
				p.Rule = "same_day"
			}
			r.Parts = append(r.Parts, p)
		}
		rep.Rows = append(rep.Rows, r)
	}
	return rep
}

// ShapeCounts gives the shapes of Shapes' records with their numbers: as many records in
// all and of each shape, the shapes first met in the same order, and the same schema columns
// and output, whether a list's chunks are counted by workers or the records one by one.
func TestShapeCountsCountAsShapes(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // workers only share out lists with 2 or more
	}
	rep := generatedReport(t, ledgergen.Options{Lines: 6000, Tickers: 40, USDPercent: 10, Events: true, Seed: 3})
	for i, v := range []any{rep, variedRows(5 * parallelMin), sample()} {
		long := i < 2 // lists long enough to be shared out
		name := reflect.TypeOf(v).String()
		var wantOrder, gotOrder []string
		want, got := map[string]int{}, map[string]int{}
		for r := range Shapes(v) {
			k := shapeOf(r)
			if want[k] == 0 {
				wantOrder = append(wantOrder, k)
			}
			want[k]++
		}
		groups := 0
		for r, n := range ShapeCounts(v) {
			k := shapeOf(r)
			if n < 1 {
				t.Fatalf("%s: shape %s counted %d times", name, k, n)
			}
			if got[k] == 0 {
				gotOrder = append(gotOrder, k)
			}
			got[k] += n
			groups++
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: counts by shape differ:\n got %v\nwant %v", name, got, want)
		}
		if !slices.Equal(gotOrder, wantOrder) {
			t.Errorf("%s: shapes first met in another order:\n got %q\nwant %q", name, gotOrder, wantOrder)
		}
		if records := len(From(v)); long && groups*4 > records {
			t.Errorf("%s: %d shapes given for %d records: the chunks were not counted", name, groups, records)
		}
		if g, w := countColumns(ShapeCounts(v), nil), countColumns(countedOnce(Shapes(v)), nil); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: columns %+v, counted record by record %+v", name, g, w)
		}
		var one, counted bytes.Buffer
		if err := Write(&one, "schema", Stream(v), nil, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := Write(&counted, "schema", Stream(v), nil, Options{Shapes: ShapeCounts(v)}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(one.Bytes(), counted.Bytes()) {
			t.Errorf("%s: the schema output differs with the shapes counted", name)
		}
	}
}

// Cutting records into runs and giving each run's shapes once, in the order they first
// appear in it, with their numbers, yields the columns counting every record does: the same
// names in the same order and the same uses. A brute-force check over random records and
// random cuts, each run compressed as a list's chunk is.
func TestCountColumnsFromRunsOfShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	keys := []string{"a", "b", "c", "d", "e", "f"}
	kinds := []string{"x", "y", "z"}
	for trial := range 2000 {
		recs := make([]Record, rng.IntN(40))
		for i := range recs {
			r := Record{Entity: "e", Kind: kinds[rng.IntN(len(kinds))]}
			if rng.IntN(3) == 0 {
				r.Period = "p"
			}
			for _, k := range keys {
				switch rng.IntN(4) {
				case 0:
					r.Fields = append(r.Fields, Field{Key: k, Type: "text"})
				case 1:
					r.Fields = append(r.Fields, Field{Key: k, Type: "prose"})
				}
			}
			if len(r.Fields) > 0 && rng.IntN(8) == 0 {
				r.Fields = append(r.Fields, r.Fields[0]) // a name twice in one record
			}
			rng.Shuffle(len(r.Fields), func(i, j int) { r.Fields[i], r.Fields[j] = r.Fields[j], r.Fields[i] })
			recs[i] = r
		}
		want := countColumns(countedOnce(slices.Values(recs)), nil)
		got := countColumns(runsOfShapes(recs, rng), nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: columns from runs %+v, from every record %+v", trial, got, want)
		}
	}
}

// runsOfShapes cuts recs into random runs and gives each run's shapes as a worker's chunk
// does (sameShapeAs).
func runsOfShapes(recs []Record, rng *rand.Rand) iter.Seq2[Record, int] {
	return func(yield func(Record, int) bool) {
		for start := 0; start < len(recs); {
			end := min(len(recs), start+1+rng.IntN(12))
			var reps []Record
			var counts []int
			for _, r := range recs[start:end] {
				if i := sameShapeAs(reps, &r); i >= 0 {
					counts[i]++
				} else {
					reps, counts = append(reps, r), append(counts, 1)
				}
			}
			for i, r := range reps {
				if !yield(r, counts[i]) {
					return
				}
			}
			start = end
		}
	}
}
