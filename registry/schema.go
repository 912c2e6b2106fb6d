package registry

import (
	"github.com/cgt-tools/cgt/envelope"
)

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
