package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Handover is a built-in served by a sibling program: `cgt mcp` runs cgt-mcp, `cgt gen` runs
// cgt-gen. The servers and generators live in binaries of their own so that the command line
// links (and initialises at every start) none of their libraries.
func Handover(name, program, summary string) Builtin { return handover(name, program, "", summary) }

// HandoverInSource is Handover for a developer's built-in (`cgt gen`), which only makes sense
// in cgt's own source tree: there, when the sibling is not installed, it is run from source
// with `go run pkg`, so a lone `go build ./cmd/cgt` still regenerates and checks the files.
func HandoverInSource(name, program, pkg, summary string) Builtin {
	return handover(name, program, pkg, summary)
}

func handover(name, program, pkg, summary string) Builtin {
	return Builtin{
		Name:    name,
		Summary: summary,
		Run: func(f *Factory, args []string) int {
			path, err := findSibling(program)
			if err != nil && pkg != "" && inSourceTree(".") {
				if goTool, gerr := exec.LookPath("go"); gerr == nil {
					fmt.Fprintf(f.Stderr, "cgt %s: %s is not installed; running it from source (go run %s)\n", name, program, pkg)
					return f.runProgram(goTool, "go", append([]string{"run", pkg}, args...))
				}
			}
			if err != nil && pkg != "" {
				fmt.Fprintf(f.Stderr, "Error: cgt %s works on cgt's own source tree and runs only in a checkout of it (there: make %s, or go run %s).\n"+
					"It is not part of the release archives; nothing here needs it to compute a report.\n", name, name, pkg)
				return ExitError
			}
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
		p := filepath.Join(filepath.Dir(self), program+exeSuffix)
		// Windows has no execute bit: an .exe file is a program.
		if st, err := os.Stat(p); err == nil && !st.IsDir() && (exeSuffix != "" || st.Mode()&0o111 != 0) {
			return p, nil
		}
	}
	return exec.LookPath(program)
}

// exeSuffix ends a program's file name: ".exe" on Windows (the release archives put cgt.exe and
// cgt-mcp.exe side by side), nothing elsewhere.
var exeSuffix = func() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}()

// modulePath is cgt's module, named on the first line of its go.mod.
const modulePath = "github.com/cgt-tools/cgt"

// inSourceTree reports whether dir is the root of cgt's source tree.
func inSourceTree(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return f[1] == modulePath
		}
	}
	return false
}

// FindSibling is the path of a sibling program of cgt: next to the running executable, then
// on PATH (cgt-fetch, which fetches for fx.update).
func FindSibling(program string) (string, error) { return findSibling(program) }
