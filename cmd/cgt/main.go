// Command cgt computes UK Capital Gains Tax on shares and funds. See README.md.
package main

import (
	"os"

	"github.com/cgt-tools/cgt/cli"
)

func main() { os.Exit(run()) }

func run() int { return cli.Run(newFactory(), os.Args[1:]) }
