// Command cgt-serve is `cgt serve`: the tool-cli JSON-RPC server on 127.0.0.1 with cgt's
// commands as the "cgt" server, plus any MCP servers named with --mcp-config.
package main

import (
	"os"

	"github.com/cgt-tools/cgt/cmd/internal/programs"
	"github.com/cgt-tools/cgt/internal/version"
)

func main() { os.Exit(programs.Serve(version.String(), os.Args[1:], os.Stdout, os.Stderr)) }
