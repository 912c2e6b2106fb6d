package gen

import (
	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// MetaSchema is the JSON Schema dialect of every schema cgt publishes.
const MetaSchema = "https://json-schema.org/draft/2020-12/schema"

// Command name patterns, as the registry enforces them.
const (
	commandNamePattern = `^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$`
	mcpNamePattern     = `^[a-z0-9_]{1,64}$`
)

type obj = map[string]any

// ToolsSchema renders schemas/cgt-tools.schema.json, the JSON Schema tools.json validates
// against.
func ToolsSchema() ([]byte, error) { return CanonicalJSON(toolsSchema()) }

func toolsSchema() obj {
	return obj{
		"$schema":              MetaSchema,
		"$id":                  catalog.SchemaID,
		"x-generated-by":       GeneratedBy,
		"title":                "cgt tools.json",
		"description":          "The machine contract of cgt: every command with its arguments, input and output schemas, side effects and agent hints, plus the result envelope, error codes, output formats, trust policy and playbooks.",
		"type":                 "object",
		"required":             []any{"$schema", "name", "version", "description", "result_envelope", "error_codes", "record_schema", "output_formats", "side_effect_levels", "trust_policy", "playbooks", "commands"},
		"additionalProperties": false,
		"properties": obj{
			"$schema":            obj{"const": catalog.SchemaID},
			"x-generated-by":     obj{"type": "string"},
			"name":               nonEmpty("the product name"),
			"version":            nonEmpty("the contract version"),
			"description":        nonEmpty("what the product does"),
			"result_envelope":    schemaRef("the envelope every command returns; data is command-specific"),
			"error_codes":        arrayOf(errorCodeSchema(), "every error.code, with its meaning, retryability and CLI exit code"),
			"record_schema":      schemaRef("one Record as --output records writes it"),
			"output_formats":     arrayOf(outputFormatSchema(), "the --output renderings and how to parse each"),
			"side_effect_levels": sideEffectLevelsSchema(),
			"trust_policy":       obj{"type": "object", "description": "rules an agent keeps when it reports cgt's figures", "minProperties": 1},
			"playbooks":          arrayOf(playbookSchema(), "multi-step tasks; steps name registered commands"),
			"commands":           arrayOf(commandSchema(), "every command, in registration order"),
		},
	}
}

func nonEmpty(desc string) obj { return obj{"type": "string", "minLength": 1, "description": desc} }

func stringArray(desc string) obj {
	return obj{"type": "array", "items": obj{"type": "string"}, "description": desc}
}

func arrayOf(items obj, desc string) obj {
	return obj{"type": "array", "items": items, "description": desc}
}

func schemaRef(desc string) obj { return obj{"$ref": MetaSchema, "description": desc} }

func strictObject(props obj, required ...string) obj {
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	return obj{"type": "object", "additionalProperties": false, "required": req, "properties": props}
}

func errorCodeSchema() obj {
	codes := []any{}
	for _, c := range envelope.Codes {
		codes = append(codes, string(c.Code))
	}
	return strictObject(obj{
		"code":        obj{"enum": codes},
		"description": nonEmpty("what the code means and what to do"),
		"retryable":   obj{"type": "boolean"},
		"exit_code":   obj{"type": "integer", "enum": []any{1, 2}},
	}, "code", "description", "retryable", "exit_code")
}

func outputFormatSchema() obj {
	return strictObject(obj{
		"name":             nonEmpty("the --output value"),
		"machine_readable": obj{"type": "boolean"},
		"description":      nonEmpty("what the rendering looks like"),
		"parse":            nonEmpty("how to parse it"),
	}, "name", "machine_readable", "description", "parse")
}

func sideEffectLevels() []any {
	out := []any{}
	for _, l := range registry.SideEffectLevels {
		out = append(out, string(l.Level))
	}
	return out
}

func sideEffectLevelsSchema() obj {
	return obj{
		"type":                 "object",
		"description":          "every side-effect level and what it allows",
		"propertyNames":        obj{"enum": sideEffectLevels()},
		"additionalProperties": nonEmpty("the meaning of the level"),
	}
}

func playbookSchema() obj {
	return strictObject(obj{
		"task":          nonEmpty("what the playbook achieves"),
		"when":          nonEmpty("when to follow it"),
		"steps":         obj{"type": "array", "minItems": 1, "items": obj{"type": "string"}},
		"failure_modes": stringArray("what can go wrong and what to do"),
	}, "task", "when", "steps", "failure_modes")
}

func commandSchema() obj {
	return strictObject(obj{
		"name":                     obj{"type": "string", "pattern": commandNamePattern, "description": "namespace.verb"},
		"mcp_name":                 obj{"type": "string", "pattern": mcpNamePattern, "description": "the MCP tool name"},
		"namespace":                nonEmpty("the part of the name before the dot"),
		"summary":                  obj{"type": "string", "description": "one line"},
		"description":              nonEmpty("a paragraph"),
		"usage":                    nonEmpty("the CLI usage line"),
		"examples":                 stringArray("runnable command lines"),
		"args":                     obj{"type": "object", "additionalProperties": argSchema(), "description": "arguments by name"},
		"input_schema":             schemaRef("JSON Schema of the arguments object"),
		"output_schema":            schemaRef("the result envelope with the command's data schema"),
		"side_effects":             obj{"enum": sideEffectLevels()},
		"side_effects_description": nonEmpty("what the side-effect level allows"),
		"auth_required":            obj{"enum": []any{"none", "required"}},
		"rate_limit_notes":         obj{"type": "string"},
		"citation_fields":          stringArray("result fields an answer should cite"),
		"agent": strictObject(obj{
			"use_when":   obj{"type": "string"},
			"avoid_when": obj{"type": "string"},
			"next_steps": stringArray("names of registered commands"),
		}, "use_when", "avoid_when", "next_steps"),
	}, "name", "mcp_name", "namespace", "description", "usage", "examples", "args", "input_schema", "output_schema",
		"side_effects", "side_effects_description", "auth_required", "rate_limit_notes", "citation_fields", "agent")
}

func argSchema() obj {
	return strictObject(obj{
		"type":        nonEmpty("JSON Schema type; a|b when either is accepted"),
		"required":    obj{"type": "boolean"},
		"default":     obj{"description": "the value used when the argument is absent"},
		"enum":        obj{"type": "array", "description": "the accepted values"},
		"aliases":     stringArray("other names accepted in every front end"),
		"positional":  obj{"type": "integer", "minimum": 0, "description": "index among the CLI positionals"},
		"variadic":    obj{"type": "boolean", "description": "takes every remaining positional"},
		"description": nonEmpty("what the argument is"),
	}, "type", "required", "description")
}
