// Package cli is the command-line front end: it parses the grammar of `cgt COMMAND ...`, runs
// commands through the registry and renders the envelope in the chosen output format. It holds
// no command knowledge; everything comes from the registry.
package cli

import (
	"io"

	"github.com/cgt-tools/cgt/registry"
)

// Factory holds the dependencies the CLI needs, injected so tests can fake the terminal and
// the file system.
type Factory struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Registry builds the registry with the CLI's dependencies.
	Registry func() (*registry.Registry, error)
	// Builtins are the commands that are not registry commands (mcp, serve, tool, gen, ...).
	Builtins []Builtin
	// Version is printed by `cgt version`.
	Version string
	// IsTerminal reports whether standard output is a terminal (a person reading), which makes
	// text the default output; nil means it is not.
	IsTerminal func() bool
	// ErrIsTerminal reports whether standard error is a terminal, where a command still at work
	// after a moment shows a progress line; nil means it is not.
	ErrIsTerminal func() bool
	// Exec replaces the process with another program (syscall.Exec); nil runs it as a child
	// with the streams above, which is what tests and other embedders get.
	Exec func(path string, argv, env []string) error
}

// Builtin is a command of the binary itself rather than of the registry.
type Builtin struct {
	Name    string
	Summary string
	Run     func(f *Factory, args []string) int
}
