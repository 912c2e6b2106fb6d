package registry

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/registry/argcheck"
)

// DecodeObject reads a JSON arguments object, keeping numbers exact (json.Number). An empty
// body is an empty object.
func DecodeObject(raw []byte) (map[string]any, *envelope.Error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	if obj, ok := plainObject(raw); ok {
		return obj, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, envelope.Errorf(envelope.UsageError, `Pass a JSON object, e.g. {"currency":"USD","year":2024,"month":3}.`,
			"arguments are not valid JSON: %v", err)
	}
	if rest := bytes.TrimSpace(raw[dec.InputOffset():]); len(rest) > 0 {
		return nil, envelope.Errorf(envelope.UsageError, `Pass one JSON object; merge the keys into it, e.g. {"currency":"USD","year":2024,"month":3}.`,
			"arguments are not valid JSON: unexpected %s after the object", quote(string(rest))).With("value", string(rest))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, envelope.Errorf(envelope.UsageError, `Pass a JSON object, e.g. {"currency":"USD","year":2024,"month":3}.`,
			"arguments must be a JSON object, got %s", jsonKind(v))
	}
	return obj, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// normalize resolves aliases, rejects unknown arguments, coerces lossless type mismatches
// (a number given for a string argument, "2024" for an integer) and fills published defaults.
// Every front end goes through it, so aliases and coercions behave the same everywhere.
func normalize(cmd string, specs []ArgSpec, in map[string]any) (map[string]any, *envelope.Error) {
	out := make(map[string]any, len(in))
	for key, val := range in {
		spec, ok := lookupArg(specs, key)
		if !ok {
			return nil, unknownArg(cmd, key, specs)
		}
		if _, dup := out[spec.Name]; dup {
			return nil, envelope.Errorf(envelope.UsageError, "Give each argument once.",
				"argument %s given twice (as %q and under another alias)", spec.Name, key).With("argument", spec.Name)
		}
		out[spec.Name] = coerce(spec.Type, val)
	}
	for _, s := range specs {
		if _, ok := out[s.Name]; !ok && s.Default != nil {
			out[s.Name] = s.Default
		}
	}
	return out, nil
}

// coerce converts a value to the argument's type when that loses nothing; anything else is
// left for the validator to reject with a precise message.
func coerce(typ string, v any) any {
	switch typ {
	case "string":
		switch t := v.(type) {
		case json.Number:
			return t.String()
		case float64:
			return strconv.FormatFloat(t, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(t)
		}
	case "integer", "number":
		n, ok := v.(json.Number)
		if s, isStr := v.(string); isStr && isJSONNumber(strings.TrimSpace(s)) {
			n, ok = json.Number(strings.TrimSpace(s)), true
		}
		if !ok {
			return v
		}
		if typ == "integer" {
			return integral(n)
		}
		return n
	case "boolean":
		if s, ok := v.(string); ok {
			if b, err := strconv.ParseBool(s); err == nil {
				return b
			}
		}
	case "array":
		return coerceArray(v)
	case "object":
		if s, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(s), "{") {
			if obj, err := DecodeObject([]byte(s)); err == nil {
				return obj
			}
		}
	case "integer|string", "number|string":
		if n, ok := v.(json.Number); ok {
			if _, err := n.Int64(); err == nil {
				return n
			}
			return n.String()
		}
	}
	return v
}

// isJSONNumber reports whether s is a number in JSON's grammar: "NaN", "Inf", "0x10" and
// "1_000" (which strconv.ParseFloat accepts) are not.
func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

// integral writes a whole number given with a fraction or an exponent (2024.0, 2.024e3) in
// integer form, as JSON Schema counts it an integer and the Go decoder would refuse it.
func integral(n json.Number) json.Number {
	if !strings.ContainsAny(string(n), ".eE") {
		return n
	}
	// Only a whole number within ±2⁶³ is rewritten; a zero written with an exponent is left as given.
	if f, err := strconv.ParseFloat(string(n), 64); err != nil || f == 0 && strings.ContainsAny(string(n), "eE") || math.Abs(f) > 1<<63 || f != math.Trunc(f) {
		return n
	}
	if i, ok := argcheck.Integral(string(n)); ok {
		return json.Number(i)
	}
	return n
}

func coerceArray(v any) any {
	switch t := v.(type) {
	case []any:
		return t
	case string:
		if strings.HasPrefix(strings.TrimSpace(t), "[") {
			dec := json.NewDecoder(strings.NewReader(t))
			dec.UseNumber()
			var arr []any
			if dec.Decode(&arr) == nil {
				return arr
			}
		}
		return []any{t}
	}
	return v
}

// decodeError turns a failure to decode validated arguments into the struct into an error
// that names the field.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if ok := asType(err, &te); ok {
		return envelope.Errorf(envelope.InvalidArgument, "Check the argument's type in `cgt help`.",
			"argument %s: expected %s, got JSON %s", te.Field, te.Type, te.Value).With("argument", te.Field)
	}
	return envelope.Errorf(envelope.InvalidArgument, "Check the arguments against `cgt help`.", "%v", err)
}

func asType(err error, target **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*target = t
	}
	return ok
}
