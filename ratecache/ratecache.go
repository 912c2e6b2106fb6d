// Package ratecache is the rate cache on disk: the folder of HMRC monthly rate files
// (os.UserCacheDir()/cgt/rates, or $CGT_RATES_CACHE) that cgt fx.update fills and every
// command reads after the bundled table. The fetch itself is ratecache/httpfetch, run by the
// command line in the cgt-fetch program, so that cgt links no HTTP client.
package ratecache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cgt-tools/cgt/atomicfile"
	"github.com/cgt-tools/cgt/registry"
)

// EnvVar names the environment variable that moves the cache folder (tests, a shared mirror).
const EnvVar = "CGT_RATES_CACHE"

// DefaultPath is the cache folder: $CGT_RATES_CACHE when set, else cgt/rates in the user's
// cache directory (~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows).
func DefaultPath(getenv func(string) string) (string, error) {
	if p := strings.TrimSpace(getenv(EnvVar)); p != "" {
		return p, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "cgt", "rates"), nil
}

// Dir is the cache folder on disk.
type Dir struct{ path string }

var _ registry.RatesCache = Dir{}

// New is the cache folder at path; it is created when first written.
func New(path string) Dir { return Dir{path: path} }

// Path is the folder.
func (d Dir) Path() string { return d.path }

// List names the regular files in the folder; a folder not created yet has none.
func (d Dir) List() ([]string, error) {
	names, err := registry.FileNames(d.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return names, err
}

// Read returns one file of the folder.
func (d Dir) Read(name string) ([]byte, error) {
	if err := plainName(name); err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(d.path, name))
}

// Write stores one file whole (written beside it, then renamed over it), creating the folder.
func (d Dir) Write(name string, data []byte) error {
	if err := plainName(name); err != nil {
		return err
	}
	if err := os.MkdirAll(d.path, 0o755); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(d.path, name), data, 0o644)
}

func plainName(name string) error {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return fmt.Errorf("%q is not a file name of the rate cache", name)
	}
	return nil
}
