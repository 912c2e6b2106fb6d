package registry

import (
	"strconv"
	"strings"

	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/cgt-tools/cgt/records"
)

// The shaping arguments every command takes in every front end. They shape how the result is
// written, never what is computed: Execute takes them out before the handler runs and returns
// them as a Shape.
const (
	ArgOutput     = "output"
	ArgFields     = "fields"
	ArgMaxRecords = "max_records"
	ArgMaxChars   = "max_chars"
)

// AgentFormats are the formats the output argument accepts: the machine-readable ones.
var AgentFormats = func() []string {
	var out []string
	for _, f := range records.OutputFormats {
		if f.MachineReadable {
			out = append(out, f.Name)
		}
	}
	return out
}()

// Shape is how a result is to be written, as the shaping arguments asked.
type Shape struct {
	Output     string   // json, compact, schema or records; "" when not given
	Fields     []string // only these record fields, in this order
	MaxRecords int      // 0: no limit
	MaxChars   int      // 0: no limit
	// Given names the shaping arguments the caller set (not filled from defaults).
	Given map[string]bool
	// Args are the command's other arguments as the handler received them (canonical names,
	// defaults filled), for a front end that says how to ask for more.
	Args map[string]any
}

// shapingHints say more than a shaping argument's published description (kept to a few words
// for the tool-list budget) where an error's hint needs it.
var shapingHints = map[string]string{
	ArgOutput: "compact: a line per record; schema: header, rows; records: JSON Lines; json: the envelope",
}

// shapingSpecs are the shaping arguments as every command publishes them.
func shapingSpecs() []ArgSpec {
	formats := make([]any, len(AgentFormats))
	for i, f := range AgentFormats {
		formats[i] = f
	}
	return []ArgSpec{
		{Name: ArgOutput, Type: "string", Enum: formats, Description: "Result format."},
		{Name: ArgFields, Type: "array", Description: "Only these fields."},
		{Name: ArgMaxRecords, Type: "integer", Description: "Record limit."},
		{Name: ArgMaxChars, Type: "integer", Description: "Character limit."},
	}
}

// shapingProperty is the JSON Schema of a shaping argument. fields lists, as examples of
// its items, the field names the command's records can carry (records.FieldNames): the
// names a model may pass, without an error to learn them from. They are examples, not an
// enum, so a name outside them gets the error that lists the names the result has.
func shapingProperty(s ArgSpec, fieldNames []string) map[string]any {
	p := map[string]any{"type": s.Type, "description": s.Description}
	switch s.Type {
	case "array":
		items := map[string]any{"type": "string"}
		if s.Name == ArgFields && len(fieldNames) > 0 {
			ex := make([]any, len(fieldNames))
			for i, n := range fieldNames {
				ex[i] = n
			}
			items["examples"] = ex
		}
		p["items"] = items
	case "integer":
		p["minimum"] = 0
	}
	if s.Enum != nil {
		p["enum"] = s.Enum
	}
	return p
}

// withShaping returns the input schema with the shaping arguments added, and the argument
// specs with the shaping arguments appended. A command whose own arguments use one of the
// names keeps its own. Aliases are accepted (Execute renames them before validating) but not
// listed: an argument appears once in a schema, under its canonical name.
func withShaping(schema map[string]any, specs []ArgSpec, fieldNames []string) (map[string]any, []ArgSpec) {
	out := make(map[string]any, len(schema))
	for k, v := range schema {
		out[k] = v
	}
	old, _ := schema["properties"].(map[string]any)
	props := make(map[string]any, len(old)+8)
	for k, v := range old {
		props[k] = v
	}
	for _, s := range shapingSpecs() {
		if _, taken := props[s.Name]; taken {
			continue
		}
		props[s.Name] = shapingProperty(s, fieldNames)
		specs = append(specs, s)
	}
	out["properties"] = props
	return out, specs
}

// isShaping reports whether an argument of the command is one of the shaping arguments that
// the registry added (rather than one the command declares itself).
func isShaping(c Command, name string) bool {
	switch name {
	case ArgOutput, ArgFields, ArgMaxRecords, ArgMaxChars:
	default:
		return false
	}
	if tc, ok := c.(interface{ ownArg(string) bool }); ok {
		return !tc.ownArg(name)
	}
	return true
}

// takeShape removes the shaping arguments from a normalized arguments object and returns
// them as a Shape.
func takeShape(c Command, args map[string]any, given map[string]bool) Shape {
	sh := Shape{Given: map[string]bool{}, Args: args}
	for _, name := range []string{ArgOutput, ArgFields, ArgMaxRecords, ArgMaxChars} {
		v, ok := args[name]
		if !ok || !isShaping(c, name) {
			continue
		}
		delete(args, name)
		if given[name] {
			sh.Given[name] = true
		}
		switch name {
		case ArgOutput:
			sh.Output, _ = v.(string)
		case ArgFields:
			sh.Fields = fieldList(v)
		case ArgMaxRecords:
			sh.MaxRecords = intOf(v)
		case ArgMaxChars:
			sh.MaxChars = intOf(v)
		}
	}
	return sh
}

// fieldList reads the fields argument: a list, each item possibly comma-separated as on the
// command line.
func fieldList(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, it := range items {
		s, _ := it.(string)
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func intOf(v any) int {
	switch t := v.(type) {
	case json.Number:
		n, _ := strconv.Atoi(t.String())
		return n
	case float64:
		return int(t)
	case int:
		return t
	}
	return 0
}

// applyDefaults fills front-end defaults for arguments the command has and the caller did
// not give, by canonical name: an agent front end asks for compact output, a summary report
// and a bound on characters without knowing which command takes what.
func applyDefaults(specs []ArgSpec, args map[string]any, given map[string]bool, defaults map[string]any) {
	if len(defaults) == 0 {
		return
	}
	keys := make([]string, 0, len(defaults))
	for k := range defaults {
		keys = append(keys, k)
	}
	order.Ascending(keys)
	for _, k := range keys {
		if given[k] {
			continue
		}
		if s, has := lookupArg(specs, k); has && s.Name == k {
			args[k] = coerce(s.Type, defaults[k])
		}
	}
}

// givenNames lists the canonical names of the arguments a caller set.
func givenNames(specs []ArgSpec, args map[string]any) map[string]bool {
	out := make(map[string]bool, len(args))
	for k := range args {
		if s, ok := lookupArg(specs, k); ok {
			out[s.Name] = true
		}
	}
	return out
}
