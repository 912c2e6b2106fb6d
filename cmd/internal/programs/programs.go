// Package programs holds the programs behind cgt's agent and maintainer built-ins — the MCP
// server, the tool-cli server and the generator — so that each has its own small main
// (cmd/cgt-mcp, cmd/cgt-serve, cmd/cgt-gen) and the cgt command line links none of them.
package programs

import (
	"context"
	"io"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
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
	p := mcp.Program{Version: version, NewRegistry: commands.NewRegistry}
	return mcp.Main(context.Background(), p, args, stdin, stdout, stderr)
}
