// Command tool-cli lists and calls the tools of a running tool-cli server
// (started with "cgt serve"); see package toolcli for the protocol.
package main

import (
	"os"
	"path/filepath"

	"github.com/cgt-tools/cgt/toolcli"
)

func main() {
	// argv[0] is "cgt tool" when cgt hands over, so usage lines name what the user typed.
	os.Exit(toolcli.RunClient(programName(os.Args), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// programName is the name to print in usage lines: argv[0] without its directory.
func programName(argv []string) string {
	if len(argv) == 0 || argv[0] == "" {
		return "tool-cli"
	}
	return filepath.Base(argv[0])
}
