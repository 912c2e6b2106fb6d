package mcp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cgt-tools/cgt/commands"
)

func TestMakeRootCreatesTheMissingFolderEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Documents", "cgt")
	fl, err := parseFlags([]string{"--root", dir, "--make-root"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := build(Program{Version: "test", NewRegistry: commands.NewRegistry}, fl); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Fatalf("root %s: %v, %d entries", dir, err, len(entries))
	}
	if _, err := parseFlags([]string{"--make-root"}, nil); err == nil {
		t.Error("--make-root without --root accepted")
	}
}

func TestMissingRootWithoutMakeRootIsAnError(t *testing.T) {
	fl, err := parseFlags([]string{"--root", filepath.Join(t.TempDir(), "typo")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := build(Program{Version: "test", NewRegistry: commands.NewRegistry}, fl); err == nil {
		t.Error("a missing --root was accepted without --make-root")
	}
}
