package catalog

import (
	"bytes"
	"encoding/json"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// GeneratedBy is the value of the x-generated-by key every generated JSON file carries.
const GeneratedBy = "cgt gen"

// Own builds cgt's own catalog from the registry, marked as generated: the content of
// tools.json, which the MCP server also publishes as a resource.
func Own(reg *registry.Registry) *Catalog {
	c := Build(reg, Product())
	c.GeneratedBy = GeneratedBy
	return c
}

// JSON renders a catalog as tools.json is written.
func JSON(c *Catalog) ([]byte, error) { return CanonicalJSON(c) }

// CanonicalJSON is the one JSON writer of every generated file: object keys sorted (struct
// fields included), 2-space indent, no HTML escaping, numbers kept exactly, a trailing newline.
func CanonicalJSON(v any) ([]byte, error) {
	raw, err := envelope.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return envelope.MarshalValueIndent(tree, "  ")
}
