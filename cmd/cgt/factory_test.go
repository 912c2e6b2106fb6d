package main

import (
	"os"
	"testing"
)

// Output sent to /dev/null, a file or a pipe is not a person reading: the command line keeps
// its JSON default there (a character device like /dev/null once passed for a terminal and
// switched `cgt report.calculate x.cgt > /dev/null` to the text view).
func TestStdoutIsATerminalOnlyWhenItIsOne(t *testing.T) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(t.TempDir() + "/out.json")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	saved := os.Stdout
	defer func() { os.Stdout = saved }()
	for name, out := range map[string]*os.File{"/dev/null": devNull, "a pipe": w, "a file": file} {
		os.Stdout = out
		if newFactory().IsTerminal() {
			t.Errorf("standard output to %s counts as a terminal", name)
		}
	}
}
