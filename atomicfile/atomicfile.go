// Package atomicfile writes files so that a reader sees the old content or the new, never a
// part of either, and a failure leaves the old file as it was.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cgt-tools/cgt/internal/regular"
)

// Write writes data to path through a temporary file in the same directory, flushed to disk
// and renamed over path. Errors name path (or its directory), never the temporary file.
//
// Only a regular file is replaced: a path naming a directory, a FIFO, a device or a socket is
// refused (renaming over /dev/null would replace the device itself). A file that exists keeps
// its permissions (a 0600 file stays 0600); a new one gets perm less the process's umask, as
// any file the process creates. When perm is private (no bits for group or others, as for a
// file holding a token) the result is never more open than perm, even if the old file was.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write for content produced by write, which may write in many pieces; the file
// at path is replaced only if write returns nil.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
	keep := false
	if fi, statErr := os.Stat(path); statErr == nil {
		if err := regularOnly(path, fi); err != nil {
			return err
		}
		keep = true
		if perm&0o077 == 0 {
			perm &= fi.Mode().Perm()
		} else {
			perm = fi.Mode().Perm()
		}
	}
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, "."+filepath.Base(path)+".", ".tmp", perm)
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, cause(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if keep {
		err = tmp.Chmod(perm) // the old file's permissions, whatever the umask
	}
	if err == nil {
		if err = write(tmp); err == nil {
			if err = tmp.Sync(); err == nil {
				err = tmp.Close()
			}
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, cause(err))
	}
	// Checked again: the path may have been replaced while the content was written.
	if fi, statErr := os.Stat(path); statErr == nil {
		if err = regularOnly(path, fi); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, cause(err))
	}
	return nil
}

// regularOnly refuses to replace anything but a regular file.
func regularOnly(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	return fmt.Errorf("%s is %s, not a regular file: only a regular file is written (or replaced)", path, regular.Kind(fi.Mode()))
}

// createTemp creates a new file in dir named prefix + random + suffix, opened for writing,
// with mode perm as the system applies it (less the umask), unlike os.CreateTemp (always 0600).
func createTemp(dir, prefix, suffix string, perm os.FileMode) (*os.File, error) {
	for range 10000 {
		var r [6]byte
		if _, err := rand.Read(r[:]); err != nil {
			return nil, err
		}
		name := filepath.Join(dir, prefix+hex.EncodeToString(r[:])+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if os.IsExist(err) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: dir, Err: fs.ErrExist}
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
