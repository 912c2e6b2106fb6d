package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// Options configure the cgt MCP server.
type Options struct {
	// Version is reported in the initialize result.
	Version string
	// Roots are the directories whose files `path` arguments may name. None means the server
	// reads no files and ledgers must be passed inline.
	Roots []string
}

// NewRegistryFunc builds cgt's registry with the dependencies a front end supplies
// (commands.NewRegistry).
type NewRegistryFunc func(deps *registry.Deps) (*registry.Registry, error)

// New builds the MCP server for cgt: one tool per catalog command, dispatched through
// registry.Execute, and the documentation and catalog as resources.
func New(newRegistry NewRegistryFunc, opts Options) (*server.MCPServer, error) {
	roots, err := NewRoots(opts.Roots)
	if err != nil {
		return nil, err
	}
	reg, err := newRegistry(&registry.Deps{ReadFile: roots.ReadFile, ReadDir: roots.ReadDir, Stdin: protocolStdin{}})
	if err != nil {
		return nil, err
	}
	cat := catalog.Own(reg)
	tools, err := CatalogTools(cat)
	if err != nil {
		return nil, err
	}
	catJSON, err := catalog.JSON(cat) // byte for byte the committed tools.json
	if err != nil {
		return nil, err
	}
	s := newMCPServer("cgt", opts.Version, instructions(roots), tools, registryRunner{reg})
	addResources(s, cgtResources(catJSON))
	return s, nil
}

// CatalogTools turns catalog commands into tools: MCP names, the description with the
// agent's routing hints, and the schemas as published.
func CatalogTools(cat *catalog.Catalog) ([]Tool, error) {
	tools := make([]Tool, 0, len(cat.Commands))
	toToolNames := toolNameReplacer(cat)
	for _, c := range cat.Commands {
		in, err := marshalJSON(c.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("input schema of %s: %w", c.Name, err)
		}
		out, err := marshalJSON(c.OutputSchema)
		if err != nil {
			return nil, fmt.Errorf("output schema of %s: %w", c.Name, err)
		}
		name := c.MCPName
		if name == "" {
			name = ToolName(c.Name)
		}
		tools = append(tools, Tool{Command: c.Name, Name: name, Title: c.Summary,
			Description: toToolNames.Replace(describe(c.Description, c.Agent.UseWhen, c.Agent.AvoidWhen, c.Agent.NextSteps)),
			InputSchema: in, OutputSchema: out, SideEffects: c.SideEffects})
	}
	return tools, checkNames(tools)
}

// toolNameReplacer rewrites command names (report.calculate) to the tool names a model sees
// (calculate_report), so hints written for the CLI name real tools here.
func toolNameReplacer(cat *catalog.Catalog) *strings.Replacer { return ToolNames(cat) }

// ToolNames is the replacer that writes command names as tool names in text a model reads.
func ToolNames(cat *catalog.Catalog) *strings.Replacer {
	var pairs []string
	for _, c := range cat.Commands {
		if c.MCPName != "" && c.MCPName != c.Name {
			pairs = append(pairs, "`"+c.Name+"`", c.MCPName, c.Name, c.MCPName)
		}
	}
	return strings.NewReplacer(pairs...)
}

// describe appends the routing hints to a description so the model sees them when choosing.
func describe(desc, useWhen, avoidWhen string, next []string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(desc))
	if useWhen = strings.TrimSpace(useWhen); useWhen != "" {
		b.WriteString("\n\nUse when: " + useWhen)
	}
	if avoidWhen = strings.TrimSpace(avoidWhen); avoidWhen != "" {
		b.WriteString("\nAvoid when: " + avoidWhen)
	}
	if len(next) > 0 {
		b.WriteString("\nNext: " + strings.Join(next, ", "))
	}
	return b.String()
}

// checkNames rejects names some clients would refuse, and duplicates.
func checkNames(tools []Tool) error {
	seen := map[string]string{}
	for _, t := range tools {
		if !toolNamePattern.MatchString(t.Name) {
			return fmt.Errorf("tool name %q of %s does not match %s", t.Name, t.Command, toolNamePattern)
		}
		if prev, dup := seen[t.Name]; dup {
			return fmt.Errorf("tool name %q is used by both %s and %s", t.Name, prev, t.Command)
		}
		seen[t.Name] = t.Command
	}
	return nil
}

// newMCPServer declares the capabilities (tools and resources, both fixed for the session) and
// registers every tool with the generic handler.
func newMCPServer(name, version, instructions string, tools []Tool, run Runner) *server.MCPServer {
	s := server.NewMCPServer(name, version,
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithInstructions(instructions),
		server.WithRecovery(),
	)
	st := make([]server.ServerTool, len(tools))
	for i, t := range tools {
		st[i] = serverTool(t, run)
	}
	s.AddTools(st...)
	return s
}

// registryRunner runs cgt commands in-process.
type registryRunner struct{ reg *registry.Registry }

func (r registryRunner) Run(ctx context.Context, t Tool, args json.RawMessage) ([]byte, bool) {
	res := r.reg.Execute(ctx, t.Command, args)
	return envelope.MarshalCompact(res), res.OK
}

// protocolStdin stands in for standard input, which carries the protocol and is never a ledger.
type protocolStdin struct{}

func (protocolStdin) Read([]byte) (int, error) {
	return 0, envelope.New(envelope.PermissionDenied, "standard input carries the MCP protocol and cannot be read as a ledger",
		"Pass the ledger text in cgt_content.")
}

var _ io.Reader = protocolStdin{}

// marshalJSON writes JSON without HTML escaping, so schemas and documents read as written.
func marshalJSON(v any) ([]byte, error) {
	return envelope.Marshal(v)
}
