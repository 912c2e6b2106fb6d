// Package programs holds the programs behind cgt's agent and maintainer built-ins — the MCP
// server, the tool-cli server and the generator — so that each has its own small main
// (cmd/cgt-mcp, cmd/cgt-serve, cmd/cgt-gen) and the cgt command line links none of them.
package programs

import (
	"context"
	"io"
	"os"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
	"github.com/cgt-tools/cgt/ratecache"
	"github.com/cgt-tools/cgt/registry"
)

// Exit codes, as the cgt command line uses them.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// streams is where a program writes.
type streams struct {
	Stdout io.Writer
	Stderr io.Writer
}

// MCP is `cgt mcp` (the cgt-mcp program): cgt's commands as MCP tools on stdio.
func MCP(version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	p := mcp.Program{Version: version, NewRegistry: withRatesCache}
	return mcp.Main(context.Background(), p, args, stdin, stdout, stderr)
}

// withRatesCache is commands.NewRegistry with the rate cache the command line's fx.update
// fills: the servers read the months fetched (again when a month is missing, so a server
// left running sees an update), and never fetch.
func withRatesCache(deps *registry.Deps) (*registry.Registry, error) {
	if dir, err := ratecache.DefaultPath(os.Getenv); err == nil && deps.RatesCache == nil {
		deps.RatesCache = ratecache.New(dir)
	}
	return commands.NewRegistry(deps)
}
