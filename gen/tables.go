package gen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/registry"
)

// A hand-written page may hold generated tables between a pair of marker lines:
//
//	<!-- START AUTOMATED COMMANDS -->
//	...
//	<!-- END AUTOMATED COMMANDS -->
//
// `cgt gen` rewrites what lies between them from the registry and leaves the rest alone, so a
// list of commands can sit in prose that people edit without going stale.
const (
	markerStart = "<!-- START AUTOMATED %s -->"
	markerEnd   = "<!-- END AUTOMATED %s -->"
)

// markedPages are the hand-written pages with generated regions, and what fills each region.
var markedPages = []struct {
	path    string
	regions map[string]func(*catalog.Catalog) string
}{
	{"README.md", map[string]func(*catalog.Catalog) string{"COMMANDS": commandTable, "SYNOPSIS": commandSynopsis, "FORMATS": formatTable, "IMPORTERS": importerParagraph}},
	{"docs-site/src/content/docs/guides/mcp-setup.md", map[string]func(*catalog.Catalog) string{"TOOLS": toolTable, "TOOLSETS": toolsetTable}},
	{"docs-site/src/content/docs/guides/brokers/index.md", map[string]func(*catalog.Catalog) string{"IMPORTERS": importerTable}},
}

// addMarkedPages fills the generated regions of the marked pages that exist.
func addMarkedPages(reg *registry.Registry, c *catalog.Catalog, files map[string][]byte) error {
	read := reg.Deps().ReadFile
	if read == nil {
		return nil
	}
	for _, p := range markedPages {
		src, err := read(p.path)
		if err != nil {
			continue // a checkout without the page (tests building in memory)
		}
		for name, fill := range p.regions {
			if src, err = fillRegion(src, name, fill(c)); err != nil {
				return fmt.Errorf("%s: %w", p.path, err)
			}
		}
		files[p.path] = src
	}
	return nil
}

// fillRegion replaces the lines between the START and END markers of name with body.
func fillRegion(src []byte, name, body string) ([]byte, error) {
	start, end := []byte(fmt.Sprintf(markerStart, name)), []byte(fmt.Sprintf(markerEnd, name))
	i, j := bytes.Index(src, start), bytes.Index(src, end)
	if i < 0 || j < i {
		return nil, fmt.Errorf("the markers %s ... %s are missing or out of order", start, end)
	}
	var out bytes.Buffer
	out.Write(src[:i+len(start)])
	out.WriteString("\n" + body)
	out.Write(src[j:])
	return out.Bytes(), nil
}

// commandSynopsis is the README's synopsis: each command's usage line as `cgt help` gives it,
// in a code block.
func commandSynopsis(c *catalog.Catalog) string {
	var b strings.Builder
	b.WriteString("```\n")
	b.WriteString("cgt                                   the commands, by namespace\n")
	b.WriteString("cgt help COMMAND                      usage, arguments, examples\n")
	for _, cmd := range c.Commands {
		b.WriteString(strings.TrimSpace(cmd.Usage) + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

// commandTable is the README's table of commands: name, MCP tool, what it does.
func commandTable(c *catalog.Catalog) string {
	var b strings.Builder
	b.WriteString("| command | MCP tool | what it does |\n|---|---|---|\n")
	for _, cmd := range c.Commands {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", cmd.Name, cmd.MCPName, tableCell(cmd.Summary))
	}
	return b.String()
}

// toolTable is the MCP guide's table: tool, command, side effects.
func toolTable(c *catalog.Catalog) string {
	var b strings.Builder
	b.WriteString("| Tool | Command | Side effects |\n|---|---|---|\n")
	for _, cmd := range c.Commands {
		if !registry.SideEffect(cmd.SideEffects).Served() {
			continue // command line only (fx.update): the servers do not list it
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", cmd.MCPName, cmd.Name, cmd.SideEffects)
	}
	return b.String()
}

// toolsetTable is the MCP guide's table of the names --toolsets takes: each namespace of the
// served commands, in the registry's order, with its tools (as cgt mcp --help lists them).
func toolsetTable(c *catalog.Catalog) string {
	var names []string
	tools := map[string][]string{}
	for _, cmd := range c.Commands {
		if !registry.SideEffect(cmd.SideEffects).Served() {
			continue
		}
		ns, _, _ := strings.Cut(cmd.Name, ".")
		if tools[ns] == nil {
			names = append(names, ns)
		}
		tools[ns] = append(tools[ns], "`"+cmd.MCPName+"`")
	}
	var b strings.Builder
	b.WriteString("| `--toolsets` name | Tools |\n|---|---|\n")
	for _, ns := range names {
		fmt.Fprintf(&b, "| `%s` | %s |\n", ns, strings.Join(tools[ns], ", "))
	}
	return b.String()
}

func tableCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "|", `\|`), "\n", " ")
}

// formatTable is the README's table of --output formats.
func formatTable(c *catalog.Catalog) string {
	var b strings.Builder
	b.WriteString("| `--output` | for | what it is |\n|---|---|---|\n")
	for _, f := range c.OutputFormats {
		who := "people"
		if f.MachineReadable {
			who = "programs and agents"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, who, tableCell(f.Description))
	}
	return b.String()
}

// importerParagraph is the README's sentence listing the broker formats, from the importer
// list (cgt/imports.All), so that a new importer appears in it.
func importerParagraph(*catalog.Catalog) string {
	all := imports.All()
	parts := make([]string, len(all))
	for i, im := range all {
		parts[i] = fmt.Sprintf("%s (`%s`)", im.Title, im.Name)
	}
	last := len(parts) - 1
	return "Formats: " + strings.Join(parts[:last], ", ") + " and " + parts[last] + ".\n"
}

// importerTable is the brokers overview's table: broker= name, export, the broker's page.
func importerTable(*catalog.Catalog) string {
	var b strings.Builder
	b.WriteString("| `broker=` | Export | Page |\n|---|---|---|\n")
	for _, im := range imports.All() {
		fmt.Fprintf(&b, "| `%s` | %s | [%s](/guides/brokers/%s/) |\n", im.Name, tableCell(im.Title), im.Broker, im.Page)
	}
	return b.String()
}
