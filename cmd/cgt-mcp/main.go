// Command cgt-mcp is `cgt mcp` as a program of its own, for MCP client configurations that
// name a single executable: it serves cgt's commands as MCP tools on stdio. It takes the same
// flags as `cgt mcp` (--root DIR, or --catalog FILE --exec PROGRAM [--allow LABEL]).
package main

import (
	"os"

	"github.com/cgt-tools/cgt/cmd/internal/programs"
	"github.com/cgt-tools/cgt/internal/version"
)

func main() { os.Exit(programs.MCP(version.String(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
