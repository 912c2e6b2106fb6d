// Package catalog builds the machine contract of cgt — the data published as tools.json — from
// the registry alone, and reads catalogs back (cgt's own, or any Finance-CLI-style tools.json)
// for the front ends that are driven by a catalog rather than by Go types.
package catalog

import (
	"strings"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// SchemaID is the $id of the JSON Schema that tools.json validates against, and the value of
// tools.json's $schema.
const SchemaID = "https://cgt-tools.github.io/cgt/cgt-tools.schema.json"

// Catalog is tools.json.
type Catalog struct {
	Schema           string              `json:"$schema"`
	GeneratedBy      string              `json:"x-generated-by,omitempty"`
	Name             string              `json:"name"`
	Version          string              `json:"version"`
	Description      string              `json:"description"`
	ResultEnvelope   map[string]any      `json:"result_envelope"`
	ErrorCodes       []envelope.CodeInfo `json:"error_codes"`
	RecordSchema     map[string]any      `json:"record_schema"`
	OutputFormats    []OutputFormat      `json:"output_formats"`
	SideEffectLevels map[string]string   `json:"side_effect_levels"`
	TrustPolicy      map[string]any      `json:"trust_policy"`
	Playbooks        []Playbook          `json:"playbooks"`
	Commands         []Command           `json:"commands"`
}

// OutputFormat says how to parse one --output rendering.
type OutputFormat = records.OutputFormat

// Playbook is a multi-step task an agent can follow; steps name registered commands.
type Playbook struct {
	Task         string   `json:"task"`
	When         string   `json:"when"`
	Steps        []string `json:"steps"`
	FailureModes []string `json:"failure_modes"`
}

// Command is one command's entry.
type Command struct {
	Name                   string                      `json:"name"`
	MCPName                string                      `json:"mcp_name,omitempty"`
	Namespace              string                      `json:"namespace"`
	Summary                string                      `json:"summary,omitempty"`
	Description            string                      `json:"description"`
	Usage                  string                      `json:"usage"`
	Examples               []string                    `json:"examples"`
	Args                   map[string]registry.ArgSpec `json:"args"`
	InputSchema            map[string]any              `json:"input_schema"`
	OutputSchema           map[string]any              `json:"output_schema"`
	SideEffects            string                      `json:"side_effects"`
	SideEffectsDescription string                      `json:"side_effects_description"`
	AuthRequired           string                      `json:"auth_required"`
	RateLimitNotes         string                      `json:"rate_limit_notes"`
	CitationFields         []string                    `json:"citation_fields"`
	Agent                  Agent                       `json:"agent"`
}

// Agent holds the routing hints of a command.
type Agent struct {
	UseWhen   string   `json:"use_when"`
	AvoidWhen string   `json:"avoid_when"`
	NextSteps []string `json:"next_steps"`
}

// Info is the product-level part of the catalog that does not come from commands.
type Info struct {
	Name        string
	Version     string
	Description string
	TrustPolicy map[string]any
	Playbooks   []Playbook
}

// Build derives the catalog from the registry.
func Build(reg *registry.Registry, info Info) *Catalog {
	c := &Catalog{
		Schema:           SchemaID,
		Name:             info.Name,
		Version:          info.Version,
		Description:      info.Description,
		ResultEnvelope:   registry.EnvelopeSchema(map[string]any{"description": "command-specific result; see each command's output_schema"}),
		ErrorCodes:       envelope.Codes,
		RecordSchema:     RecordSchema(),
		OutputFormats:    OutputFormats,
		SideEffectLevels: map[string]string{},
		TrustPolicy:      info.TrustPolicy,
		Playbooks:        info.Playbooks,
	}
	for _, l := range registry.SideEffectLevels {
		c.SideEffectLevels[string(l.Level)] = l.Description
	}
	for _, cmd := range reg.Commands() {
		c.Commands = append(c.Commands, commandEntry(cmd))
	}
	return c
}

func commandEntry(cmd registry.Command) Command {
	m := cmd.Meta()
	args := map[string]registry.ArgSpec{}
	for _, a := range cmd.Args() {
		args[a.Name] = a
	}
	auth := "none"
	if m.AuthRequired {
		auth = "required"
	}
	return Command{
		Name: m.Name, MCPName: m.MCPName, Namespace: m.Namespace(), Summary: m.Summary,
		Description: m.Description, Usage: m.Usage, Examples: ExampleLines(m),
		Args: args, InputSchema: cmd.InputSchema(), OutputSchema: registry.OutputSchema(cmd),
		SideEffects: string(m.SideEffects), SideEffectsDescription: m.SideEffects.Description(),
		AuthRequired: auth, RateLimitNotes: m.RateLimitNotes, CitationFields: nonNil(m.CitationFields),
		Agent: Agent{UseWhen: strings.Join(m.Agent.UseWhen, " "), AvoidWhen: strings.Join(m.Agent.AvoidWhen, " "),
			NextSteps: nonNil(m.Agent.NextSteps)},
	}
}

// ExampleLines renders a command's examples as the command lines a user types.
func ExampleLines(m *registry.Meta) []string {
	out := make([]string, 0, len(m.Examples))
	for _, e := range m.Examples {
		out = append(out, "cgt "+m.Name+" "+registry.ShellJoin(e.Args))
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
