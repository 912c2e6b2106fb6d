package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
)

// ErrNotDir is wrapped by Deps.ReadDir when the path names a file rather than a directory.
var ErrNotDir = errors.New("not a directory")

// OSReadDir is Deps.ReadDir for a front end that may read any file (the CLI): the names of
// the non-directory entries of dir, sorted.
func OSReadDir(dir string) ([]string, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotDir)
	}
	return FileNames(dir)
}

// FileNames lists the names of the regular files and symbolic links in dir, sorted by name
// (no directories, FIFOs, devices or sockets).
// Symbolic links are listed: reading them applies the caller's file rules.
func FileNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		// Regular files and links only: a FIFO would block its reader, a device never end.
		if e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0 {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// LocalToday is the calendar day on this machine's clock, for Deps.Today.
func LocalToday() model.Date {
	t := time.Now()
	return model.NewDate(t.Year(), t.Month(), t.Day())
}
