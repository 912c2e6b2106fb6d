package mcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/internal/regular"
	"github.com/cgt-tools/cgt/registry"
)

// MaxFileSize is the largest ledger file the server reads from a root.
const MaxFileSize = 64 << 20

// Roots are the directories whose files `path` arguments may name. The zero value allows none.
type Roots struct {
	dirs []string // absolute, symlinks resolved
}

// NewRoots resolves each directory to an absolute path without symlinks. A directory that does
// not exist, or is not a directory, is an error: an operator's typo must not silently leave the
// server unable to read anything.
func NewRoots(dirs []string) (*Roots, error) {
	r := &Roots{}
	for _, d := range dirs {
		resolved, err := resolveDir(d)
		if err != nil {
			return nil, err
		}
		r.dirs = append(r.dirs, resolved)
	}
	return r, nil
}

func resolveDir(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("--root %s: %w", d, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("--root %s: %w", d, err)
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return "", fmt.Errorf("--root %s: %w", d, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("--root %s: not a directory", d)
	}
	return resolved, nil
}

// Dirs returns the allowed directories, resolved.
func (r *Roots) Dirs() []string { return append([]string(nil), r.dirs...) }

// ReadFile reads a file that lies inside one of the roots once `..` and symlinks are resolved.
// A relative path is taken relative to each root in turn. Anything else is a permission_denied
// error that names the alternatives. It is safe for concurrent use.
func (r *Roots) ReadFile(path string) ([]byte, error) {
	if path == "-" {
		return nil, envelope.New(envelope.PermissionDenied,
			`path "-" (standard input) is not available over MCP: standard input carries the protocol`,
			"Pass the ledger text in cgt_content, or the transactions as a JSON array in transactions.").With("path", path)
	}
	resolved, err := r.resolve(path)
	if err != nil {
		return nil, err
	}
	return r.read(path, resolved)
}

// ReadResource reads a file inside one of the roots, by the rules of ReadFile, for
// resources/read: at most MaxResourceBytes, which a resource's text must fit in.
func (r *Roots) ReadResource(path string) ([]byte, error) {
	resolved, err := r.resolve(path)
	if err != nil {
		return nil, err
	}
	data, err := regular.ReadFile(resolved, MaxResourceBytes)
	var tl *regular.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is larger than the %d bytes resources/read returns: pass it in a tool's path argument instead (tools read files of up to %d MiB)",
			filepath.Base(path), MaxResourceBytes, MaxFileSize>>20)
	}
	if err != nil {
		return nil, ioError(path, err)
	}
	return data, nil
}

// ReadDir lists the files of a directory inside one of the roots, by the same rules as
// ReadFile; each file is then read with ReadFile, so a link out of the roots is still refused.
// A path that is a file gives an error wrapping registry.ErrNotDir.
func (r *Roots) ReadDir(path string) ([]string, error) {
	if path == "-" {
		return nil, fmt.Errorf("-: %w", registry.ErrNotDir) // ReadFile explains why stdin is refused
	}
	resolved, err := r.resolve(path)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return nil, ioError(path, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: %w", path, registry.ErrNotDir)
	}
	names, err := registry.FileNames(resolved)
	if err != nil {
		return nil, ioError(path, err)
	}
	return names, nil
}

// resolve returns the file a path means once `..` and symlinks are resolved, if it lies
// inside a root; otherwise an io_error (inside a root, but missing) or permission_denied.
func (r *Roots) resolve(path string) (string, error) {
	var missing string
	for _, candidate := range r.candidates(path) {
		resolved, err := filepath.EvalSymlinks(candidate)
		switch {
		case err == nil && r.contains(resolved):
			return resolved, nil
		case err != nil && r.contains(candidate) && missing == "":
			missing = candidate
		}
	}
	if missing != "" {
		return "", ioError(path, fmt.Errorf("no such file (looked for %s)", missing))
	}
	return "", r.denied(path)
}

// candidates lists the absolute, cleaned paths a path may mean.
func (r *Roots) candidates(path string) []string {
	if filepath.IsAbs(path) {
		return []string{filepath.Clean(path)}
	}
	out := make([]string, 0, len(r.dirs))
	for _, d := range r.dirs {
		out = append(out, filepath.Join(d, path))
	}
	return out
}

// read reads the resolved file; errors name the path as the caller wrote it.
func (r *Roots) read(path, resolved string) ([]byte, error) {
	data, err := readLimited(resolved)
	if err != nil {
		return nil, ioError(path, err)
	}
	return data, nil
}

// contains reports whether p (absolute, clean) is a root or lies beneath one.
func (r *Roots) contains(p string) bool {
	for _, d := range r.dirs {
		if within(d, p) {
			return true
		}
	}
	return false
}

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return false
	}
	return rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readLimited reads a regular file of at most MaxFileSize bytes: a FIFO, a device or a socket
// inside a root is refused without being opened (opening a FIFO would wait for a writer).
func readLimited(p string) ([]byte, error) {
	data, err := regular.ReadFile(p, MaxFileSize)
	var nr *regular.NotRegularError
	if errors.As(err, &nr) {
		return nil, fmt.Errorf("is %s, not a ledger file", regular.Kind(nr.Mode))
	}
	return data, err
}

func ioError(p string, err error) *envelope.Error {
	return envelope.Errorf(envelope.IOError, "Check the file name; relative paths are taken from the server's --root directories.",
		"reading %s: %v", p, unwrapPathError(err)).With("path", p)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func (r *Roots) denied(path string) *envelope.Error {
	if len(r.dirs) == 0 {
		return envelope.New(envelope.PermissionDenied,
			fmt.Sprintf("cannot read %q: this MCP server reads no files (it was started without --root)", path),
			"Pass the ledger text in cgt_content (or a JSON array in transactions), or ask the operator to restart the server with --root DIR.",
		).With("path", path).With("roots", []string{})
	}
	return envelope.New(envelope.PermissionDenied,
		fmt.Sprintf("cannot read %q: it is not inside the directories this MCP server may read (%s)", path, strings.Join(r.dirs, ", ")),
		"Pass the ledger text in cgt_content (or a JSON array in transactions), name a file inside an allowed directory, or ask the operator to add one with --root DIR.",
	).With("path", path).With("roots", r.Dirs())
}
