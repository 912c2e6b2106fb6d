// Package regular opens and reads regular files only. A path naming a FIFO, a device or a
// socket is refused before it is opened: opening a FIFO blocks until something writes to it,
// and a device can be read without end, so a server reading whatever a path names could be
// stopped by one entry in the directory it serves.
package regular

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is the error for a path that is not a regular file; it names what it is.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// Kind names the type of a file mode for a message: "a directory", "a FIFO (named pipe)", ...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// Open opens path for reading when it is a regular file (after symbolic links), and refuses
// anything else without opening it. It opens without blocking and checks the file again once
// open, so a path swapped for a FIFO between the two is refused too.
func Open(path string) (*os.File, error) {
	f, _, err := open(path)
	return f, err
}

func open(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &NotRegularError{Path: path, Mode: info.Mode()}
		}
		return nil, nil, err
	}
	return f, info, nil
}

// TooLargeError is the error of ReadFile for a file over its limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than the %d MiB limit", e.Limit>>20)
}

// ReadFile reads a regular file of at most limit bytes (limit <= 0: no limit).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, info, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if limit > 0 && info.Size() > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	buf := bytes.NewBuffer(make([]byte, 0, info.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if limit > 0 && int64(len(data)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return data, nil
}
