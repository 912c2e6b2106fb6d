package mcp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
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
	// Structured publishes each tool's output schema, and answers a call whose output is json
	// with the envelope as structuredContent and a one-line text. Off, tools/list carries the
	// input schemas only and every result is text.
	Structured bool
	// DefaultOutput is the output format of a call that does not name one: compact when empty.
	DefaultOutput string
	// Toolsets, when set, are the command namespaces whose tools are served (report,
	// holdings, ...); "all", or none, serves every tool.
	Toolsets []string
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
	reg, err := newRegistry(&registry.Deps{ReadFile: roots.ReadFile, ReadDir: roots.ReadDir, Stdin: protocolStdin{}, Today: registry.LocalToday})
	if err != nil {
		return nil, err
	}
	cat := servedCatalog(catalog.Own(reg))
	output := opts.DefaultOutput
	if output == "" {
		output = "compact"
	}
	defaults := agentDefaults(output)
	tools, err := AgentTools(cat, defaults, opts.Structured)
	if err != nil {
		return nil, err
	}
	if tools, err = inToolsets(tools, opts.Toolsets); err != nil {
		return nil, err
	}
	catJSON, err := catalog.JSON(catalog.Own(reg)) // byte for byte the committed tools.json
	if err != nil {
		return nil, err
	}
	// The files under the roots are listed again on each resources/list (rootfiles.go).
	lister := &rootLister{roots: roots}
	hooks := &server.Hooks{}
	hooks.AddBeforeListResources(func(context.Context, any, *mcpgo.ListResourcesRequest) { lister.refresh() })
	s := newMCPServer("cgt", opts.Version, instructions(roots)+sharedArgsNote(sharedArgs(cat)), tools, registryRunner{reg: reg, structured: opts.Structured, defaults: defaults},
		server.WithHooks(hooks), server.WithPromptCapabilities(false),
		server.WithResourceHandlerMiddleware(boundedResources), server.WithPromptHandlerMiddleware(boundedPrompts))
	addResources(s, cgtResources(catJSON))
	lister.s = s
	lister.refresh()
	addPrompts(s, tools)
	return s, nil
}

// servedCatalog is the catalog without the commands the servers never offer (a side-effect
// level that is the command line's only: fx.update, which uses the network and writes cgt's
// cache, is run by a person, never by an agent on its own). The catalog published as a
// resource is built again in full from the registry.
func servedCatalog(c *catalog.Catalog) *catalog.Catalog {
	served := *c
	served.Commands = nil
	for _, cmd := range c.Commands {
		if registry.SideEffect(cmd.SideEffects).Served() {
			served.Commands = append(served.Commands, cmd)
		}
	}
	return &served
}

// AgentTools turns catalog commands into the tools an agent front end publishes: a
// description of one or two sentences saying when to use the tool (the long guidance is in
// the cgt://docs resources and llms-full.txt), the input schema with the front end's defaults
// and the shared arguments' descriptions left to the instructions (shared.go), and the output
// schema only when structured.
func AgentTools(cat *catalog.Catalog, defaults map[string]any, structured bool) ([]Tool, error) {
	tools, err := CatalogTools(cat)
	if err != nil {
		return nil, err
	}
	names := toolNameReplacer(cat)
	shared := sharedArgs(cat)
	for i, c := range cat.Commands {
		t := &tools[i]
		t.Description = names.Replace(brief(c.Summary, c.Agent.UseWhen))
		t.Title = "" // the description starts with it: said once
		in, err := marshalJSON(withShortEnums(withoutSharedDescriptions(lighten(withDefaults(c.InputSchema, defaults)), shared)))
		if err != nil {
			return nil, fmt.Errorf("input schema of %s: %w", c.Name, err)
		}
		t.InputSchema = in
		if !structured {
			t.OutputSchema = nil
		}
	}
	return tools, nil
}

