package records

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

// reflectedRecords derives records the plain reflective way, field by field through
// appendField, scalar and sourceString, with every prose field written: the reference the
// planned derivation (plan.go) must agree with.
func reflectedRecords(v any) []Record {
	var out []Record
	rv := indirect(reflect.ValueOf(v))
	var root Record
	if n, ok := v.(Entitled); ok {
		root.Entity = n.RecordEntity()
	}
	yield := func(r Record) bool { out = append(out, r); return true }
	if kind := topKind(rv.Type()); kind != "" {
		top := reflectedRecord(rv, kind, root, 0)
		yield(top)
		reflectedRows(rv, top, 1, yield)
	} else {
		reflectedRows(rv, root, 0, yield)
	}
	return out
}

func reflectedRows(rv reflect.Value, parent Record, depth int, yield func(Record) bool) {
	for _, f := range fieldsOf(rv) {
		if kind, ok := strings.CutPrefix(f.tag, "rows="); ok {
			for _, el := range rowValues(f.val) {
				rec := reflectedRecord(el, kind, parent, depth)
				yield(rec)
				reflectedRows(el, rec, depth+1, yield)
			}
		}
	}
}

func reflectedRecord(rv reflect.Value, kind string, parent Record, depth int) Record {
	rec := Record{Kind: kind, Entity: parent.Entity, Period: parent.Period, Timestamp: parent.Timestamp, Source: parent.Source, Depth: depth}
	for _, f := range fieldsOf(rv) {
		switch {
		case strings.HasPrefix(f.tag, "rows=") || f.tag == "-":
		case f.tag == "entity":
			rec.Entity = scalar(f.val)
		case f.tag == "period":
			rec.Period = scalar(f.val)
		case f.tag == "timestamp":
			rec.Timestamp = scalar(f.val)
		case f.tag == "source":
			if s := sourceString(f.val); s != "" {
				rec.Source = s
			}
		case f.tag == "prose":
			v := indirect(f.val)
			if (!v.IsValid() || v.Len() == 0) && rv.CanAddr() {
				if p, ok := rv.Addr().Interface().(Proser); ok {
					v = reflect.ValueOf(p.Prose())
				}
			}
			if v.IsValid() && v.Len() > 0 {
				rec.Fields = append(rec.Fields, Field{Key: f.name, Value: listValue(v), Type: "prose"})
			}
		default:
			rec.Fields = appendField(rec.Fields, f.name, f.val, f.omitempty)
		}
	}
	return rec
}

// generatedReport is the report of a ledger internal/ledgergen writes, its foreign trades
// converted at the embedded rates.
func generatedReport(t *testing.T, opts ledgergen.Options) *engine.Report {
	t.Helper()
	var src bytes.Buffer
	if err := ledgergen.Write(&src, opts); err != nil {
		t.Fatal(err)
	}
	txns, err := dsl.Parse("l.cgt", src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Calculate(txns, engine.Options{Rates: fx.Embedded()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A report of a generated ledger (1,000 tickers, corporate events: nested rows, optional
// fields, pointers, lists, prose written on demand) gives the same records planned, shared
// out among workers, as derived field by field.
func TestPlannedRecordsMatchTheReflectiveWalk(t *testing.T) {
	rep := generatedReport(t, ledgergen.Options{Lines: 2000, Tickers: 40, Events: true, Seed: 3})
	for _, v := range []any{rep, *rep, sample(), &struct {
		R []year `json:"r" record:"rows=year"`
	}{R: sample().Years}} {
		want := reflectedRecords(v)
		got := From(v)
		if len(got) != len(want) {
			t.Fatalf("%T: %d records, want %d", v, len(got), len(want))
		}
		if len(want) < 3 {
			t.Fatalf("%T: %d records; the test needs rows", v, len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%T record %d:\n got %+v\nwant %+v", v, i, got[i], want[i])
			}
		}
	}
}

// A consumer that stops early stops the workers too, and nothing is yielded after.
func TestOfStopsWhenTheConsumerStops(t *testing.T) {
	big := report{Years: []year{{Period: "2024/25"}}}
	d := sample().Years[0].Disposals[0]
	for range 5 * parallelMin {
		big.Years[0].Disposals = append(big.Years[0].Disposals, d)
	}
	for _, stop := range []int{1, 2, chunkRows * 3, 2*5*parallelMin - 1} {
		n := 0
		for range Of(&big) {
			if n++; n == stop {
				break
			}
		}
		if n != stop {
			t.Errorf("stopped at %d, got %d records", stop, n)
		}
	}
	if got, want := len(From(&big)), 1+2*5*parallelMin; got != want {
		t.Errorf("%d records, want %d", got, want)
	}
}

// TestUnescapedTypesNeedNoEscape: the field types the dense formats write without escaping
// (unescaped) hold no byte Escape would change, in every record of a report of a generated
// ledger with every kind of row, foreign trades and corporate events.
func TestUnescapedTypesNeedNoEscape(t *testing.T) {
	rep := generatedReport(t, ledgergen.Options{Lines: 3000, Tickers: 30, USDPercent: 30, Events: true, Seed: 5})
	checked := map[string]int{}
	for _, r := range From(rep) {
		for _, f := range r.Fields {
			if !unescaped(f.Type) {
				continue
			}
			checked[f.Type]++
			if Escape(f.Value) != f.Value {
				t.Errorf("%s %s: a %s field holds %q, which Escape changes", r.Kind, f.Key, f.Type, f.Value)
			}
		}
	}
	for _, typ := range []string{"money", "decimal", "date", "number"} {
		if checked[typ] == 0 {
			t.Errorf("no %s field was checked: %v", typ, checked)
		}
	}
}
