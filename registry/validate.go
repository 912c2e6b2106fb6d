package registry

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/typo"
	"github.com/cgt-tools/cgt/registry/argcheck"
)

// validator checks an arguments object against the command's input schema, compiled once.
type validator struct {
	cmd    string
	schema *argcheck.Schema
	props  map[string]any
}

func compileValidator(cmd string, schema map[string]any) (*validator, error) {
	// Round-trip through JSON so every number is a json.Number, as in the arguments, and
	// messages show the schema's numbers as written.
	dec := json.NewDecoder(bytes.NewReader(mustJSON(schema)))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	s, err := argcheck.Compile(doc)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", cmd, err)
	}
	props, _ := schema["properties"].(map[string]any)
	return &validator{cmd: cmd, schema: s, props: props}, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// check validates args; the error names the argument, the value given and the form expected.
func (v *validator) check(args map[string]any) *envelope.Error {
	err := v.schema.Validate(args)
	if err == nil {
		return nil
	}
	var ve *argcheck.Error
	if !errors.As(err, &ve) || len(ve.Failures) == 0 {
		return envelope.New(envelope.InvalidArgument, err.Error(), "")
	}
	return v.describe(ve.Failures[0], args)
}

func (v *validator) describe(f argcheck.Failure, args map[string]any) *envelope.Error {
	field := strings.Join(f.Location, ".")
	if f.Keyword == "required" {
		return envelope.Errorf(envelope.UsageError, "Pass "+strings.Join(f.Missing, ", ")+". Run `cgt help "+v.cmd+"` for the arguments.",
			"missing required argument %s for %s", strings.Join(f.Missing, ", "), v.cmd).With("argument", f.Missing[0])
	}
	given := valueAt(args, f.Location)
	expected := v.expected(f.Location)
	why := f.Message
	if f.Keyword == "format" {
		// The validator's text quotes Go's time layout ("2006-01-02"), which means nothing
		// to the person who typed the date.
		why = "not a calendar date in the form YYYY-MM-DD, e.g. 2024-04-05"
	}
	msg := fmt.Sprintf("argument %s = %s: %s", field, given, why)
	hint := "Expected " + expected + "."
	if s := v.closestValue(f, args); s != "" {
		hint = "Did you mean " + strconv.Quote(s) + "? " + hint
	}
	return envelope.Errorf(envelope.InvalidArgument, hint, "%s", msg).With("argument", field).With("value", given)
}

// closestValue is the allowed value a string outside an argument's enum was most likely meant
// to be: equal but for case, or at most two edits away ("trading21" for trading212); "" when
// none is that close or two are equally close.
func (v *validator) closestValue(f argcheck.Failure, args map[string]any) string {
	if f.Keyword != "enum" || len(f.Location) != 1 {
		return ""
	}
	given, ok := args[f.Location[0]].(string)
	p, _ := v.props[f.Location[0]].(map[string]any)
	enum, _ := p["enum"].([]any)
	if !ok || given == "" {
		return ""
	}
	best, bestDist, tie := "", 3, false
	for _, e := range enum {
		s, _ := e.(string)
		switch d := typo.Distance(strings.ToLower(given), strings.ToLower(s)); {
		case d < bestDist:
			best, bestDist, tie = s, d, false
		case d == bestDist:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// expected describes the schema of the top-level argument at a location, for the hint.
func (v *validator) expected(loc []string) string {
	if len(loc) == 0 {
		return "an object of arguments"
	}
	p, _ := v.props[loc[0]].(map[string]any)
	desc := schemaType(p)
	if e, ok := p["enum"].([]any); ok {
		desc = fmt.Sprintf("one of %v", e)
	}
	d := strings.TrimSuffix(str(p["description"]), ".")
	if long, ok := shapingHints[loc[0]]; ok {
		d = long
	}
	if d != "" {
		desc += " (" + d + ")"
	}
	return desc
}

func valueAt(v any, loc []string) string {
	for _, k := range loc {
		switch t := v.(type) {
		case map[string]any:
			v = t[k]
		case []any:
			i, err := strconv.Atoi(k) // an index, as the validator writes it
			if err != nil {
				i = 0
			}
			if i >= 0 && i < len(t) {
				v = t[i]
			}
		}
	}
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
