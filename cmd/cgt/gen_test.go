package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cli"
)

func runGenArgs(t *testing.T, args ...string) (int, string) {
	var stderr bytes.Buffer
	f := &cli.Factory{Stdout: &stderr, Stderr: &stderr}
	return runGen(f, args), stderr.String()
}

func TestGenRefusesOutsideTheRepositoryRoot(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out := runGenArgs(t)
	if code != cli.ExitError || !strings.Contains(out, "run me from the root of github.com/cgt-tools/cgt") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestGenRejectsUnknownArguments(t *testing.T) {
	if code, out := runGenArgs(t, "--force"); code != cli.ExitUsage || !strings.Contains(out, "--force") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestGenCheckPassesOnTheCommittedFiles(t *testing.T) {
	t.Chdir("../..")
	if code, out := runGenArgs(t, "--check"); code != cli.ExitOK {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
