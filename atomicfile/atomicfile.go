// Package atomicfile writes files so that a reader sees the old content or the new, never a
// part of either, and a failure leaves the old file as it was.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path through a temporary file in the same directory, flushed to disk
// and renamed over path. Errors name path (or its directory), never the temporary file.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	if fi, statErr := os.Stat(path); statErr == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, cause(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(perm); err == nil {
		if _, err = tmp.Write(data); err == nil {
			if err = tmp.Sync(); err == nil {
				err = tmp.Close()
			}
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, cause(err))
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, cause(err))
	}
	return nil
}

// cause drops the path of a *fs.PathError or *os.LinkError, which would name the temporary file.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
