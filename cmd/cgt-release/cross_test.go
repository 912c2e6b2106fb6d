package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEveryTargetCompiles type-checks every program for each release target, as the compiler
// would see it there (the files that target's build constraints select, CGO_ENABLED=0): a
// Linux-only call without a build tag, or a file missing for one system, fails here rather
// than in `make release`. It is the check CI runs; it reads the sources once per target and
// skips the bodies of functions outside this module, so it takes seconds where compiling the
// six targets from a cold cache takes minutes (`make release` does the full builds).
func TestEveryTargetCompiles(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range Targets {
		t.Run(strings.ReplaceAll(target.String(), "/", "_"), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			n, err := typeCheck(root, target)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d packages type-checked in %s", target, n, time.Since(start).Round(time.Millisecond))
		})
	}
}

// listedPackage is what go list says of one package for a target.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	ImportMap  map[string]string
	Standard   bool
	Module     *struct{ Path string }
	Error      *struct{ Err string }
	DepsErrors []*struct{ Err string }
}

// typeCheck lists the programs' packages for target (dependencies first) and type-checks them.
func typeCheck(root string, target Target) (int, error) {
	// -pgo=off: with a main package's default.pgo, go list names each package built with
	// that profile as a variant ("internal/cpu [github.com/cgt-tools/cgt/cmd/cgt]"), one per
	// program; the profile changes how the code is compiled, not whether it type-checks.
	args := []string{"list", "-deps", "-json", "-pgo=off"}
	for _, p := range Programs {
		args = append(args, "./cmd/"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+target.OS, "GOARCH="+target.Arch, "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	fset := token.NewFileSet()
	checked := map[string]*types.Package{"unsafe": types.Unsafe}
	sizes := types.SizesFor("gc", target.Arch)
	n := 0
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return n, err
		}
		if p.Error != nil {
			return n, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		if len(p.DepsErrors) > 0 {
			return n, fmt.Errorf("%s: %s", p.ImportPath, p.DepsErrors[0].Err)
		}
		if p.ImportPath == "unsafe" {
			continue
		}
		if len(p.CgoFiles) > 0 {
			return n, fmt.Errorf("%s needs cgo, and releases are built with CGO_ENABLED=0", p.ImportPath)
		}
		ours := p.Module != nil && p.Module.Path == "github.com/cgt-tools/cgt"
		var files []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
			if err != nil {
				return n, err
			}
			files = append(files, af)
		}
		var firstErr error
		conf := types.Config{
			Importer:         importerFor(p, checked),
			Sizes:            sizes,
			IgnoreFuncBodies: !ours,
			Error: func(err error) {
				if firstErr == nil {
					firstErr = err
				}
			},
		}
		pkg, _ := conf.Check(p.ImportPath, fset, files, nil)
		if firstErr != nil {
			return n, fmt.Errorf("%s for %s: %v", p.ImportPath, target, firstErr)
		}
		checked[p.ImportPath] = pkg
		n++
	}
	return n, nil
}

// importerFor resolves p's imports (through its ImportMap, for vendored standard packages)
// to packages already checked: go list -deps lists dependencies first.
func importerFor(p listedPackage, checked map[string]*types.Package) importerFunc {
	return func(path string) (*types.Package, error) {
		if mapped, ok := p.ImportMap[path]; ok {
			path = mapped
		}
		if pkg, ok := checked[path]; ok {
			return pkg, nil
		}
		return nil, fmt.Errorf("%s imports %s, which was not listed before it", p.ImportPath, path)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
