package main

import (
	"os/exec"
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
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("cgt links %s; the command line must not (it belongs to cgt-mcp, cgt-serve or cgt-gen)", dep)
			}
		}
	}
}
