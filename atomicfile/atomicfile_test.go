package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

func TestWriteErrorsNameThePathNotTheTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, path, want string }{
		{"missing_directory", filepath.Join(dir, "nowhere", "out.json"), "cannot create a file in " + filepath.Join(dir, "nowhere") + ": no such file or directory"},
		{"directory_as_file", dir, dir + " is a directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(tc.path, []byte("x"), 0o644)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), ".tmp") {
				t.Errorf("error names the temporary file: %v", err)
			}
		})
	}
}
