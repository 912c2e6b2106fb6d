// Command cgt computes UK Capital Gains Tax on shares and funds. See README.md.
package main

import (
	"os"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cli"
)

func main() { os.Exit(run()) }

func run() int {
	// One report per process: the ledger reader and the engine may pause the collector while
	// they allocate their large arrays and map a large report's memory ahead (see
	// engine.TuneMemoryForOneReport).
	engine.TuneMemoryForOneReport(true)
	return cli.Run(newFactory(), os.Args[1:])
}
