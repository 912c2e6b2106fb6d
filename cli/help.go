package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cgt-tools/cgt/registry"
)

// overview prints the commands grouped by namespace, then the built-ins.
func overview(f *Factory) int {
	reg, err := f.Registry()
	if err != nil {
		fmt.Fprintln(f.Stderr, "cgt:", err)
		return ExitError
	}
	w := f.Stdout
	fmt.Fprintln(w, "cgt — UK Capital Gains Tax on shares and funds")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: cgt COMMAND [ARGS...] [key=value...] [--key value] [--json '{...}'] [--output json|compact|schema|records|text]")
	groups := map[string][]registry.Command{}
	var order []string
	for _, c := range reg.Commands() {
		ns := c.Meta().Namespace()
		if _, ok := groups[ns]; !ok {
			order = append(order, ns)
		}
		groups[ns] = append(groups[ns], c)
	}
	sort.Strings(order)
	for _, ns := range order {
		fmt.Fprintf(w, "\n%s\n", ns)
		for _, c := range groups[ns] {
			fmt.Fprintf(w, "  %-22s %s\n", c.Meta().Name, c.Meta().Summary)
		}
	}
	fmt.Fprintf(w, "\nbuilt-in\n")
	for _, b := range f.Builtins {
		if strings.HasPrefix(b.Name, "__") {
			continue
		}
		fmt.Fprintf(w, "  %-22s %s\n", b.Name, b.Summary)
	}
	fmt.Fprintf(w, "  %-22s %s\n", "help COMMAND", "usage, arguments and examples of a command")
	fmt.Fprintln(w, "\nRun `cgt help COMMAND` for a command's arguments and examples.")
	return ExitOK
}

func help(f *Factory, reg *registry.Registry, args []string) int {
	if len(args) == 0 {
		return overview(f)
	}
	if b, ok := f.builtin(args[0]); ok && b.Summary != "" {
		return b.Run(f, []string{"--help"}) // a built-in answers --help itself
	}
	cmd, ok := reg.Lookup(args[0])
	if !ok {
		fmt.Fprintf(f.Stderr, "cgt: unknown command %q; commands: %s\n", args[0], strings.Join(reg.Names(), ", "))
		return ExitUsage
	}
	return commandHelp(f, cmd)
}

// commandHelp prints a command's usage, description, arguments and examples.
func commandHelp(f *Factory, cmd registry.Command) int {
	m := cmd.Meta()
	w := f.Stdout
	fmt.Fprintf(w, "%s — %s\n\nUsage: %s\n\n%s\n\nArguments:\n", m.Name, m.Summary, m.Usage, m.Description)
	for _, a := range cmd.Args() {
		fmt.Fprintf(w, "  %-16s %s\n", a.Name, argLine(a))
		fmt.Fprintf(w, "  %-16s %s\n", "", a.Description)
	}
	fmt.Fprintln(w, "\nOutput flags: --output json|compact|schema|records|text  --fields a,b  --max-records N  --max-chars N  --out FILE")
	if len(m.Examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range m.Examples {
			fmt.Fprintf(w, "  # %s\n  cgt %s %s\n", e.Description, m.Name, registry.ShellJoin(e.Args))
		}
	}
	fmt.Fprintf(w, "\nSide effects: %s. MCP tool: %s.\n", m.SideEffects, m.MCPName)
	return ExitOK
}

func argLine(a registry.ArgSpec) string {
	parts := []string{a.Type}
	if a.Required {
		parts = append(parts, "required")
	}
	if a.Positional != nil {
		p := fmt.Sprintf("positional %d", *a.Positional+1)
		if a.Variadic {
			p += "..."
		}
		parts = append(parts, p)
	}
	if a.Default != nil {
		parts = append(parts, fmt.Sprintf("default %v", a.Default))
	}
	if len(a.Enum) > 0 {
		parts = append(parts, fmt.Sprintf("one of %v", a.Enum))
	}
	if len(a.Aliases) > 0 {
		parts = append(parts, "aliases "+strings.Join(a.Aliases, ", "))
	}
	return "(" + strings.Join(parts, "; ") + ")"
}
