//go:build js

package commands

import (
	_ "embed"
	"errors"
)

// The browser module embeds the argument schemas of the five commands it registers
// (schemas/<command>.input.json), which check every request; not the others', nor the result
// schemas (.data.json), which serve the catalog, the MCP tool list and the generated
// contracts, none of which the page links. Plain strings, not an embed.FS: the module then
// does not link the file system's code for them (5 KB gzipped with the seven unused schemas).
// TestBrowserSchemasAreThoseOfItsCommands checks the list against browser_js.go.
var (
	//go:embed schemas/transactions.import.input.json
	importInput string
	//go:embed schemas/report.calculate.input.json
	reportInput string
	//go:embed schemas/plan.allowance.input.json
	allowanceInput string
	//go:embed schemas/plan.harvest.input.json
	harvestInput string
	//go:embed schemas/plan.sale.input.json
	saleInput string
)

// browserSchemas are the embedded schemas with their commands' names.
var browserSchemas = [...]struct {
	command string
	text    *string
}{
	{"transactions.import", &importInput},
	{"report.calculate", &reportInput},
	{"plan.allowance", &allowanceInput},
	{"plan.harvest", &harvestInput},
	{"plan.sale", &saleInput},
}

// schemaFiles reads the schemas the module embeds, by their path under commands/.
var schemaFiles embeddedSchemas

type embeddedSchemas struct{}

func (embeddedSchemas) ReadFile(path string) ([]byte, error) {
	for _, s := range browserSchemas {
		if path == SchemaPath(s.command, "input") {
			return []byte(*s.text), nil
		}
	}
	return nil, errors.New(path + ": not in the browser module")
}
