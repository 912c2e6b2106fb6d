package cli

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// CompletionBuiltin prints a completion script for bash, zsh or fish. The scripts call the
// hidden `cgt __complete WORDS...`, so completions always follow the registry.
func CompletionBuiltin() Builtin {
	return Builtin{Name: "completion", Summary: "shell completion script: cgt completion bash|zsh|fish", Run: completion}
}

// CompleteBuiltin answers completion requests from the scripts; it is not listed.
func CompleteBuiltin() Builtin {
	return Builtin{Name: "__complete", Run: complete}
}

var completionScripts = map[string]string{
	"bash": `# cgt bash completion: source <(cgt completion bash)
_cgt() {
  local IFS=$'\n'
  COMPREPLY=($(cgt __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -o nospace -F _cgt cgt
`,
	"zsh": `#compdef cgt
# cgt zsh completion: source <(cgt completion zsh)
_cgt() {
  local -a c
  c=("${(@f)$(cgt __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -S '' -a c
  _files
}
compdef _cgt cgt
`,
	"fish": `# cgt fish completion: cgt completion fish | source
complete -c cgt -a '(cgt __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
}

var completionShells = []string{"bash", "fish", "zsh"}

// completionHelp is what `cgt help completion` and `cgt completion --help` print.
const completionHelp = `Usage: cgt completion bash|zsh|fish

Prints the shell completion script for cgt: commands, argument names and values, output
formats and file names complete with Tab. Load it for this shell, or add the line to your
shell's start-up file:

  bash:  source <(cgt completion bash)
  zsh:   source <(cgt completion zsh)
  fish:  cgt completion fish | source
`

func completion(f *Factory, args []string) int {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprint(f.Stdout, completionHelp)
		return ExitOK
	}
	if len(args) != 1 || completionScripts[args[0]] == "" {
		fmt.Fprintln(f.Stderr, "usage: cgt completion bash|zsh|fish")
		return ExitUsage
	}
	fmt.Fprint(f.Stdout, completionScripts[args[0]])
	return ExitOK
}

// complete prints the candidates for the last word, one per line.
func complete(f *Factory, words []string) int {
	reg, err := f.Registry()
	if err != nil || len(words) == 0 {
		return ExitOK
	}
	cur := words[len(words)-1]
	var cands []string
	if len(words) == 1 {
		cands = commandNames(f, reg)
	} else if len(words) == 2 && words[0] == "help" {
		cands = reg.Names()
	} else if len(words) == 2 && words[0] == "completion" {
		cands = completionShells
	} else if cmd, ok := reg.Lookup(words[0]); ok {
		prev := ""
		if len(words) >= 2 {
			prev = words[len(words)-2]
		}
		cands = argCandidates(cmd, prev, cur)
	}
	for _, c := range cands {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintln(f.Stdout, c)
		}
	}
	return ExitOK
}

func commandNames(f *Factory, reg *registry.Registry) []string {
	names := append([]string{"help"}, reg.Names()...)
	for _, b := range f.Builtins {
		if !strings.HasPrefix(b.Name, "__") {
			names = append(names, b.Name)
		}
	}
	return names
}

// argCandidates completes the value of --output and --fields, and argument names otherwise.
func argCandidates(cmd registry.Command, prev, cur string) []string {
	switch prev {
	case "--output", "-o":
		return outputFormats
	case "--fields":
		return fieldCandidates(cmd, cur)
	}
	var out []string
	flags := strings.HasPrefix(cur, "-")
	for _, a := range cmd.Args() {
		if flags {
			out = append(out, "--"+a.Name)
		} else {
			out = append(out, a.Name+"=")
		}
	}
	if flags {
		out = append(out, "--output", "--fields", "--max-records", "--max-chars", "--out", "--json", "--help")
	}
	return out
}

// fieldCandidates completes the last name of a comma-separated --fields list.
func fieldCandidates(cmd registry.Command, cur string) []string {
	done := ""
	if i := strings.LastIndex(cur, ","); i >= 0 {
		done = cur[:i+1]
	}
	var out []string
	for _, n := range records.FieldNames(cmd.ResultType()) {
		out = append(out, done+n)
	}
	return out
}
