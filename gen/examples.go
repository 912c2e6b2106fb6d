package gen

import (
	"bytes"
	"io"
	"strings"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/cli"
	"github.com/cgt-tools/cgt/registry"
)

// ExampleRun is one example of a command as a user runs it: the command line, what it printed
// on stdout and its exit code.
type ExampleRun struct {
	Description string
	Line        string
	Output      string
	ExitCode    int
}

// RunExamples runs every example of a command through the CLI front end (argument binding,
// execution and rendering exactly as `cgt` does them) with the registry's dependencies.
func RunExamples(reg *registry.Registry, cmd registry.Command) []ExampleRun {
	m := cmd.Meta()
	lines := catalog.ExampleLines(m)
	runs := make([]ExampleRun, len(m.Examples))
	for i, e := range m.Examples {
		out, code := RunCLI(reg, append([]string{m.Name}, e.Args...))
		runs[i] = ExampleRun{Description: e.Description, Line: lines[i], Output: out, ExitCode: code}
	}
	return runs
}

// RunCLI runs one `cgt` invocation in memory against the registry and returns its stdout and
// exit code. Standard input is empty.
func RunCLI(reg *registry.Registry, argv []string) (string, int) {
	var out bytes.Buffer
	f := &cli.Factory{
		Stdin:    strings.NewReader(""),
		Stdout:   &out,
		Stderr:   io.Discard,
		Getenv:   func(string) string { return "" },
		Registry: func() (*registry.Registry, error) { return reg, nil },
		Version:  catalog.Version,
	}
	code := cli.Run(f, argv)
	return out.String(), code
}
