package registry

import (
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"
	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
)

// reflectSchema reflects a Go type into a self-contained JSON Schema (no $ref, no $defs), as
// a plain map so that generators and front ends can embed it. For arguments, `required` comes
// only from `jsonschema:"required"` tags and unknown properties are forbidden.
func reflectSchema(t reflect.Type, forArgs bool) map[string]any {
	r := &jsonschema.Reflector{
		DoNotReference:             true,
		ExpandedStruct:             true,
		Anonymous:                  true,
		RequiredFromJSONSchemaTags: forArgs,
		AllowAdditionalProperties:  !forArgs,
		Mapper:                     mapDomainTypes,
	}
	s := r.ReflectFromType(t)
	s.Version = ""
	b, err := json.Marshal(s)
	if err != nil {
		panic("registry: schema of " + t.String() + ": " + err.Error())
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	return m
}

var (
	moneyType   = reflect.TypeFor[model.Money]()
	decimalType = reflect.TypeFor[model.Decimal]()
	rawDecimal  = reflect.TypeFor[decimal.Decimal]()
	dateType    = reflect.TypeFor[model.Date]()
)

// mapDomainTypes gives the domain's value types the string schemas they marshal to; without it
// they would reflect as empty objects.
func mapDomainTypes(t reflect.Type) *jsonschema.Schema {
	switch t {
	case moneyType:
		return &jsonschema.Schema{Type: "string", Pattern: `^-?[0-9]+\.[0-9]{2}$`,
			Description: "GBP amount with exactly two decimals", Examples: []any{"1234.50"}}
	case decimalType, rawDecimal:
		return &jsonschema.Schema{Type: "string", Pattern: `^-?[0-9]+(\.[0-9]+)?$`,
			Description: "exact decimal number"}
	case dateType:
		return &jsonschema.Schema{Type: "string", Format: "date", Description: "date YYYY-MM-DD"}
	}
	return nil
}

// EnvelopeSchema wraps a data schema in the result envelope.
func EnvelopeSchema(data map[string]any) map[string]any {
	return map[string]any{
		"type":                 "object",
		"required":             []any{"ok", "data", "error", "warnings"},
		"additionalProperties": false,
		"properties": map[string]any{
			"ok":       map[string]any{"type": "boolean", "description": "true when the command succeeded"},
			"data":     map[string]any{"description": "the result when ok is true, else null", "anyOf": []any{data, map[string]any{"type": "null"}}},
			"error":    map[string]any{"description": "the error when ok is false, else null", "anyOf": []any{ErrorSchema(), map[string]any{"type": "null"}}},
			"warnings": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "things the caller should know; never dropped"},
		},
	}
}

// ErrorSchema is the schema of the envelope's error object.
func ErrorSchema() map[string]any {
	codes := []any{}
	for _, c := range envelopeCodes() {
		codes = append(codes, c)
	}
	return map[string]any{
		"type":     "object",
		"required": []any{"code", "message"},
		"properties": map[string]any{
			"code":     map[string]any{"type": "string", "enum": codes, "description": "stable error code"},
			"message":  map[string]any{"type": "string", "description": "what went wrong, naming the value given"},
			"hint":     map[string]any{"type": "string", "description": "what to do about it"},
			"examples": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "valid inputs of the kind that failed"},
			"context":  map[string]any{"type": "object", "description": "line, column, file, value, field, and what exists (for not_found)"},
		},
	}
}

// OutputSchema is the full envelope schema of a command.
func OutputSchema(c Command) map[string]any { return EnvelopeSchema(c.DataSchema()) }

func envelopeCodes() []string {
	out := make([]string, len(envelope.Codes))
	for i, c := range envelope.Codes {
		out[i] = string(c.Code)
	}
	return out
}
