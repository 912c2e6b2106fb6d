package mcp_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/cgt-tools/cgt/docs"
	"github.com/cgt-tools/cgt/gen"
)

func readResource(t *testing.T, c interface {
	ReadResource(context.Context, mcpgo.ReadResourceRequest) (*mcpgo.ReadResourceResult, error)
}, uri string) (mcpgo.TextResourceContents, error) {
	t.Helper()
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.ReadResource(context.Background(), req)
	if err != nil {
		return mcpgo.TextResourceContents{}, err
	}
	if len(res.Contents) != 1 {
		t.Fatalf("%s: %d contents, want 1", uri, len(res.Contents))
	}
	text, ok := res.Contents[0].(mcpgo.TextResourceContents)
	if !ok {
		t.Fatalf("%s: contents are %T", uri, res.Contents[0])
	}
	return text, nil
}

func TestDocsAreResources(t *testing.T) {
	c := newClient(t)
	list, err := c.ListResources(context.Background(), mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]mcpgo.Resource{}
	for _, r := range list.Resources {
		listed[r.URI] = r
	}
	for file, uri := range map[string]string{"tax-rules.md": "cgt://docs/tax-rules", "dsl-syntax.md": "cgt://docs/dsl-syntax"} {
		t.Run(file, func(t *testing.T) {
			want, err := fs.ReadFile(docs.FS, file)
			if err != nil {
				skipOrFail(t, "docs/%s is not written yet", file)
			}
			r, ok := listed[uri]
			if !ok || r.MIMEType != "text/markdown" || r.Name == "" || r.Description == "" {
				t.Fatalf("%s listed as %+v", uri, r)
			}
			got, err := readResource(t, c, uri)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != string(want) || got.MIMEType != "text/markdown" || got.URI != uri {
				t.Errorf("%s: read %d bytes of %s, want docs/%s", uri, len(got.Text), got.MIMEType, file)
			}
		})
	}
}

func TestCatalogIsAResource(t *testing.T) {
	got, err := readResource(t, newClient(t), "cgt://catalog/tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Name     string `json:"name"`
		Commands []struct {
			Name    string `json:"name"`
			MCPName string `json:"mcp_name"`
		} `json:"commands"`
	}
	if err := json.Unmarshal([]byte(got.Text), &cat); err != nil || got.MIMEType != "application/json" {
		t.Fatalf("catalog resource (%s) is not JSON: %v", got.MIMEType, err)
	}
	if cat.Name != "cgt" || len(cat.Commands) != len(testRegistry(t).Commands()) {
		t.Errorf("catalog %q has %d commands", cat.Name, len(cat.Commands))
	}
	committed, err := os.ReadFile(filepath.Join(repoRoot(t), "tools.json"))
	if err != nil {
		skipOrFail(t, "tools.json is not generated yet: %v", err)
	}
	if got.Text != string(committed) {
		t.Errorf("the catalog resource differs from tools.json (%d bytes, want %d); if tools.json is stale, run %s", len(got.Text), len(committed), gen.FixCommand)
	}
}

func TestUnknownResourceIsNotFound(t *testing.T) {
	_, err := readResource(t, newClient(t), "cgt://docs/nope")
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("got %v, want a resource-not-found error", err)
	}
}
