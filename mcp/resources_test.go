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

// The ledgers, broker exports and rate files under a root are resources, subfolders
// included; dot files, dot folders and other files are not; files added later are listed at
// the next listing; a link out of the root is neither listed nor read.
func TestRootFilesAreResources(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(dir, name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ledger := "# mine\n2024-04-01 BUY AAPL 10 @ 150.00 USD\n"
	write(root, "portfolio.cgt", ledger)
	write(root, "2024/ledger.txt", ledger)
	write(root, "2024/notes.txt", "remember to file\n")
	write(root, "exports/t212.csv", "Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Total,Currency (Total)\n")
	write(root, "rates/2024-03.xml", `<?xml version="1.0"?>`+"\n"+`<exchangeRateMonthList Period="01/Mar/2024 to 31/Mar/2024"></exchangeRateMonthList>`+"\n")
	write(root, "package.json", `{"name":"x"}`)
	write(root, ".hidden.cgt", ledger)
	write(root, ".git/HEAD.cgt", ledger)
	write(root, "node_modules/x/y.cgt", ledger)
	secret := write(outside, "secret.cgt", ledger)
	if err := os.Symlink(secret, filepath.Join(root, "link.cgt")); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root)
	names := func() map[string]mcpgo.Resource {
		list, err := c.ListResources(context.Background(), mcpgo.ListResourcesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]mcpgo.Resource{}
		for _, r := range list.Resources {
			if strings.HasPrefix(r.URI, "file:") {
				out[r.Name] = r
			}
		}
		return out
	}
	got := names()
	want := []string{"2024/ledger.txt", "exports/t212.csv", "portfolio.cgt", "rates/2024-03.xml"}
	if len(got) != len(want) {
		t.Errorf("listed %v, want %v", keys(got), want)
	}
	for _, n := range want {
		if _, ok := got[n]; !ok {
			t.Errorf("%s is not listed (listed: %v)", n, keys(got))
		}
	}
	if r := got["exports/t212.csv"]; !strings.Contains(r.Description, "Trading 212") {
		t.Errorf("the export is described as %q", r.Description)
	}
	text, err := readResource(t, c, got["portfolio.cgt"].URI)
	if err != nil || text.Text != ledger {
		t.Errorf("reading portfolio.cgt: %v %q", err, text.Text)
	}
	write(root, "later/new.cgt", ledger)
	if _, ok := names()["later/new.cgt"]; !ok {
		t.Errorf("a file added after the start is not listed")
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The prompts name the tools to call: the planning tools when the server has them, the
// report and holdings otherwise.
func TestPrompts(t *testing.T) {
	c := newClient(t)
	list, err := c.ListPrompts(context.Background(), mcpgo.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Prompts) != 2 {
		t.Fatalf("%d prompts: %+v", len(list.Prompts), list.Prompts)
	}
	for _, p := range list.Prompts {
		req := mcpgo.GetPromptRequest{}
		req.Params.Name, req.Params.Arguments = p.Name, map[string]string{"year": "2024", "taxable_income": "60000", "prices": "AAPL=190 USD"}
		res, err := c.GetPrompt(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		text := res.Messages[0].Content.(mcpgo.TextContent).Text
		tools := map[string]bool{}
		for _, cmd := range testRegistry(t).Commands() {
			tools[cmd.Meta().MCPName] = true
		}
		switch p.Name {
		case "prepare_sa108":
			if !containsAll(text, "calculate_report", `"taxable_income":"60000"`, "box51", "warning|") {
				t.Errorf("%s:\n%s", p.Name, text)
			}
		case "sell_tax_free":
			if tools["plan_allowance"] != strings.Contains(text, "plan_allowance") || tools["plan_harvest"] != strings.Contains(text, "plan_harvest") || !strings.Contains(text, "30 days") {
				t.Errorf("%s names tools the server does not have, or misses one it has:\n%s", p.Name, text)
			}
		default:
			t.Errorf("unexpected prompt %s", p.Name)
		}
	}
}
