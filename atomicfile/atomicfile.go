// Package atomicfile writes files so that a reader sees the old content or the new, never a
// part of either, and a failure leaves the old file as it was.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path through a temporary file in the same directory, flushed to disk
// and renamed over path. Errors name path (or its directory), never the temporary file.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write for content produced by write, which may write in many pieces; the file
// at path is replaced only if write returns nil.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
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
		if err = write(tmp); err == nil {
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
