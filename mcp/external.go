package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/server"
)

// ExternalOptions configure a server for another program's Finance-CLI-style catalog.
type ExternalOptions struct {
	// Catalog is the text of the program's tools.json.
	Catalog []byte
	// Program is run once per call as `Program COMMAND key=value... --output json`.
	Program string
	// Allow lists the side-effect labels that may run besides pure_calculation.
	Allow []string
	// Version is reported in the initialize result when the catalog has none.
	Version string
	// Structured publishes the catalog's output schemas and carries each envelope as
	// structuredContent too; without it results are the envelope as JSON text only.
	Structured bool
}

// PureCalculation is the one side-effect label a catalog server runs without --allow.
const PureCalculation = "pure_calculation"

// NewExternal builds an MCP server that publishes every command of a Finance-CLI-style catalog
// and runs each call through the program, returning its envelope unchanged.
func NewExternal(opts ExternalOptions) (*server.MCPServer, error) {
	cat, err := LoadCatalog(opts.Catalog)
	if err != nil {
		return nil, err
	}
	if opts.Program == "" {
		return nil, fmt.Errorf("--catalog needs --exec PROGRAM: the program that runs the catalog's commands")
	}
	version := cat.Version
	if version == "" {
		version = opts.Version
	}
	run, err := newExecRunner(opts.Program, cat.Tools, opts.Allow)
	if err != nil {
		return nil, err
	}
	run.structured = opts.Structured
	tools := markRefused(cat.Tools, run.allow)
	if !opts.Structured {
		for i := range tools {
			tools[i].OutputSchema = nil
		}
	}
	s := newMCPServer(cat.Name, version, externalInstructions(cat, opts), tools, run)
	addResources(s, []Resource{{URI: "catalog://tools.json", Name: "tools.json", Title: cat.Name + " command catalog",
		Description: "The catalog this server publishes, as given.", MIMEType: "application/json", Text: opts.Catalog}})
	return s, nil
}

// LoadedCatalog is what the server reads from a Finance-CLI-style tools.json.
type LoadedCatalog struct {
	Name, Version, Description string
	Tools                      []Tool
}

// LoadCatalog reads a Finance-CLI-style tools.json leniently: only the command name and input
// schema are required; other fields are used when they have the expected form and ignored when
// they do not (examples may be strings or objects, agent hints strings or lists, and so on).
func LoadCatalog(data []byte) (*LoadedCatalog, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("catalog is not a JSON object: %w", err)
	}
	var cmds []map[string]json.RawMessage
	if err := json.Unmarshal(top["commands"], &cmds); err != nil || len(cmds) == 0 {
		return nil, fmt.Errorf("catalog has no commands array")
	}
	cat := &LoadedCatalog{Name: text(top["name"]), Version: text(top["version"]), Description: text(top["description"])}
	if cat.Name == "" {
		cat.Name = "catalog"
	}
	for i, c := range cmds {
		t, err := catalogTool(c)
		if err != nil {
			return nil, fmt.Errorf("command %d of the catalog: %w", i+1, err)
		}
		cat.Tools = append(cat.Tools, t)
	}
	return cat, checkNames(cat.Tools)
}

func catalogTool(c map[string]json.RawMessage) (Tool, error) {
	name := text(c["name"])
	if name == "" {
		return Tool{}, fmt.Errorf("no name")
	}
	in := c["input_schema"]
	if !isJSONObject(in) {
		return Tool{}, fmt.Errorf("%s has no input_schema object", name)
	}
	out := c["output_schema"]
	if !isJSONObject(out) {
		out = nil
	}
	mcpName := text(c["mcp_name"])
	if mcpName == "" {
		mcpName = ToolName(name)
	}
	var agent map[string]json.RawMessage
	_ = json.Unmarshal(c["agent"], &agent)
	return Tool{Command: name, Name: mcpName, Title: text(c["summary"]),
		Description: describe(text(c["description"]), text(agent["use_when"]), text(agent["avoid_when"]), nil),
		InputSchema: compactJSON(in), OutputSchema: compactJSON(out), SideEffects: text(c["side_effects"])}, nil
}

// text reads a string, or a list of strings joined by spaces; anything else is "".
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, " ")
	}
	return ""
}

func isJSONObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

// markRefused tells the model, in the description, which tools this server will refuse.
func markRefused(tools []Tool, allow map[string]bool) []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		if !allow[t.SideEffects] {
			t.Description += "\n\nNot enabled on this server: it is labelled " + label(t.SideEffects) +
				" and the operator has not started the server with --allow " + label(t.SideEffects) + "."
		}
		out[i] = t
	}
	return out
}

func label(s string) string {
	if s == "" {
		return "(no side-effect label)"
	}
	return s
}

func externalInstructions(cat *LoadedCatalog, opts ExternalOptions) string {
	allowed := append([]string{PureCalculation}, opts.Allow...)
	sort.Strings(allowed[1:])
	return strings.TrimSpace(cat.Description) + "\n\n" +
		"Each tool runs the command of the same name (dots written as underscores) and returns its result envelope {ok, data, error, warnings} unchanged: check ok, cite data, and pass warnings on to the user; ok=false is marked as a tool error. " +
		"This server runs commands labelled " + strings.Join(allowed, ", ") + "; any other is refused with an error saying which --allow label the operator would need."
}
