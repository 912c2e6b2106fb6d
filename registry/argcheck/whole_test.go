package argcheck

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func decodeNumbers(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Whole numbers within whole bounds are checked as int64; every value must get the same
// answer, and the same message, as compared digit by digit.
func TestWholeNumberBoundsAgreeWithExactBounds(t *testing.T) {
	schemas := []string{
		`{"type":"integer","minimum":1,"maximum":12}`,
		`{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":13}`,
		`{"type":"number","minimum":0.5,"maximum":12.5}`,
		`{"type":"integer","minimum":1e3}`,
		`{"type":"integer","maximum":9223372036854775807}`,
		`{"type":"integer","minimum":-9223372036854775808,"exclusiveMaximum":-5}`,
	}
	values := []any{json.Number("0"), json.Number("1"), json.Number("12"), json.Number("13"), json.Number("-6"), json.Number("-5"),
		json.Number("999"), json.Number("1000"), json.Number("1e3"), json.Number("12.0"), json.Number("0.5"),
		json.Number("9223372036854775807"), json.Number("9223372036854775808"), json.Number("-9223372036854775809"),
		1, int64(12), int32(13), uint8(12), 12.0, 13.0, 12.5, 0.25, -5.0, 1e300, 9007199254740993.0}
	for _, doc := range schemas {
		fast, err := Compile(decodeNumbers(t, doc))
		if err != nil {
			t.Fatal(err)
		}
		exact := *fast
		exact.ints = nil
		for _, v := range values {
			got, want := fast.Validate(v), exact.Validate(v)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Errorf("%s with %v: %v, want %v", doc, v, got, want)
			}
		}
	}
	if s, _ := Compile(decodeNumbers(t, schemas[0])); s.ints == nil {
		t.Error("whole bounds were not taken as int64")
	}
}

func TestIsIntegerFastPathAgreesWithExact(t *testing.T) {
	for _, v := range []any{json.Number("3"), json.Number("3.0"), json.Number("3.5"), json.Number("1e400"), 3, int8(-3), uint16(7),
		3.0, 3.5, math.Copysign(0, -1), 1e300, 1e-300, 9007199254740993.0, float32(2.5), float32(4)} {
		n, ok := toNumber(v)
		if want := ok && n.isInt(); isInteger(v) != want {
			t.Errorf("isInteger(%T %v) = %v, want %v", v, v, !want, want)
		}
	}
}
