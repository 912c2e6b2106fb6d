package webapp

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBrowserModuleLinksWhatThePageRuns checks the import graph of the WebAssembly module
// (cmd/cgt-wasm, built for GOOS=js GOARCH=wasm): the registry, its commands and their domain,
// and no server, generator, schema reflector or terminal code, whose bytes every visitor of the
// page would download (the module's budget is 2,500,000 bytes gzipped).
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
		"net/url", // fx.update's base_url check, the command line's only
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
