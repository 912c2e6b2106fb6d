// Command cgt-gen is `cgt gen`: it regenerates (or with --check verifies) tools.json,
// openapi.json, llms.txt and every other generated file. Run it from the repository root.
package main

import (
	"os"

	"github.com/cgt-tools/cgt/cmd/internal/programs"
)

func main() { os.Exit(programs.Gen(os.Args[1:], os.Stdout, os.Stderr)) }
