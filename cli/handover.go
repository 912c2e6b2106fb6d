package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Handover is a built-in served by a sibling program: `cgt mcp` runs cgt-mcp, `cgt gen` runs
// cgt-gen. The servers and generators live in binaries of their own so that the command line
// links (and initialises at every start) none of their libraries.
func Handover(name, program, summary string) Builtin {
	return Builtin{
		Name:    name,
		Summary: summary,
		Run: func(f *Factory, args []string) int {
			path, err := findSibling(program)
			if err != nil {
				fmt.Fprintf(f.Stderr, "Error: cgt %s is served by the %s program, which is not installed next to cgt or on PATH.\n"+
					"Install every cgt program with: go install github.com/cgt-tools/cgt/cmd/...@latest  (or make build, which writes bin/)\n", name, program)
				return ExitError
			}
			return f.runProgram(path, "cgt "+name, args)
		},
	}
}

// runProgram runs the sibling with the CLI's streams and returns its exit status. Where the
// binary's main supplies Exec (the real terminal), the sibling replaces this process, so a
// client that supervises `cgt mcp` sees one process and its signals reach the server directly.
// The sibling's argv[0] is what the user typed ("cgt tool"), so its usage lines say that.
func (f *Factory) runProgram(path, invoked string, args []string) int {
	if f.Exec != nil {
		err := f.Exec(path, append([]string{invoked}, args...), os.Environ())
		fmt.Fprintf(f.Stderr, "Error: cannot run %s: %v\n", path, err)
		return ExitError
	}
	cmd := exec.Command(path, args...)
	cmd.Args[0] = invoked
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f.Stdin, f.Stdout, f.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		fmt.Fprintf(f.Stderr, "Error: cannot run %s: %v\n", path, err)
		return ExitError
	}
}

// findSibling looks for program in the directory of the running executable, then on PATH.
func findSibling(program string) (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), program)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return exec.LookPath(program)
}
