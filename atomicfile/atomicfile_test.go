package atomicfile

import (
	"errors"
	"io"
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
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's -rw-------", fi.Mode())
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

func TestWriteFuncKeepsTheOldFileWhenWritingFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("encoder stopped")
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		_, _ = w.Write([]byte("half a docu"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the writer's error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("content %q, want the old file untouched", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

func TestWriteFuncWritesInPieces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		for _, p := range []string{"{", `"ok"`, ":true}"} {
			if _, err := io.WriteString(w, p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"ok":true}` {
		t.Errorf("content %q", b)
	}
}
