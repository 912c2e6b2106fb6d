package programs

import (
	"bytes"
	"strings"
	"testing"
)

func runGenArgs(t *testing.T, args ...string) (int, string) {
	var stderr bytes.Buffer
	return Gen(args, &stderr, &stderr), stderr.String()
}

func TestGenRefusesOutsideTheRepositoryRoot(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out := runGenArgs(t)
	if code != exitError || !strings.Contains(out, "run me from the root of github.com/cgt-tools/cgt") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestGenRejectsUnknownArguments(t *testing.T) {
	if code, out := runGenArgs(t, "--force"); code != exitUsage || !strings.Contains(out, "--force") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestGenCheckPassesOnTheCommittedFiles(t *testing.T) {
	t.Chdir("../../..")
	if code, out := runGenArgs(t, "--check"); code != exitOK {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
