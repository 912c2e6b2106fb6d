package main

import (
	"os"

	"github.com/cgt-tools/cgt/cli"
	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/internal/version"
	"github.com/cgt-tools/cgt/ratecache"
	"github.com/cgt-tools/cgt/registry"
	"golang.org/x/term"
)

func newFactory() *cli.Factory {
	return &cli.Factory{
		Stdin:   os.Stdin,
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Getenv:  os.Getenv,
		Version: version.String(),
		Exec:    execProgram,
		// A character device is not enough: /dev/null is one, and `cgt ... > /dev/null`
		// must time and behave like writing to a file, not switch to the text view.
		IsTerminal:    func() bool { return term.IsTerminal(int(os.Stdout.Fd())) },
		ErrIsTerminal: func() bool { return term.IsTerminal(int(os.Stderr.Fd())) },
		Registry: func() (*registry.Registry, error) {
			deps := &registry.Deps{ReadFile: os.ReadFile, ReadDir: registry.OSReadDir, Stdin: os.Stdin, Today: registry.LocalToday,
				Fetch: siblingFetch}
			if dir, err := ratecache.DefaultPath(os.Getenv); err == nil {
				deps.RatesCache = ratecache.New(dir)
			}
			return commands.NewRegistry(deps)
		},
		Builtins: []cli.Builtin{
			cli.Handover("mcp", "cgt-mcp", "serve cgt's commands to AI agents over MCP on stdio, or Streamable HTTP with --http ADDR (--root DIR lets them read ledger files)"),
			cli.Handover("serve", "cgt-serve", "tool-cli JSON-RPC server on 127.0.0.1 for shell agents (cgt plus bridged MCP servers)"),
			cli.Handover("tool", "tool-cli", "tool-cli client: list servers, tools, a tool's schema, or call it (cgt tool cgt get_fx_rate '{...}')"),
			cli.HandoverInSource("gen", "cgt-gen", "./cmd/cgt-gen", "regenerate (or with --check verify) tools.json, openapi.json, llms.txt and every generated file"),
			cli.CompletionBuiltin(),
			cli.CompleteBuiltin(),
		},
	}
}
