package ratecache

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestDirCreatedOnFirstWrite(t *testing.T) {
	d := New(filepath.Join(t.TempDir(), "cgt", "rates"))
	if names, err := d.List(); err != nil || len(names) != 0 {
		t.Fatalf("a folder not created yet: %v %v", names, err)
	}
	if err := d.Write("2026-09.fetched-2026-10-01.xml", []byte("<x/>")); err != nil {
		t.Fatal(err)
	}
	names, err := d.List()
	if err != nil || len(names) != 1 || names[0] != "2026-09.fetched-2026-10-01.xml" {
		t.Fatalf("listed %v %v (no temporary file may be left)", names, err)
	}
	if b, err := d.Read(names[0]); err != nil || string(b) != "<x/>" {
		t.Fatalf("read %q %v", b, err)
	}
}

func TestDirRefusesNamesOutsideIt(t *testing.T) {
	d := New(t.TempDir())
	for _, name := range []string{"", "../x.xml", "a/b.xml", ".hidden.xml"} {
		if err := d.Write(name, nil); err == nil {
			t.Errorf("Write(%q) accepted", name)
		}
		if _, err := d.Read(name); err == nil {
			t.Errorf("Read(%q) accepted", name)
		}
	}
}

func TestDefaultPath(t *testing.T) {
	if p, err := DefaultPath(func(string) string { return "/tmp/mirror" }); err != nil || p != "/tmp/mirror" {
		t.Errorf("%s overrides: %q %v", EnvVar, p, err)
	}
	if runtime.GOOS != "linux" {
		return // the user cache directory is the system's own elsewhere
	}
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	if p, err := DefaultPath(func(string) string { return "" }); err != nil || p != filepath.Join(os.Getenv("XDG_CACHE_HOME"), "cgt", "rates") {
		t.Errorf("default %q %v", p, err)
	}
}
