package gen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// cell makes a value safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// code wraps a value in backticks for a table cell, or gives an empty cell.
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

// yamlString quotes a string for YAML front matter (a JSON string is a YAML double-quoted scalar).
func yamlString(s string) string {
	b, _ := envelope.Marshal(s)
	return string(b)
}

// fence writes a fenced code block whose fence is longer than any backtick run inside.
func fence(b *strings.Builder, lang, body string) {
	f := "```"
	for strings.Contains(body, f) {
		f += "`"
	}
	fmt.Fprintf(b, "%s%s\n%s\n%s\n\n", f, lang, strings.TrimRight(body, "\n"), f)
}

// argsTable writes the argument table of a command, in declaration order.
func argsTable(b *strings.Builder, args []registry.ArgSpec) {
	if len(args) == 0 {
		b.WriteString("This command takes no arguments.\n\n")
		return
	}
	b.WriteString("| Argument | Type | Required | Default | Aliases | Positional | Description |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, a := range args {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", a.Name, cell(argType(a)), yesNo(a.Required),
			cell(defaultText(a)), cell(codeList(a.Aliases)), positionalText(a), cell(argDescription(a)))
	}
	b.WriteString("\n")
}

func argType(a registry.ArgSpec) string {
	if a.Variadic {
		return a.Type + " (repeatable)"
	}
	return a.Type
}

func argDescription(a registry.ArgSpec) string {
	if len(a.Enum) == 0 {
		return a.Description
	}
	vals := make([]string, len(a.Enum))
	for i, v := range a.Enum {
		vals[i] = "`" + fmt.Sprint(v) + "`"
	}
	return a.Description + " One of " + strings.Join(vals, ", ") + "."
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func defaultText(a registry.ArgSpec) string {
	if a.Default == nil {
		return ""
	}
	return code(fmt.Sprint(a.Default))
}

// positionalText gives a positional's place counted from 1, as `cgt help` does.
func positionalText(a registry.ArgSpec) string {
	if a.Positional == nil {
		return ""
	}
	return fmt.Sprint(*a.Positional + 1)
}

func codeList(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = "`" + s + "`"
	}
	return strings.Join(out, ", ")
}

// bulletList writes items as a Markdown list, or nothing for an empty list.
func bulletList(b *strings.Builder, items []string) {
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", it)
	}
	if len(items) > 0 {
		b.WriteString("\n")
	}
}

// outputFields flattens a data schema into dotted field paths with type and description,
// sorted by path; array elements appear as name[].
func outputFields(schema map[string]any) [][3]string {
	var rows [][3]string
	walkFields(schema, "", 0, &rows)
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}

const maxFieldDepth = 4

func walkFields(s map[string]any, prefix string, depth int, rows *[][3]string) {
	props, _ := s["properties"].(map[string]any)
	if depth >= maxFieldDepth {
		return
	}
	for _, name := range sortedKeys(props) {
		p, _ := props[name].(map[string]any)
		path := prefix + name
		*rows = append(*rows, [3]string{path, schemaTypeName(p), str(p["description"])})
		if items, ok := p["items"].(map[string]any); ok {
			walkFields(items, path+"[].", depth+1, rows)
		}
		walkFields(p, path+".", depth+1, rows)
	}
}

func schemaTypeName(p map[string]any) string {
	t := str(p["type"])
	if t == "array" {
		if items, ok := p["items"].(map[string]any); ok && str(items["type"]) != "" {
			return str(items["type"]) + "[]"
		}
	}
	if t == "" {
		return "any"
	}
	return t
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// trustLines flattens the trust policy into sentences: its summary first, then the rest in
// key order.
func trustLines(policy map[string]any) []string {
	var out []string
	keys := sortedKeys(policy)
	for i, k := range keys {
		if k == "summary" {
			keys = append([]string{k}, append(keys[:i:i], keys[i+1:]...)...)
			break
		}
	}
	for _, k := range keys {
		switch v := policy[k].(type) {
		case string:
			out = append(out, "**"+k+"**: "+v)
		case []any:
			for _, item := range v {
				out = append(out, "**"+k+"**: "+fmt.Sprint(item))
			}
		}
	}
	return out
}

// playbooksSection writes every playbook with numbered steps and failure modes.
func playbooksSection(b *strings.Builder, pbs []catalog.Playbook, level string) {
	for _, p := range pbs {
		fmt.Fprintf(b, "%s %s\n\n%s\n\n", level, p.Task, p.When)
		for i, s := range p.Steps {
			fmt.Fprintf(b, "%d. %s\n", i+1, s)
		}
		b.WriteString("\nFailure modes:\n\n")
		bulletList(b, p.FailureModes)
	}
}
