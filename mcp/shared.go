package mcp

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// Arguments many tools share (the shaping arguments, the ledger inputs, the filters) are
// described once, in the server's instructions, rather than again in every tool's schema:
// repeated on every tool they were half of tools/list. Each schema keeps the argument's name,
// type, enum and default, which is what a model must see to call the tool; the instructions
// say what each means. The set is found from the catalog, not listed by hand: an argument
// whose description is the same in at least minSharing tools is shared, so an argument a
// command adds later joins it by itself. A tool whose argument says something of its own (a
// different description) keeps that description in its schema.

// minSharing is how many tools must describe an argument alike for it to be described once.
const minSharing = 2

// sharedArg is one shared argument: its name and the description said once.
type sharedArg struct {
	Name, Description string
	Tools             int
}

// sharedArgs finds the shared arguments of the commands' input schemas, by name.
func sharedArgs(cat *catalog.Catalog) []sharedArg {
	count := map[string]map[string]int{} // name → description → tools
	for _, c := range cat.Commands {
		props, _ := c.InputSchema["properties"].(map[string]any)
		for name, v := range props {
			p, _ := v.(map[string]any)
			d, _ := p["description"].(string)
			if d == "" {
				continue
			}
			if count[name] == nil {
				count[name] = map[string]int{}
			}
			count[name][d]++
		}
	}
	var out []sharedArg
	for _, name := range slices.Sorted(maps.Keys(count)) {
		best, n := "", 0
		for d, k := range count[name] {
			if k > n || k == n && d < best {
				best, n = d, k
			}
		}
		if n >= minSharing {
			out = append(out, sharedArg{Name: name, Description: best, Tools: n})
		}
	}
	return out
}

// withoutSharedDescriptions returns an input schema in which each shared argument described
// as the instructions describe it keeps only what a model must see: its name, its values when
// it has a set of them other than output's (the instructions list output's, the same for
// every tool), and for fields the names the tool's records carry; not its description, type,
// default or forms, which the instructions give (and JSON values are coerced to the type
// wanted where nothing is lost: "2024" for 2024).
func withoutSharedDescriptions(schema map[string]any, shared []sharedArg) map[string]any {
	desc := make(map[string]string, len(shared))
	for _, s := range shared {
		desc[s.Name] = s.Description
	}
	return eachProperty(schema, func(name string, p map[string]any) {
		if d, ok := desc[name]; !ok || p["description"] != d {
			return
		}
		delete(p, "description")
		if name == registry.ArgFields {
			if names := fieldNamesOf(p); names != "" {
				p["description"] = names
			}
		}
		if name == registry.ArgOutput {
			delete(p, "enum")
		}
		delete(p, "items")
		delete(p, "default")
		delete(p, "type")
	})
}

// fieldNamesChars bounds the field names a tool's fields argument lists in tools/list.
const fieldNamesChars = 100

// fieldNamesOf is the field names the fields argument's items give as examples (every name
// the tool's records can carry), as a model reads them within the tool's token budget: in
// the schema's order (the command's key fields, then plain fields, then those within a group
// such as sa108.box24), as many as fieldNamesChars holds, and "…" when there are more (a name
// the result does not have is answered with the names it has).
func fieldNamesOf(p map[string]any) string {
	items, _ := p["items"].(map[string]any)
	ex, _ := items["examples"].([]any)
	var names []string
	for _, e := range ex {
		if s, ok := e.(string); ok && !strings.Contains(s, ".N.") { // sources.N.ticker: N is a number a result gives
			names = append(names, s)
		}
	}
	return joinWithin(names, fieldNamesChars)
}

// joinWithin joins as many of the items as limit characters hold, with ", …" when there are
// more.
func joinWithin(items []string, limit int) string {
	var b strings.Builder
	for i, s := range items {
		if b.Len()+len(s)+2 > limit {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

// longEnum is the most values an argument's enum lists in tools/list. An argument with more
// (import_transactions' broker: one name an importer) lists as many as enumChars holds in its
// description and how many there are, so a new importer costs the tool no tokens; the
// published schema (tools.json, openapi.json) and the server's own check keep the whole enum,
// and a value outside it is answered with every valid one.
const (
	longEnum  = 12
	enumChars = 60
)

// withShortEnums returns an input schema in which each enum longer than longEnum is said in
// its description instead (withoutSharedDescriptions has already run, so the description is
// the tool's own).
func withShortEnums(schema map[string]any) map[string]any {
	return eachProperty(schema, func(_ string, p map[string]any) {
		enum, _ := p["enum"].([]any)
		if len(enum) <= longEnum {
			return
		}
		delete(p, "enum")
		values := make([]string, len(enum))
		for i, v := range enum {
			values[i] = fmt.Sprint(v)
		}
		d, _ := p["description"].(string)
		p["description"] = strings.TrimSpace(fmt.Sprintf("%s One of %d: %s", d, len(enum), joinWithin(values, enumChars)))
	})
}

// sharedArgsNote is the instructions' paragraph describing the shared arguments.
func sharedArgsNote(shared []sharedArg) string {
	if len(shared) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nArguments several tools take (each tool's schema lists which it takes; one whose schema describes it says more there):\n")
	for _, s := range shared {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, strings.TrimSpace(s.Description))
	}
	return b.String()
}

// SharedArgNames are the arguments the agent front ends describe once, in the instructions,
// for the catalog's commands.
func SharedArgNames(cat *catalog.Catalog) map[string]string {
	out := map[string]string{}
	for _, s := range sharedArgs(cat) {
		out[s.Name] = s.Description
	}
	return out
}
