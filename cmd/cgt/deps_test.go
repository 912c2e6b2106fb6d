package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandLineLinksNoServerOrGenerator checks the import graph of the cgt binary: the MCP
// server, the tool-cli server, the generators and their libraries (whose package inits cost
// every run of the command line milliseconds) live in the sibling programs.
func TestCommandLineLinksNoServerOrGenerator(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{
		"github.com/mark3labs/mcp-go",
		"github.com/santhosh-tekuri/jsonschema",
		"github.com/getkin/kin-openapi",
		"github.com/invopop/jsonschema", // schemas are reflected by cgt gen, read from commands/schemas
		"go.yaml.in/yaml",
		"github.com/cgt-tools/cgt/mcp",
		"github.com/cgt-tools/cgt/toolcli",
		"github.com/cgt-tools/cgt/gen",
		"github.com/cgt-tools/cgt/catalog",
		"net/http", // fx.update fetches through the cgt-fetch program
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("cgt links %s; the command line must not (it belongs to cgt-mcp, cgt-serve or cgt-gen)", dep)
			}
		}
	}
}

// upperLayers are the packages above the domain and the registry: the application (commands,
// the contract and its generator, the report views) and the front ends.
var upperLayers = []string{"commands", "mcp", "cli", "toolcli", "gen", "catalog", "reportview"}

// isUpperLayer reports whether pkg is one of upperLayers or below one.
func isUpperLayer(pkg string) bool {
	for _, l := range upperLayers {
		p := modulePath + "/" + l
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}

const modulePath = "github.com/cgt-tools/cgt"

// goList runs go list -f FORMAT over the patterns from the module root, one line a package.
func goList(t *testing.T, format string, patterns ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-f", format}, patterns...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", patterns, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestInternalHoldsLeafUtilitiesOnly checks the layers (CONTRIBUTING, "Layout"): internal/
// holds leaf utilities, which import neither the application nor a front end; programs that
// do (the release builder, the browser app's Go side) live with the programs under cmd/.
func TestInternalHoldsLeafUtilitiesOnly(t *testing.T) {
	for _, line := range goList(t, `{{.ImportPath}} {{join .Imports " "}}`, "./internal/...") {
		f := strings.Fields(line)
		for _, imp := range f[1:] {
			if isUpperLayer(imp) {
				t.Errorf("%s imports %s: internal/ holds leaf utilities only; a program belongs under cmd/", f[0], imp)
			}
		}
	}
}

// TestDomainAndRegistryReachNoUpperLayer checks that nothing the domain (cgt/...) or the
// registry depends on, directly or not, is the application or a front end.
func TestDomainAndRegistryReachNoUpperLayer(t *testing.T) {
	for _, line := range goList(t, `{{.ImportPath}} {{join .Deps " "}}`, "./cgt/...", "./registry/...", "./envelope/...", "./records/...") {
		f := strings.Fields(line)
		for _, dep := range f[1:] {
			if isUpperLayer(dep) {
				t.Errorf("%s depends on %s: the domain and the registry stand below the application and the front ends", f[0], dep)
			}
		}
	}
}

// nonTestLines counts the lines of the package's Go files that are not tests, from the module
// root, for the files matching glob.
func nonTestLines(t *testing.T, glob string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("../..", glob))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s (%v)", glob, err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n
}

// TestCommandsStayAdapters keeps the commands package an adapter layer (DESIGN §25): args,
// results, metadata, thin handlers and views. The planning commands' work is cgt/plan's
// (results.go builds their results) and their text is reportview's (plan.go); filters,
// disposals found and explained, and the messages of rows waiting for a rate are the
// engine's.
func TestCommandsStayAdapters(t *testing.T) {
	for _, c := range []struct {
		glob  string
		limit int
		what  string
	}{
		{"commands/*.go", 3000, "the commands"},
		{"commands/plan*.go", 600, "the planning commands' adapters"},
	} {
		n := nonTestLines(t, c.glob)
		t.Logf("%s: %d lines of %d", c.glob, n, c.limit)
		if n > c.limit {
			t.Errorf("%s (%s) are %d lines, over %d: move the logic that is not argument reading or a handler's glue to the domain (cgt/plan, cgt/engine, cgt/sources, cgt/fx) and the text for people to reportview, rather than growing the commands", c.what, c.glob, n, c.limit)
		}
	}
}
