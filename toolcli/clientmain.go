package toolcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"text/tabwriter"

	"github.com/cgt-tools/cgt/atomicfile"
)

// ClientMain runs the tool-cli command line client as "tool-cli" and
// returns its exit status: 0 on success, 1 on any failure, reported as one
// "Error: ..." line on stderr (or, for a tool that reports an error, its
// content).
func ClientMain(args []string, stdout, stderr io.Writer, env func(string) string) int {
	return RunClient("tool-cli", args, stdout, stderr, env)
}

// RunClient is ClientMain under another program name, e.g. "cgt tool".
func RunClient(prog string, args []string, stdout, stderr io.Writer, env func(string) string) int {
	inv, err := parseClientArgs(args)
	if err != nil {
		return fail(stderr, err)
	}
	if inv.help {
		fmt.Fprintf(stdout, clientUsage, prog)
		return 0
	}
	c, err := NewClientFromEnv(env)
	if err != nil {
		return fail(stderr, err)
	}
	// One request per run: no connection is kept for a server that may be
	// gone by the next run.
	c.HTTP = &http.Client{Transport: &http.Transport{
		DialContext:       (&net.Dialer{Timeout: dialTimeout}).DialContext,
		DisableKeepAlives: true,
	}}
	inv.prog = prog
	return inv.run(context.Background(), c, stdout, stderr)
}

const clientUsage = `Usage: %[1]s [SERVER [TOOL ['<json arguments>'] [--out FILE]]]

  %[1]s                          list servers
  %[1]s SERVER                   list a server's tools
  %[1]s SERVER TOOL              describe a tool: input schema, annotations, usage
  %[1]s SERVER TOOL '{"k":"v"}'  call a tool; structured output prints as JSON

Flags:
  --out FILE   write a tool's output to FILE (atomically) instead of stdout
  --json       print listings and descriptions as the server's JSON
  --output-schema  with SERVER TOOL: show the tool's output schema too
  -h, --help   show this help

Environment: TOOL_CLI_PORT (default 7179) and TOOL_CLI_TOKEN, as printed by
"cgt serve". Every failure prints one "Error: ..." line on stderr and exits 1.
`

// invocation is a parsed client command line.
type invocation struct {
	prog       string
	positional []string
	out        string
	json       bool
	outSchema  bool
	help       bool
}

func parseClientArgs(args []string) (*invocation, error) {
	inv := &invocation{}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			inv.positional = append(inv.positional, args[i+1:]...)
			i = len(args)
		case arg == "-h" || arg == "--help" || arg == "-help":
			inv.help = true
		case arg == "--json":
			inv.json = true
		case arg == "--output-schema":
			inv.outSchema = true
		case arg == "--out":
			if i+1 >= len(args) {
				return nil, errors.New("--out needs a file name")
			}
			i++
			inv.out = args[i]
		case strings.HasPrefix(arg, "--out="):
			inv.out = strings.TrimPrefix(arg, "--out=")
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			return nil, fmt.Errorf("unknown flag %s (see --help)", arg)
		default:
			inv.positional = append(inv.positional, arg)
		}
	}
	if inv.help {
		return inv, nil
	}
	if len(inv.positional) > 3 {
		return nil, fmt.Errorf("too many arguments: %q (quote the JSON arguments as one word)", inv.positional[3])
	}
	if inv.out != "" && len(inv.positional) != 3 {
		return nil, errors.New("--out applies only to a tool call: SERVER TOOL '<json>' --out FILE")
	}
	return inv, nil
}

// fail prints err as the one "Error:" line and returns exit status 1.
func fail(stderr io.Writer, err error) int {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	fmt.Fprintf(stderr, "Error: %s\n", msg)
	return 1
}

func (inv *invocation) run(ctx context.Context, c *Client, stdout, stderr io.Writer) int {
	var err error
	switch len(inv.positional) {
	case 0:
		err = inv.listServers(ctx, c, stdout)
	case 1:
		err = inv.listTools(ctx, c, stdout)
	case 2:
		err = inv.describeTool(ctx, c, stdout)
	default:
		return inv.callTool(ctx, c, stdout, stderr)
	}
	if err != nil {
		return fail(stderr, err)
	}
	return 0
}

