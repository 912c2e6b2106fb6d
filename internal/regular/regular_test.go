//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/internal/loadaware"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ledger.cgt")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.cgt")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	fifoLink := filepath.Join(dir, "fifo-link")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link} {
		if b, err := ReadFile(p, 10); err != nil || string(b) != "0123456789" {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	var tl *TooLargeError
	if _, err := ReadFile(file, 9); !errors.As(err, &tl) {
		t.Errorf("over the limit: %v", err)
	}
	for p, want := range map[string]string{fifo: "a FIFO (named pipe)", fifoLink: "a FIFO (named pipe)", "/dev/zero": "a character device", dir: "a directory"} {
		start := time.Now()
		_, err := ReadFile(p, 0)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want it refused as %s", p, err, want)
		}
		if took := time.Since(start); took > loadaware.Bound(time.Second) {
			t.Errorf("%s: took %v: it should be refused without opening (a FIFO's open waits for a writer)", p, took)
		}
	}
}
