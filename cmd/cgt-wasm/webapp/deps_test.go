package webapp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestBrowserModuleLinksWhatThePageRuns checks the import graph of the WebAssembly module
// (cmd/cgt-wasm, built for GOOS=js GOARCH=wasm): the registry, its commands and their domain,
// and no server, generator, schema reflector or terminal code, whose bytes every visitor of the
// page would download (the module's budget is 2,000,000 bytes gzipped).
func TestBrowserModuleLinksWhatThePageRuns(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "..")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	forbidden := []string{
		"github.com/mark3labs/mcp-go",
		"github.com/santhosh-tekuri/jsonschema",
		"github.com/getkin/kin-openapi",
		"github.com/invopop/jsonschema",
		"go.yaml.in/yaml",
		"golang.org/x/term",
		"net/http",
		"crypto/sha256", // the FIPS 140 module, ~45 KB gzipped: cgt/internal/digest instead
		"crypto/internal/fips140",
		"net/url",      // fx.update's base_url check, the command line's only
		"html",         // its table of named entities, ~20 KB gzipped: reportview escapes by itself
		"encoding/xml", // ~20 KB gzipped: cgt/internal/xmlscan reads the rate and Flex files
		"github.com/cgt-tools/cgt/mcp",
		"github.com/cgt-tools/cgt/toolcli",
		"github.com/cgt-tools/cgt/gen",
		"github.com/cgt-tools/cgt/catalog",
		"github.com/cgt-tools/cgt/cli",
		"github.com/cgt-tools/cgt/registry/reflectschema",
	}
	for _, dep := range deps {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("the browser module links %s, which the page does not run", dep)
			}
		}
	}
	for _, need := range []string{"github.com/cgt-tools/cgt/registry", "github.com/cgt-tools/cgt/commands", "syscall/js"} {
		if !strings.Contains(" "+strings.Join(deps, " ")+" ", " "+need+" ") {
			t.Errorf("the browser module does not link %s", need)
		}
	}
}

// TestBrowserModuleCompilesNoRegularExpression keeps the regexp package out of the module:
// with regexp/syntax and the Unicode tables it brings it was a tenth of the download, and any
// reachable *regexp.Regexp links all of it (its UnmarshalText compiles). The importers and
// the argument validator read text with hand-written matchers instead. Only decimal imports
// regexp, for a function nothing calls, which the linker leaves out; the module's function
// names are checked for that too, unless -short.
func TestBrowserModuleCompilesNoRegularExpression(t *testing.T) {
	for _, f := range moduleImports(t) {
		if f[0] == "github.com/shopspring/decimal" || strings.HasPrefix(f[0], "regexp") {
			continue
		}
		for _, imp := range f[1:] {
			if imp == "regexp" || imp == "regexp/syntax" {
				t.Errorf("%s imports %s: the browser module must not link it (see cgt/imports/match.go)", f[0], imp)
			}
		}
	}
	if testing.Short() {
		return
	}
	for _, name := range moduleFunctionNames(t) {
		if (strings.HasPrefix(name, "regexp.") || strings.HasPrefix(name, "regexp_syntax.")) && !strings.Contains(name, ".init") {
			t.Errorf("the browser module links %s", name)
		}
	}
}

// TestBrowserModuleSortsThroughOneRoutine keeps package slices' sorting code out of the
// module for cgt's own element types: slices.SortFunc, SortStableFunc and Sort are compiled
// again for every element type (15–25 KB each before gzip), so the module's sorts go through
// internal/order, whose browser build is sort.Slice for every type (the same order). The
// standard library's own sorts (encoding/json's fields and map keys, fmt's map printing,
// fmt.Errorf's argument indexes) are allowed. Skipped with -short.
func TestBrowserModuleSortsThroughOneRoutine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	allowed := []string{"encoding_json.", "Key_reflect.Value__Value_reflect.Value", "Ordered_go.shape.int_"}
	for _, name := range moduleFunctionNames(t) {
		if !strings.HasPrefix(name, "slices.pdqsort") && !strings.HasPrefix(name, "slices.stable") {
			continue
		}
		if !slices.ContainsFunc(allowed, func(a string) bool { return strings.Contains(name, a) }) {
			t.Errorf("the browser module compiles %s: sort with internal/order (Hot, HotStable, Ascending), not package slices", name)
		}
	}
}