func (inv *invocation) listServers(ctx context.Context, c *Client, stdout io.Writer) error {
	list, err := c.ListServers(ctx)
	if err != nil || inv.json {
		return printJSONOr(stdout, list, err)
	}
	if len(list.Servers) == 0 {
		fmt.Fprintln(stdout, "No servers.")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, s := range list.Servers {
		if s.Error != "" {
			fmt.Fprintf(tw, "%s\tunavailable\t%s\n", s.Name, s.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d tools\t%s\n", s.Name, s.ToolCount, strings.Join(s.Examples, ", "))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nNext: %s SERVER  (list a server's tools)\n", inv.prog)
	return nil
}

func (inv *invocation) listTools(ctx context.Context, c *Client, stdout io.Writer) error {
	list, err := c.ListTools(ctx, inv.positional[0])
	if err != nil || inv.json {
		return printJSONOr(stdout, list, err)
	}
	fmt.Fprintf(stdout, "%s: %d tools\n\n", list.Server, len(list.Tools))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, t := range list.Tools {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, firstLine(t.Description))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nNext: %s %s TOOL  (show a tool's schema and usage)\n", inv.prog, list.Server)
	return nil
}

func (inv *invocation) describeTool(ctx context.Context, c *Client, stdout io.Writer) error {
	server := inv.positional[0]
	desc, err := c.DescribeToolOutput(ctx, server, inv.positional[1], inv.outSchema)
	if err != nil || inv.json {
		return printJSONOr(stdout, desc, err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\n\n", server, desc.Name)
	if desc.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(desc.Description))
	}
	fmt.Fprintf(&b, "Input schema:\n%s\n\n", prettyJSON(desc.InputSchema))
	if len(desc.OutputSchema) > 0 {
		fmt.Fprintf(&b, "Output schema:\n%s\n\n", prettyJSON(desc.OutputSchema))
	}
	if desc.Annotations != nil {
		fmt.Fprintf(&b, "Annotations: %s\n\n", formatAnnotations(desc.Annotations))
	}
	fmt.Fprintf(&b, "Usage: %s %s %s '%s'\n", inv.prog, server, desc.Name, exampleArguments(desc.InputSchema))
	_, err = stdout.Write(b.Bytes())
	return err
}

func (inv *invocation) callTool(ctx context.Context, c *Client, stdout, stderr io.Writer) int {
	args := json.RawMessage(strings.TrimSpace(inv.positional[2]))
	if err := checkArguments(args); err != nil {
		return fail(stderr, err)
	}
	res, err := c.CallTool(ctx, inv.positional[0], inv.positional[1], args)
	if err != nil {
		return fail(stderr, err)
	}
	output := renderResult(res)
	if res.IsError {
		stderr.Write(output)
		return 1
	}
	if inv.out == "" {
		stdout.Write(output)
		return 0
	}
	if err := atomicfile.Write(inv.out, output, 0o644); err != nil {
		return fail(stderr, fmt.Errorf("--out: %w", err))
	}
	fmt.Fprintf(stdout, "Written to: %s\n", inv.out)
	return 0
}

func checkArguments(args json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		if !json.Valid(args) {
			return fmt.Errorf("arguments are not valid JSON: %s (expected an object such as '{\"key\": \"value\"}')", args)
		}
		return fmt.Errorf("arguments must be a JSON object, got %s", args)
	}
	return nil
}

// renderResult is what a call prints: the structured content as indented
// JSON when there is any, else the text content (indented too when it is one
// JSON object, such as an envelope asked for with output json).
func renderResult(res *CallToolResult) []byte {
	if len(res.StructuredContent) > 0 {
		return append(prettyJSON(res.StructuredContent), '\n')
	}
	if len(res.Content) == 1 {
		var c struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(res.Content[0], &c) == nil && c.Type == "text" && strings.HasPrefix(c.Text, "{") && json.Valid([]byte(c.Text)) {
			return append(prettyJSON(json.RawMessage(c.Text)), '\n')
		}
	}
	var b bytes.Buffer
	for _, item := range res.Content {
		var c struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(item, &c) == nil && c.Type == "text" {
			b.WriteString(c.Text)
		} else {
			b.Write(item)
		}
		if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func printJSONOr(stdout io.Writer, v any, err error) error {
	if err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", prettyJSON(data))
	return err
}

// prettyJSON indents raw JSON by two spaces, keeping its key order.
func prettyJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return raw
	}
	return b.Bytes()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func formatAnnotations(a *Annotations) string {
	var parts []string
	add := func(name string, v *bool) {
		if v != nil {
			parts = append(parts, fmt.Sprintf("%s=%t", name, *v))
		}
	}
	if a.Title != "" {
		parts = append(parts, fmt.Sprintf("title=%q", a.Title))
	}
	add("readOnlyHint", a.ReadOnlyHint)
	add("destructiveHint", a.DestructiveHint)
	add("idempotentHint", a.IdempotentHint)
	add("openWorldHint", a.OpenWorldHint)
	return strings.Join(parts, " ")
}

// exampleArguments builds a JSON object naming the schema's required
// properties, each with a placeholder of its type.
func exampleArguments(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	names := s.Required
	if len(names) == 0 {
		return "{}"
	}
	parts := make([]string, 0, len(names))
	for _, name := range names {
		key, _ := json.Marshal(name)
		parts = append(parts, fmt.Sprintf("%s:%s", key, placeholder(s.Properties[name].Type)))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func placeholder(typ any) string {
	if types, ok := typ.([]any); ok && len(types) > 0 {
		typ = types[0]
	}
	switch typ {
	case "integer", "number":
		return "0"
	case "boolean":
		return "false"
	case "array":
		return "[]"
	case "object":
		return "{}"
	}
	return `"..."`
}
