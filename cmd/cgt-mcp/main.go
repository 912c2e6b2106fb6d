// Command cgt-mcp is `cgt mcp` as a program of its own, for MCP client configurations that
// name a single executable: it serves cgt's commands as MCP tools on stdio. It takes the same
// flags as `cgt mcp` (--root DIR, or --catalog FILE --exec PROGRAM [--allow LABEL]).
package main

import (
	"context"
	"os"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0"

func main() {
	p := mcp.Program{Version: version, NewRegistry: commands.NewRegistry}
	os.Exit(mcp.Main(context.Background(), p, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
