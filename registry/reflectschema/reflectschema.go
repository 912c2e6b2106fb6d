// Package reflectschema reflects the registry's typed argument and result structs into JSON
// Schemas (with invopop/jsonschema). It runs where schemas are made — cgt gen, the tests — and
// not in the programs that serve commands: they read the schemas cgt gen committed beside the
// commands (registry.SchemaSource), so they neither link nor initialise the reflector.
package reflectschema

import (
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"
	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// Live is the schema source that reflects every schema from its Go type.
type Live struct{}

// Schema reflects t: the arguments schema (role "input") or the result schema ("data").
func (Live) Schema(_ string, role string, t reflect.Type) (map[string]any, error) {
	return Of(t, role == "input"), nil
}

// Of reflects a Go type into a self-contained JSON Schema (no $ref, no $defs), as
// a plain map so that generators and front ends can embed it. For arguments, `required` comes
// only from `jsonschema:"required"` tags and unknown properties are forbidden.
func Of(t reflect.Type, forArgs bool) map[string]any {
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
		panic("reflectschema: schema of " + t.String() + ": " + err.Error())
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
	if t.Implements(schemaMapper) {
		return fromMap(reflect.Zero(t).Interface().(SchemaMapper).SchemaMap())
	}
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

// SchemaMapper is a type that states its own schema as a plain JSON Schema object, for the
// argument types whose JSON form no struct can describe (a number, a string or an object).
type SchemaMapper interface{ SchemaMap() map[string]any }

var schemaMapper = reflect.TypeFor[SchemaMapper]()

// fromMap turns a plain schema object into the reflector's form.
func fromMap(m map[string]any) *jsonschema.Schema {
	b, err := json.Marshal(m)
	if err != nil {
		panic("reflectschema: " + err.Error())
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		panic("reflectschema: " + err.Error())
	}
	return &s
}
