package gen

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// zipTime is the modification time of every entry in the skills zip, so that two builds are
// byte-identical.
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

const skillDir = "skills/cgt/"

// SkillFiles are the documents of the cgt skill, by path inside the zip.
func SkillFiles(c *catalog.Catalog, reg *registry.Registry) map[string][]byte {
	return map[string][]byte{
		skillDir + "SKILL.md":     skillMD(c),
		skillDir + "routing.md":   routingMD(c),
		skillDir + "playbooks.md": playbooksMD(c),
		skillDir + "trust.md":     trustMD(c),
		skillDir + "reference.md": referenceMD(c, reg),
	}
}

// Skills renders the skills zip: the skill's files, sorted, stored uncompressed with fixed
// modification times, so the archive is the same bytes on every build.
func Skills(files map[string][]byte) ([]byte, error) {
	names := sortedKeys(files)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		h := &zip.FileHeader{Name: name, Method: zip.Store, Modified: zipTime}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func skillMD(c *catalog.Catalog) []byte {
	var b strings.Builder
	desc := "Compute UK Capital Gains Tax on shares and funds with cgt: the SA108 figures per tax year, " +
		"how each sale was matched (same day, 30 days, Section 104 pool), HMRC monthly exchange rates and holdings. " +
		"Use when a person asks about capital gains, losses or the capital gains pages of a UK Self Assessment return for shares or funds."
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\n---\n\n<!-- %s -->\n\n", c.Name, yamlString(desc), textHeader)
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", c.Name, c.Description)
	b.WriteString("## How to call it\n\n")
	b.WriteString("- CLI: `cgt COMMAND [POSITIONAL...] [key=value...] --output json` prints the result envelope; exit status 0 ok, 1 ok=false, 2 usage error.\n")
	b.WriteString("- MCP: `cgt mcp` serves every command as a tool (names below); pass a ledger inline as `cgt_content`.\n")
	b.WriteString("- `cgt help COMMAND` gives a command's arguments and examples.\n\n")
	b.WriteString("Every result is `{ok, data, error, warnings}`: branch on ok; quote error.code, message and hint when it is false; pass on every warning.\n\n")
	b.WriteString("## Commands\n\n| command | MCP tool | use when |\n|---|---|---|\n")
	for _, cmd := range c.Commands {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", cmd.Name, cmd.MCPName, cell(cmd.Agent.UseWhen))
	}
	b.WriteString("\n## Rules you keep\n\n")
	fmt.Fprintf(&b, "%s\n\n", c.TrustPolicy["summary"])
	b.WriteString("## More\n\n")
	b.WriteString("- [routing.md](routing.md): which command for which question, and when not to use it\n")
	b.WriteString("- [playbooks.md](playbooks.md): step-by-step tasks (SA108 figures, a surprising gain, a foreign-currency trade, reconciling holdings)\n")
	b.WriteString("- [trust.md](trust.md): what to cite, and what never to invent\n")
	b.WriteString("- [reference.md](reference.md): the envelope, error codes, output formats and every command's arguments\n")
	return []byte(b.String())
}

func routingMD(c *catalog.Catalog) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n# Routing\n\n", textHeader)
	for _, cmd := range c.Commands {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", cmd.Name, sentence(cmd.Summary))
		fmt.Fprintf(&b, "- MCP tool: `%s`\n- Use when: %s\n- Avoid when: %s\n- Next steps: %s\n- Side effects: `%s`\n\n",
			cmd.MCPName, orNone(cmd.Agent.UseWhen), orNone(cmd.Agent.AvoidWhen), orNone(codeList(cmd.Agent.NextSteps)), cmd.SideEffects)
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

func playbooksMD(c *catalog.Catalog) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n# Playbooks\n\n", textHeader)
	playbooksSection(&b, c.Playbooks, "##")
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

func trustMD(c *catalog.Catalog) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n# Trust rules\n\n", textHeader)
	bulletList(&b, trustLines(c.TrustPolicy))
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

func referenceMD(c *catalog.Catalog, reg *registry.Registry) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n# Reference\n\n", textHeader)
	envelopeSection(&b, "##")
	errorCodesSection(&b, c)
	outputFormatsSection(&b, c)
	b.WriteString("## Commands\n\n")
	for _, cmd := range reg.Commands() {
		commandReference(&b, cmd)
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}