// brief is the tool description: the summary, and when to use the tool.
func brief(summary, useWhen string) string {
	summary = strings.TrimSuffix(strings.TrimSpace(summary), ".")
	if useWhen = strings.TrimSpace(useWhen); useWhen == "" {
		return summary + "."
	}
	useWhen = strings.TrimPrefix(strings.TrimPrefix(useWhen, "Use when "), "use when ")
	if len(useWhen) > 1 && useWhen[0] >= 'A' && useWhen[0] <= 'Z' && useWhen[1] >= 'a' && useWhen[1] <= 'z' {
		useWhen = strings.ToLower(useWhen[:1]) + useWhen[1:] // "Checking ..." reads on from "Use when"
	}
	return summary + ". Use when " + useWhen
}

// withDefaults returns an input schema whose properties show the front end's defaults
// (default output compact over MCP, where the command line's is json).
func withDefaults(schema map[string]any, defaults map[string]any) map[string]any {
	return eachProperty(schema, func(name string, p map[string]any) {
		if d, ok := defaults[name]; ok {
			p["default"] = d
		}
	})
}

// eachProperty returns a copy of schema in which edit has changed a copy of each property's
// schema; schema itself is left as it is (it is shared by every front end).
func eachProperty(schema map[string]any, edit func(name string, p map[string]any)) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		return schema
	}
	out := maps.Clone(schema)
	np := make(map[string]any, len(props))
	for k, v := range props {
		np[k] = v
		if p, ok := v.(map[string]any); ok {
			q := maps.Clone(p)
			edit(k, q)
			np[k] = q
		}
	}
	out["properties"] = np
	return out
}

// inToolsets keeps the tools whose command is in one of the namespaces named; none, or
// "all", keeps every tool. A name that is no namespace is an error listing those there are.
func inToolsets(tools []Tool, sets []string) ([]Tool, error) {
	if len(sets) == 0 || slices.Contains(sets, "all") {
		return tools, nil
	}
	var names []string
	for _, t := range tools {
		if ns, _, _ := strings.Cut(t.Command, "."); !slices.Contains(names, ns) {
			names = append(names, ns)
		}
	}
	for _, s := range sets {
		if !slices.Contains(names, s) {
			return nil, fmt.Errorf("--toolsets: no toolset %q (toolsets: %s, or all)", s, strings.Join(names, ", "))
		}
	}
	return slices.DeleteFunc(slices.Clone(tools), func(t Tool) bool {
		ns, _, _ := strings.Cut(t.Command, ".")
		return !slices.Contains(sets, ns)
	}), nil
}

// lighten returns an input schema as a model needs to read it: names, types, enums, defaults
// and descriptions. A choice between plain types ({"oneOf":[{"type":"string"},{"type":"array"}]})
// is written as a list of types, and the keywords that only validate (bounds, lengths,
// patterns, formats, additionalProperties) are left out, as is the type of an argument whose
// values are listed (enum): the descriptions say the form, and the server checks every call
// against the full schema (published in tools.json), answering an unknown argument with the
// names it takes.
func lighten(schema map[string]any) map[string]any {
	schema = eachProperty(schema, func(_ string, p map[string]any) {
		for _, kw := range validationOnly {
			delete(p, kw)
		}
		alts, _ := p["oneOf"].([]any)
		types := make([]any, 0, len(alts))
		for _, a := range alts {
			am, _ := a.(map[string]any)
			if t, ok := am["type"].(string); ok {
				types = append(types, t)
			}
		}
		if len(alts) > 0 && len(types) == len(alts) {
			delete(p, "oneOf")
			p["type"] = types
		}
		if p["enum"] != nil {
			delete(p, "type") // the values say it
		}
	})
	delete(schema, "additionalProperties") // validation only: an unknown argument is refused by name
	return schema
}

// validationOnly are the keywords lighten leaves out.
var validationOnly = []string{"minimum", "maximum", "minLength", "maxLength", "minItems", "pattern", "format"}

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
func newMCPServer(name, version, instructions string, tools []Tool, run Runner, more ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer(name, version, append([]server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithInstructions(instructions),
		server.WithRecovery(),
	}, more...)...)
	st := make([]server.ServerTool, len(tools))
	for i, t := range tools {
		st[i] = serverTool(t, run)
	}
	s.AddTools(st...)
	registerDirect(s, tools, run)
	return s
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
