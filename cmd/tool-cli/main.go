// Command tool-cli lists and calls the tools of a running tool-cli server
// (started with "cgt serve"); see package toolcli for the protocol.
package main

import (
	"os"

	"github.com/cgt-tools/cgt/toolcli"
)

func main() {
	os.Exit(toolcli.ClientMain(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
