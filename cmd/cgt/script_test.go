package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cgt-tools/cgt/cmd/internal/programs"
	"github.com/cgt-tools/cgt/internal/version"
	"github.com/cgt-tools/cgt/toolcli"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	mcpMain := func() { os.Exit(programs.MCP(version.String(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
	serveMain := func() { os.Exit(programs.Serve(version.String(), os.Args[1:], os.Stdout, os.Stderr)) }
	genMain := func() { os.Exit(programs.Gen(os.Args[1:], os.Stdout, os.Stderr)) }
	toolMain := func() {
		os.Exit(toolcli.RunClient(filepath.Base(os.Args[0]), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
	}
	// A sibling started by cgt's hand-over runs with argv[0] set to what the user typed
	// ("cgt tool"), so each is registered under that name too.
	testscript.Main(m, map[string]func(){
		"cgt":       func() { os.Exit(run()) },
		"cgt-mcp":   mcpMain,
		"cgt mcp":   mcpMain,
		"cgt-serve": serveMain,
		"cgt serve": serveMain,
		"cgt-gen":   genMain,
		"cgt gen":   genMain,
		"tool-cli":  toolMain,
		"cgt tool":  toolMain,
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script: what a user types, and what
// they see, failures included.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			return copyExample(env.WorkDir)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"exits": exits},
	})
}

// exits N PROGRAM ARGS... runs the program and checks its exit status is N; stdout and
// stderr are kept for the following checks.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if (got == want) == neg {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

func copyExample(dir string) error {
	b, err := os.ReadFile("../../examples/portfolio.cgt")
	if err != nil {
		return err
	}
	return os.WriteFile(dir+"/portfolio.cgt", b, 0o644)
}
