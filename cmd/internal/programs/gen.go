package programs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/gen"
)

const modulePath = "github.com/cgt-tools/cgt"

// Gen is `cgt gen [--check]` (the cgt-gen program): regenerate, or verify, every generated
// file. It runs from the repository root.
func Gen(args []string, stdout, stderr io.Writer) int {
	f := streams{stdout, stderr}
	check := false
	for _, a := range args {
		switch a {
		case "--check":
			check = true
		case "--help", "-h":
			fmt.Fprintln(f.Stdout, "usage: cgt gen [--check]\n\nRun from the repository root. Writes every generated file; with --check writes nothing and exits 1 naming each stale file.")
			return exitOK
		default:
			fmt.Fprintf(f.Stderr, "cgt gen: unknown argument %q (usage: cgt gen [--check])\n", a)
			return exitUsage
		}
	}
	if err := requireRepoRoot("."); err != nil {
		fmt.Fprintln(f.Stderr, "cgt gen:", err)
		return exitError
	}
	start := time.Now()
	reg, err := commands.NewRegistry(gen.RootDeps("."))
	if err != nil {
		fmt.Fprintln(f.Stderr, "cgt gen:", err)
		return exitError
	}
	files, err := gen.Files(reg)
	if err != nil {
		fmt.Fprintln(f.Stderr, "cgt gen:", err)
		return exitError
	}
	if check {
		return reportStale(f, gen.Check(".", files), len(files), since(start))
	}
	changed, err := gen.Write(".", files)
	for _, p := range changed {
		fmt.Fprintln(f.Stderr, "wrote", p)
	}
	if err != nil {
		fmt.Fprintln(f.Stderr, "cgt gen:", err)
		return exitError
	}
	fmt.Fprintf(f.Stderr, "cgt gen: %d files, %d changed, %d commands, in %s\n", len(files), len(changed), len(reg.Commands()), since(start))
	return exitOK
}

func reportStale(f streams, stale []string, total int, took time.Duration) int {
	for _, p := range stale {
		fmt.Fprintf(f.Stderr, "stale: %s\n", p)
	}
	if len(stale) > 0 {
		fmt.Fprintf(f.Stderr, "cgt gen --check: %d of %d generated files are stale; run: %s\n", len(stale), total, gen.FixCommand)
		return exitError
	}
	fmt.Fprintf(f.Stderr, "cgt gen --check: %d files up to date, in %s\n", total, took)
	return exitOK
}

func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }

// requireRepoRoot refuses to generate anywhere but the root of this module, where the
// generated paths belong.
func requireRepoRoot(dir string) error {
	data, err := os.ReadFile(dir + "/go.mod")
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+modulePath+"\n")) {
		return fmt.Errorf("run me from the root of %s (the directory holding its go.mod); the current directory is not it", modulePath)
	}
	return nil
}
