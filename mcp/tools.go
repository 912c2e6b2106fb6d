package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/registry"
)

// Tool is one catalog command as the server publishes it.
type Tool struct {
	Command      string          // the command's own name, e.g. report.calculate
	Name         string          // the MCP tool name, e.g. calculate_report
	Title        string          // a short human-readable title, e.g. the command's summary
	Description  string          // what the model reads to choose the tool
	InputSchema  json.RawMessage // JSON Schema of the arguments object
	OutputSchema json.RawMessage // JSON Schema of the envelope, or nil
	SideEffects  string          // side-effect label, e.g. pure_calculation
}

// Runner executes one command and returns its result as the tool result carries it.
// Implementations must be safe for concurrent use: the stdio server runs calls in parallel.
type Runner interface {
	Run(ctx context.Context, t Tool, args json.RawMessage) Reply
}

var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// ToolName turns a command name into an MCP tool name: characters outside [a-zA-Z0-9_-]
// (the dots of namespace.verb) become underscores, and the result is cut to 64 characters.
func ToolName(command string) string {
	var b strings.Builder
	for _, r := range command {
		if r < 128 && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// serverTool declares the tool (raw schemas, all four annotations) and binds it to the one
// generic handler.
func serverTool(t Tool, run Runner) server.ServerTool {
	tool := mcpgo.NewToolWithRawSchema(t.Name, t.Description, t.InputSchema)
	tool.RawOutputSchema = t.OutputSchema
	tool.Title = t.Title
	tool.Annotations = annotationsFor(t)
	return server.ServerTool{Tool: tool, Handler: handlerFor(t, run)}
}

// handlerFor is the single handler shape every tool shares: arguments in, envelope out.
func handlerFor(t Tool, run Runner) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return toolResult(run.Run(ctx, t, argumentsJSON(req))), nil
	}
}

// argumentsJSON returns the call's arguments as sent. Absent arguments are an empty object; a
// value that is not an object is passed on so the runner reports it as a usage error.
func argumentsJSON(req mcpgo.CallToolRequest) json.RawMessage {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments // exact: numbers keep every digit
	}
	if req.Params.Arguments == nil {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// toolResult carries a reply: its text, once, and the envelope as structuredContent only
// when the reply has it (never the same JSON twice). isError mirrors ok.
func toolResult(r Reply) *mcpgo.CallToolResult {
	res := &mcpgo.CallToolResult{
		Content: []mcpgo.Content{mcpgo.NewTextContent(r.Text)},
		IsError: !r.OK,
	}
	if r.Structured != nil {
		res.StructuredContent = json.RawMessage(bytes.TrimSpace(r.Structured))
	}
	return res
}

// levelHints are the annotation values of one side-effect label.
type levelHints struct{ readOnly, destructive, idempotent, openWorld bool }

// otherLevels are labels found in other Finance-CLI-style catalogs but not in cgt's registry.
var otherLevels = map[string]levelHints{
	"local_or_network_read": {readOnly: true, idempotent: true, openWorld: true},
}

// unknownLevel is assumed for a label the server does not know: the most cautious hints.
var unknownLevel = levelHints{destructive: true, openWorld: true}

// hintsFor reads a label's hints from the registry's published levels: a read-only level is
// neither destructive nor repeatable in effect; a writing level may overwrite what it names.
func hintsFor(label string) levelHints {
	for _, l := range registry.SideEffectLevels {
		if string(l.Level) == label {
			return levelHints{readOnly: l.ReadOnly, destructive: !l.ReadOnly, idempotent: l.ReadOnly, openWorld: l.OpenWorld}
		}
	}
	if h, ok := otherLevels[label]; ok {
		return h
	}
	return unknownLevel
}

// annotationsFor sets the hints from the side-effect label; none that matters is left to a
// client's default (which assumes destructive and open-world). destructiveHint and
// idempotentHint mean something only when readOnlyHint is false (the MCP specification), so
// a read-only tool carries readOnlyHint and openWorldHint alone. The title is the tool's own,
// once.
func annotationsFor(t Tool) mcpgo.ToolAnnotation {
	h := hintsFor(t.SideEffects)
	a := mcpgo.ToolAnnotation{ReadOnlyHint: mcpgo.ToBoolPtr(h.readOnly), OpenWorldHint: mcpgo.ToBoolPtr(h.openWorld)}
	if !h.readOnly {
		a.DestructiveHint = mcpgo.ToBoolPtr(h.destructive)
		a.IdempotentHint = mcpgo.ToBoolPtr(h.idempotent)
	}
	return a
}
