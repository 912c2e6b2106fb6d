//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/internal/loadaware"
)

// TestWriteRefusesSpecialFiles guards that --out writes regular files only: a FIFO (which
// would block, or be replaced by a file) and a device (/dev/null: as root, renaming over it
// replaced the device) are refused at once, with a message naming what they are, and are
// left as they were.
func TestWriteRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "is a FIFO (named pipe), not a regular file"},
		{"/dev/null", "is a character device, not a regular file"},
		{dir, "is a directory"},
	} {
		start := time.Now()
		err := Write(tc.path, []byte("x"), 0o644)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%s) = %v, want an error containing %q", tc.path, err, tc.want)
		}
		if took := time.Since(start); took > loadaware.Bound(time.Second) {
			t.Errorf("Write(%s) took %v: it should refuse without opening (a FIFO's open waits for a reader)", tc.path, took)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi, err)
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v %v", fi, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

// TestWriteKeepsAndHonoursPermissions guards the modes: an existing 0600 file stays 0600, a
// new file gets the mode asked less the umask (0644 under umask 027 is 0640), and a private
// mode (0600, an env file holding a token) narrows an old file that was more open.
func TestWriteKeepsAndHonoursPermissions(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)

	private := filepath.Join(dir, "private.json")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.json")
	open := filepath.Join(dir, "tokens.env")
	if err := os.WriteFile(open, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path       string
		perm, want os.FileMode
	}{
		{private, 0o644, 0o600},
		{fresh, 0o644, 0o640},
		{open, 0o600, 0o600},
	} {
		if err := Write(tc.path, []byte("new"), tc.perm); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(tc.path); fi.Mode().Perm() != tc.want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(tc.path), fi.Mode().Perm(), tc.want)
		}
	}
}
