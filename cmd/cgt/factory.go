package main

import (
	"os"

	"github.com/cgt-tools/cgt/cli"
	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
	"github.com/cgt-tools/cgt/registry"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0"

func newFactory() *cli.Factory {
	return &cli.Factory{
		Stdin:   os.Stdin,
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Getenv:  os.Getenv,
		Version: version,
		Registry: func() (*registry.Registry, error) {
			return commands.NewRegistry(&registry.Deps{ReadFile: os.ReadFile, ReadDir: registry.OSReadDir, Stdin: os.Stdin})
		},
		Builtins: []cli.Builtin{
			mcp.Builtin(mcp.Program{Version: version, NewRegistry: commands.NewRegistry}),
			serveBuiltin(),
			toolBuiltin(),
			genBuiltin(),
			cli.CompletionBuiltin(),
			cli.CompleteBuiltin(),
		},
	}
}