// TestBrowserModuleLeavesOutWhatThePageDoesNotRun checks the module's function names for
// code that came back once and cost a few KB gzipped each. Skipped with -short.
func TestBrowserModuleLeavesOutWhatThePageDoesNotRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	left := []struct{ prefix, why string }{
		// The argument validator compares numbers by their digits (registry/argcheck/number.go);
		// math/big's integers stay, for decimal's arithmetic.
		{"math_big.__Rat_.", "math/big.Rat: 5 KB"},
		// The page has no rate cache (commands/ratescache_js.go).
		{"github.com_cgt_tools_cgt_cgt_fx.WithCache", "the rate cache: 7 KB"},
		{"embed.", "embed.FS: the schemas are strings (commands/schemas_embed_js.go)"},
		// Every command the page runs writes its own text; the CLI's table of a result's
		// records (records.Of, with its reflection over result types) is not linked.
		{"github.com_cgt_tools_cgt_records.Of", "the records of a result: 38 KB"},
	}
	for _, name := range moduleFunctionNames(t) {
		for _, l := range left {
			if strings.HasPrefix(name, l.prefix) {
				t.Errorf("the browser module links %s (%s)", name, l.why)
			}
		}
	}
}

var moduleNames struct {
	sync.Once
	names []string
	err   error
}

// moduleFunctionNames builds the module once for the tests (with its "name" section) and
// returns its function names.
func moduleFunctionNames(t *testing.T) []string {
	t.Helper()
	moduleNames.Do(func() {
		dir, err := os.MkdirTemp("", "cgt-wasm-names")
		if err != nil {
			moduleNames.err = err
			return
		}
		defer os.RemoveAll(dir)
		wasm := filepath.Join(dir, "cgt.wasm")
		build := exec.Command("go", "build", "-ldflags=-w", "-o", wasm, "..")
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if b, err := build.CombinedOutput(); err != nil {
			moduleNames.err = fmt.Errorf("go build: %v\n%s", err, b)
			return
		}
		moduleNames.names, moduleNames.err = wasmFunctionNames(wasm)
		if moduleNames.err == nil && !slices.Contains(moduleNames.names, "main.main") {
			moduleNames.err = fmt.Errorf("the module's function names were not read (%d names)", len(moduleNames.names))
		}
	})
	if moduleNames.err != nil {
		t.Fatal(moduleNames.err)
	}
	return moduleNames.names
}

// wasmFunctionNames reads the function names of a WebAssembly module's "name" section.
func wasmFunctionNames(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	uleb := func(i int) (uint64, int) {
		var v uint64
		for shift := 0; i < len(b); shift += 7 {
			c := b[i]
			i++
			v |= uint64(c&0x7f) << shift
			if c < 0x80 {
				break
			}
		}
		return v, i
	}
	for i := 8; i < len(b); {
		id := b[i]
		size, body := uleb(i + 1)
		end := body + int(size)
		if id == 0 {
			n, j := uleb(body)
			if string(b[j:j+int(n)]) == "name" {
				for j += int(n); j < end; {
					sub := b[j]
					subSize, k := uleb(j + 1)
					if sub == 1 {
						count, k := uleb(k)
						names := make([]string, 0, count)
						for range count {
							_, k = uleb(k)
							l, k2 := uleb(k)
							names = append(names, string(b[k2:k2+int(l)]))
							k = k2 + int(l)
						}
						return names, nil
					}
					j = k + int(subSize)
				}
			}
		}
		i = end
	}
	return nil, fmt.Errorf("%s has no function names", path)
}

// TestBrowserModuleCallsJSONThroughJSONX keeps encoding/json's implementation out of the
// module: cgt's packages call JSON through internal/jsonx, which is the page's own codec in
// the module (70 KB gzipped where encoding/json took 110). Only jsonx and the codec import
// encoding/json, for its types; a call from anywhere else would link it all again.
func TestBrowserModuleCallsJSONThroughJSONX(t *testing.T) {
	allowed := []string{"github.com/cgt-tools/cgt/internal/jsonx", "github.com/cgt-tools/cgt/internal/jsoncodec"}
	for _, f := range moduleImports(t) {
		if !strings.HasPrefix(f[0], "github.com/cgt-tools/cgt") || slices.Contains(allowed, f[0]) {
			continue
		}
		if slices.Contains(f[1:], "encoding/json") {
			t.Errorf("%s imports encoding/json: the browser module's packages call internal/jsonx", f[0])
		}
	}
}

// moduleImports is each package the browser module links followed by the packages it
// imports (go list -deps for js/wasm), one slice a package.
func moduleImports(t *testing.T) [][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "..")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var pkgs [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			pkgs = append(pkgs, f)
		}
	}
	return pkgs
}
