package gen

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// Contract is one published contract file: where it lives in the repository, its name in
// docs-site/public/ (and so its URL on the site), and what it is.
type Contract struct {
	Repo  string
	Site  string
	About string
}

// Contracts are the contract files, each committed at Repo and copied to docs-site/public/Site.
var Contracts = []Contract{
	{"tools.json", "tools.json", "Every command with its arguments, input and output JSON Schemas, side effects, citation fields and agent hints; the envelope, error codes, output formats, trust policy and playbooks."},
	{"openapi.json", "openapi.json", "OpenAPI 3.1: one POST /commands/{name} per command, request = arguments, response = result envelope."},
	{"llms-full.txt", "llms-full.txt", "The full reference for agents: envelope, error codes, output formats, trust rules, playbooks and every command."},
	{"schemas/cgt-tools.schema.json", "cgt-tools.schema.json", "JSON Schema (draft 2020-12) that tools.json validates against."},
	{"skills/cgt-skills.zip", "cgt-skills.zip", "A skill for agents that load local skills: skills/cgt/SKILL.md with routing, playbooks and trust rules."},
}

// Links says where llms.txt points: at repository paths (the committed llms.txt) or at site
// URLs (the copy the docs site serves).
type Links struct {
	Site bool
}

func (l Links) contract(c Contract) string {
	if l.Site {
		return "/" + c.Site
	}
	return c.Repo
}

func (l Links) command(name string) string {
	if l.Site {
		return CommandPageURL(name)
	}
	return CommandPagePath(name)
}

func (l Links) guide(g Guide) string {
	if l.Site {
		return g.URL
	}
	return g.Source
}

// LLMs renders llms.txt: what cgt is, which command answers which question, and links to the
// contract files and to the guides that exist.
func LLMs(c *catalog.Catalog, guides []Guide, links Links) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n> %s\n\n%s.\n\n", c.Name, c.Description, capitalize(textHeader))
	b.WriteString("Every command returns the envelope {ok, data, error, warnings}; branch on ok, surface error.code and every warning. " +
		"Run a command as `cgt COMMAND [args] --output json`, or call its MCP tool (`cgt mcp`).\n\n")
	b.WriteString("## Routing: which command answers which question\n\n")
	for _, cmd := range c.Commands {
		fmt.Fprintf(&b, "- `%s` (MCP `%s`): %s Use when: %s\n", cmd.Name, cmd.MCPName, sentence(cmd.Summary), cmd.Agent.UseWhen)
	}
	b.WriteString("\n## Contract\n\n")
	for _, f := range Contracts {
		fmt.Fprintf(&b, "- [%s](%s): %s\n", f.Site, links.contract(f), f.About)
	}
	b.WriteString("\n## Commands\n\n")
	for _, cmd := range c.Commands {
		fmt.Fprintf(&b, "- [%s](%s): %s\n", cmd.Name, links.command(cmd.Name), sentence(cmd.Summary))
	}
	if len(guides) > 0 {
		b.WriteString("\n## Guides\n\n")
		for _, g := range guides {
			fmt.Fprintf(&b, "- [%s](%s): %s\n", g.Title, links.guide(g), g.Description)
		}
	}
	b.WriteString("\n## Trust rules\n\n")
	bulletList(&b, trustLines(c.TrustPolicy))
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

// LLMsFull renders llms-full.txt: the envelope, error codes, output formats, trust rules,
// playbooks and, per command, when to use it, its arguments, usage and examples.
func LLMsFull(c *catalog.Catalog, reg *registry.Registry) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: the full reference for agents\n\n> %s\n\n%s.\n\n", c.Name, c.Description, capitalize(textHeader))
	envelopeSection(&b, "##")
	errorCodesSection(&b, c)
	outputFormatsSection(&b, c)
	b.WriteString("## Trust rules\n\n")
	bulletList(&b, trustLines(c.TrustPolicy))
	b.WriteString("## Playbooks\n\n")
	playbooksSection(&b, c.Playbooks, "###")
	b.WriteString("## Commands\n\n")
	for _, cmd := range reg.Commands() {
		commandReference(&b, cmd)
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

func envelopeSection(b *strings.Builder, level string) {
	fmt.Fprintf(b, "%s Result envelope\n\n", level)
	b.WriteString("Every command, in every front end (CLI, MCP, tool-cli, HTTP), returns exactly this object:\n\n")
	fence(b, "json", `{"ok": true, "data": {...}, "error": null, "warnings": ["..."]}
{"ok": false, "data": null, "error": {"code": "parse_error", "message": "line 3: ...", "hint": "...", "examples": ["..."], "context": {"line": 3}}, "warnings": []}`)
	b.WriteString("- `ok`: branch on it. `data` follows the command's output_schema in tools.json.\n" +
		"- `error.code` is a stable code (below); `error.context` carries line, column, file and value for ledger errors, and what exists for not_found.\n" +
		"- `warnings` are never dropped by any output mode; pass them on.\n" +
		"- Money is a GBP string with 2 decimals; quantities and rates are exact decimal strings.\n" +
		"- CLI exit status: 0 ok, 1 ok=false, 2 usage error. The result goes to stdout in every case.\n\n")
}

func errorCodesSection(b *strings.Builder, c *catalog.Catalog) {
	b.WriteString("## Error codes\n\n| code | exit | retryable | meaning |\n|---|---|---|---|\n")
	for _, e := range c.ErrorCodes {
		fmt.Fprintf(b, "| `%s` | %d | %s | %s |\n", e.Code, e.ExitCode, yesNo(e.Retryable), cell(e.Description))
	}
	b.WriteString("\n")
}

func outputFormatsSection(b *strings.Builder, c *catalog.Catalog) {
	b.WriteString("## Output formats (`--output`)\n\n")
	for _, f := range c.OutputFormats {
		fmt.Fprintf(b, "- `%s`: %s Parse: %s\n", f.Name, f.Description, f.Parse)
	}
	b.WriteString("\n`--fields a,b`, `--max-records N` and `--max-chars N` apply to compact, schema and records; truncation is at record boundaries and says so.\n\n")
}

// commandReference writes one command's full entry.
func commandReference(b *strings.Builder, cmd registry.Command) {
	m := cmd.Meta()
	fmt.Fprintf(b, "### %s\n\n%s\n\n", m.Name, m.Description)
	fmt.Fprintf(b, "- MCP tool: `%s`; HTTP: `POST %s`\n", m.MCPName, CommandPath(m.Name))
	fmt.Fprintf(b, "- Use when: %s\n", orNone(strings.Join(m.Agent.UseWhen, " ")))
	fmt.Fprintf(b, "- Avoid when: %s\n", orNone(strings.Join(m.Agent.AvoidWhen, " ")))
	fmt.Fprintf(b, "- Side effects: `%s`: %s\n", m.SideEffects, m.SideEffects.Description())
	fmt.Fprintf(b, "- Citation fields: %s\n", orNone(codeList(m.CitationFields)))
	fmt.Fprintf(b, "- Next steps: %s\n\n", orNone(codeList(m.Agent.NextSteps)))
	fmt.Fprintf(b, "Usage: `%s`\n\n", m.Usage)
	argsTable(b, cmd.Args())
	b.WriteString("Examples:\n\n")
	var ex strings.Builder
	for i, line := range catalog.ExampleLines(m) {
		fmt.Fprintf(&ex, "# %s\n%s\n", m.Examples[i].Description, line)
	}
	fence(b, "sh", ex.String())
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence ends a summary with a full stop.
func sentence(s string) string {
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}
