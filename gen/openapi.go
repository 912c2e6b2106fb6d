package gen

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// OpenAPIVersion is the OpenAPI version openapi.json declares.
const OpenAPIVersion = "3.1.0"

// Names of the shared component schemas.
const (
	envelopeSchemaName = "Envelope"
	errorSchemaName    = "Error"
	warningsSchemaName = "Warnings"
)

// OperationID is the OpenAPI operationId of a command: its name with dots as underscores.
func OperationID(name string) string { return strings.ReplaceAll(name, ".", "_") }

// CommandPath is the HTTP path of a command in openapi.json.
func CommandPath(name string) string { return "/commands/" + name }

// OpenAPI renders openapi.json: one POST /commands/{name} per command, whose request body is
// the command's input schema and whose response is the shared envelope with the command's
// data schema.
func OpenAPI(reg *registry.Registry, info catalog.Info) ([]byte, error) {
	doc, err := OpenAPIDoc(reg, info)
	if err != nil {
		return nil, err
	}
	return CanonicalJSON(doc)
}

// OpenAPIDoc builds the OpenAPI document of the registry.
func OpenAPIDoc(reg *registry.Registry, info catalog.Info) (*openapi3.T, error) {
	doc := &openapi3.T{
		OpenAPI:    OpenAPIVersion,
		Info:       &openapi3.Info{Title: info.Name, Version: info.Version, Description: info.Description},
		Paths:      openapi3.NewPaths(),
		Components: &openapi3.Components{Schemas: openapi3.Schemas{}},
		Extensions: map[string]any{"x-generated-by": GeneratedBy},
	}
	if err := addSharedSchemas(doc.Components.Schemas); err != nil {
		return nil, err
	}
	tags := map[string]bool{}
	for _, cmd := range reg.Commands() {
		if err := addCommand(doc, cmd); err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", cmd.Meta().Name, err)
		}
		tags[cmd.Meta().Namespace()] = true
	}
	for _, t := range sortedKeys(tags) {
		doc.Tags = append(doc.Tags, &openapi3.Tag{Name: t})
	}
	return doc, nil
}

func addSharedSchemas(s openapi3.Schemas) error {
	shared := map[string]map[string]any{
		errorSchemaName:    registry.ErrorSchema(),
		warningsSchemaName: {"type": "array", "items": map[string]any{"type": "string"}, "description": "things the caller should know; never dropped"},
		envelopeSchemaName: envelopeComponent(),
	}
	for name, m := range shared {
		sch, err := toSchema(m)
		if err != nil {
			return fmt.Errorf("openapi: %s: %w", name, err)
		}
		s[name] = openapi3.NewSchemaRef("", sch)
	}
	return nil
}

// envelopeComponent is the envelope with data left open; each command narrows data.
func envelopeComponent() map[string]any {
	return map[string]any{
		"type":        "object",
		"description": "The result envelope every command returns. ok=false is still a normal response: branch on ok, never on the HTTP status.",
		"required":    []any{"ok", "data", "error", "warnings"},
		"properties": map[string]any{
			"ok":       map[string]any{"type": "boolean", "description": "true when the command succeeded"},
			"data":     map[string]any{"description": "the result when ok is true, else null; see each operation's schema"},
			"error":    map[string]any{"description": "the error when ok is false, else null", "anyOf": []any{componentRef(errorSchemaName), map[string]any{"type": "null"}}},
			"warnings": componentRef(warningsSchemaName),
		},
	}
}

func componentRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

func addCommand(doc *openapi3.T, cmd registry.Command) error {
	m := cmd.Meta()
	id := OperationID(m.Name)
	input, err := toSchema(cmd.InputSchema())
	if err != nil {
		return err
	}
	data, err := toSchema(cmd.DataSchema())
	if err != nil {
		return err
	}
	doc.Components.Schemas[id+"_input"] = openapi3.NewSchemaRef("", input)
	doc.Components.Schemas[id+"_data"] = openapi3.NewSchemaRef("", data)
	resp, err := toSchema(commandEnvelope(id))
	if err != nil {
		return err
	}
	op := &openapi3.Operation{
		OperationID: id,
		Summary:     m.Summary,
		Description: m.Description,
		Tags:        []string{m.Namespace()},
		RequestBody: &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
			WithDescription("The arguments object.").
			WithJSONSchemaRef(openapi3.NewSchemaRef("#/components/schemas/"+id+"_input", nil))},
		Responses: openapi3.NewResponses(openapi3.WithStatus(200, &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("The result envelope: data on success, error (with a stable code) on failure.").
			WithJSONSchema(resp)})),
		Extensions: map[string]any{"x-cgt": xCGT(m)},
	}
	doc.Paths.Set(CommandPath(m.Name), &openapi3.PathItem{Post: op})
	return nil
}

// commandEnvelope is the shared envelope with data narrowed to one command's data schema.
func commandEnvelope(id string) map[string]any {
	return map[string]any{"allOf": []any{
		componentRef(envelopeSchemaName),
		map[string]any{"properties": map[string]any{
			"data": map[string]any{"anyOf": []any{componentRef(id + "_data"), map[string]any{"type": "null"}}},
		}},
	}}
}

func xCGT(m *registry.Meta) map[string]any {
	cites := make([]any, len(m.CitationFields))
	for i, c := range m.CitationFields {
		cites[i] = c
	}
	return map[string]any{
		"command":         m.Name,
		"mcp_name":        m.MCPName,
		"side_effects":    string(m.SideEffects),
		"citation_fields": cites,
	}
}

// toSchema converts a JSON Schema held as a map into kin-openapi's schema type.
func toSchema(m map[string]any) (*openapi3.Schema, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	s := &openapi3.Schema{}
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, err
	}
	return s, nil
}
