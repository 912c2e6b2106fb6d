package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/cgt-tools/cgt/envelope"
)

// validator checks an arguments object against the command's input schema, compiled once.
type validator struct {
	cmd    string
	schema *jsonschema.Schema
	props  map[string]any
}

func compileValidator(cmd string, schema map[string]any) (*validator, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	// Round-trip through JSON so every number is a json.Number, as the compiler expects.
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(mustJSON(schema)))
	if err != nil {
		return nil, err
	}
	url := "cgt:///" + cmd + ".input.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", cmd, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", cmd, err)
	}
	props, _ := schema["properties"].(map[string]any)
	return &validator{cmd: cmd, schema: s, props: props}, nil
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

var printer = message.NewPrinter(language.English)

// check validates args; the error names the argument, the value given and the form expected.
func (v *validator) check(args map[string]any) *envelope.Error {
	err := v.schema.Validate(args)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return envelope.New(envelope.InvalidArgument, err.Error(), "")
	}
	leaf := firstLeaf(ve)
	return v.describe(leaf, args)
}

func firstLeaf(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(e.Causes) > 0 {
		e = e.Causes[0]
	}
	return e
}

func (v *validator) describe(e *jsonschema.ValidationError, args map[string]any) *envelope.Error {
	field := strings.Join(e.InstanceLocation, ".")
	if r, ok := e.ErrorKind.(*kind.Required); ok {
		return envelope.Errorf(envelope.UsageError, "Pass "+strings.Join(r.Missing, ", ")+". Run `cgt help "+v.cmd+"` for the arguments.",
			"missing required argument %s for %s", strings.Join(r.Missing, ", "), v.cmd).With("argument", r.Missing[0])
	}
	given := valueAt(args, e.InstanceLocation)
	expected := v.expected(e.InstanceLocation)
	msg := fmt.Sprintf("argument %s = %s: %s", field, given, e.ErrorKind.LocalizedString(printer))
	out := envelope.Errorf(envelope.InvalidArgument, "Expected "+expected+".", "%s", msg).With("argument", field).With("value", given)
	return out
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
	if d := strings.TrimSuffix(str(p["description"]), "."); d != "" {
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
			var i int
			fmt.Sscan(k, &i)
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
