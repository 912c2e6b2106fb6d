package jsoncodec

import (
	"encoding/json"
	"fmt"
	"testing"
)

// benchDoc is a document of the shapes the page decodes and encodes: an array of objects with
// strings, numbers, nested arrays and objects.
func benchDoc(n int) []byte {
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{
			"date": fmt.Sprintf("2024-%02d-%02d", i%12+1, i%28+1), "ticker": fmt.Sprintf("T%d", i%1000),
			"quantity": json.Number(fmt.Sprint(i%500 + 1)), "price": json.Number(fmt.Sprintf("%d.%02d", i%300, i%100)),
			"steps": []any{"cost = 10 × £1,234.56 ÷ 20 = £617.28", "gain = £700.00 − £0.00 − £617.28 = £82.72"},
			"pool":  map[string]any{"quantity": json.Number("120"), "cost": json.Number("4567.89")},
		}
	}
	b, _ := json.Marshal(rows)
	return b
}

// BenchmarkDecodeAny and BenchmarkEncode compare the codec with encoding/json on 1,000 rows
// (about 300 KB): the page's own JSON should not be the slow part of a result.
func BenchmarkDecodeAny(b *testing.B) {
	doc := benchDoc(1000)
	for _, c := range []struct {
		name string
		fn   func([]byte, any) error
	}{{"jsoncodec", Unmarshal}, {"encoding-json", json.Unmarshal}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				var v any
				if err := c.fn(doc, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	var rows []sample
	for i := range 1000 {
		rows = append(rows, sample{S: fmt.Sprint("row ", i), I: i, F64: float64(i) / 7, L: []int{i, i + 1}, M: map[string]int{"a": i, "b": 2},
			Inner: Inner{A: i, B: "inner"}, Nested: []map[string]any{{"k": "v"}}})
	}
	for _, c := range []struct {
		name string
		fn   func(any) ([]byte, error)
	}{{"jsoncodec", Marshal}, {"encoding-json", json.Marshal}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.fn(rows); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
