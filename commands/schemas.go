package commands

import (
	"fmt"
	"reflect"

	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// Schemas is the registry's schema source in the programs that serve commands: the files cgt
// gen wrote.
var Schemas registrySchemas

type registrySchemas struct{}

// SchemaPath is where cgt gen writes a command's schema for role "input" or "data".
func SchemaPath(command, role string) string { return "schemas/" + command + "." + role + ".json" }

// Schema reads the committed schema of command for role.
func (registrySchemas) Schema(command, role string, _ reflect.Type) (map[string]any, error) {
	b, err := schemaFiles.ReadFile(SchemaPath(command, role))
	if err != nil {
		return nil, fmt.Errorf("no %s schema for %s: run make gen after adding or changing a command", role, command)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", SchemaPath(command, role), err)
	}
	delete(m, "x-generated-by")
	return m, nil
}
