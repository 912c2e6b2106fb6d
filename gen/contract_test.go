package gen_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/gen"
)

func TestToolsJSONValidatesAgainstItsSchema(t *testing.T) {
	_, files := generated(t)
	schema := compileSchema(t, catalog.SchemaID, files["schemas/cgt-tools.schema.json"])
	tools := unmarshalInstance(t, files["tools.json"])
	if err := schema.Validate(tools); err != nil {
		t.Fatalf("tools.json does not validate against schemas/cgt-tools.schema.json: %v", err)
	}
	if got := tools.(map[string]any)["$schema"]; got != catalog.SchemaID {
		t.Errorf("tools.json $schema = %v, want %s", got, catalog.SchemaID)
	}
}

// The tools schema must reject a catalog that lacks a field DESIGN §6 promises.
func TestToolsSchemaRequiresEveryContractField(t *testing.T) {
	_, files := generated(t)
	schema := compileSchema(t, catalog.SchemaID, files["schemas/cgt-tools.schema.json"])
	for _, field := range []string{"error_codes", "playbooks", "trust_policy", "commands"} {
		doc := unmarshalInstance(t, files["tools.json"]).(map[string]any)
		delete(doc, field)
		if schema.Validate(doc) == nil {
			t.Errorf("tools.json without %s still validates", field)
		}
	}
	for _, field := range []string{"input_schema", "output_schema", "citation_fields", "agent", "mcp_name"} {
		doc := unmarshalInstance(t, files["tools.json"]).(map[string]any)
		delete(doc["commands"].([]any)[0].(map[string]any), field)
		if schema.Validate(doc) == nil {
			t.Errorf("a command without %s still validates", field)
		}
	}
}

func TestEveryCommandSchemaCompiles(t *testing.T) {
	for _, c := range builtCatalog(t).Commands {
		for kind, s := range map[string]map[string]any{"input_schema": c.InputSchema, "output_schema": c.OutputSchema} {
			raw, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			compileSchema(t, "https://cgt.invalid/"+c.Name+"/"+kind, raw)
		}
	}
}

func TestOpenAPIIsValid(t *testing.T) {
	reg, files := generated(t)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(files["openapi.json"])
	if err != nil {
		t.Fatalf("openapi.json does not load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not valid OpenAPI: %v", err)
	}
	if doc.OpenAPI != gen.OpenAPIVersion {
		t.Errorf("openapi = %q, want %q", doc.OpenAPI, gen.OpenAPIVersion)
	}
	if n := doc.Paths.Len(); n != len(reg.Commands()) {
		t.Errorf("%d paths for %d commands", n, len(reg.Commands()))
	}
	for _, cmd := range reg.Commands() {
		m := cmd.Meta()
		item := doc.Paths.Value(gen.CommandPath(m.Name))
		if item == nil || item.Post == nil {
			t.Errorf("no POST %s", gen.CommandPath(m.Name))
			continue
		}
		if item.Post.OperationID != gen.OperationID(m.Name) {
			t.Errorf("%s: operationId %q", m.Name, item.Post.OperationID)
		}
		x, _ := item.Post.Extensions["x-cgt"].(map[string]any)
		if x["command"] != m.Name || x["mcp_name"] != m.MCPName || x["side_effects"] != string(m.SideEffects) {
			t.Errorf("%s: x-cgt = %v", m.Name, x)
		}
	}
}

// Converting a schema into kin-openapi's types must not lose a keyword.
func TestOpenAPIKeepsSchemasIntact(t *testing.T) {
	reg, files := generated(t)
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(files["openapi.json"], &doc); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range reg.Commands() {
		id := gen.OperationID(cmd.Meta().Name)
		for suffix, want := range map[string]map[string]any{"_input": cmd.InputSchema(), "_data": cmd.DataSchema()} {
			if got := doc.Components.Schemas[id+suffix]; !reflect.DeepEqual(normalizeJSON(t, got), normalizeJSON(t, want)) {
				t.Errorf("components.schemas.%s differs from the registry's schema", id+suffix)
			}
		}
	}
}

func normalizeJSON(t *testing.T, v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEveryExampleRunsThroughTheCLI(t *testing.T) {
	reg, _ := generated(t)
	cat := builtCatalog(t)
	for i, cmd := range reg.Commands() {
		m := cmd.Meta()
		if len(m.Examples) == 0 {
			t.Errorf("%s has no examples", m.Name)
		}
		if !reflect.DeepEqual(cat.Commands[i].Examples, catalog.ExampleLines(m)) {
			t.Errorf("%s: tools.json examples differ from the registry's", m.Name)
		}
		for _, run := range gen.RunExamples(reg, cmd) {
			if run.ExitCode != 0 {
				t.Errorf("%s exited %d:\n%s", run.Line, run.ExitCode, run.Output)
			}
			if strings.HasPrefix(run.Output, "{") && !strings.Contains(run.Output, `"ok": true`) {
				t.Errorf("%s did not return ok:\n%s", run.Line, run.Output)
			}
		}
	}
}

var backticked = regexp.MustCompile("`([a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*)`")

func TestNextStepsAndPlaybooksNameRegisteredCommands(t *testing.T) {
	reg, _ := generated(t)
	for _, cmd := range reg.Commands() {
		for _, n := range cmd.Meta().Agent.NextSteps {
			if _, ok := reg.Lookup(n); !ok {
				t.Errorf("%s: next step %q is not a registered command", cmd.Meta().Name, n)
			}
		}
	}
	for _, p := range catalog.Playbooks() {
		named := 0
		for _, step := range p.Steps {
			for _, m := range backticked.FindAllStringSubmatch(step, -1) {
				named++
				if _, ok := reg.Lookup(m[1]); !ok {
					t.Errorf("playbook %q: step names %q, which is not a registered command", p.Task, m[1])
				}
			}
		}
		if named == 0 {
			t.Errorf("playbook %q names no command", p.Task)
		}
		if len(p.FailureModes) == 0 {
			t.Errorf("playbook %q has no failure modes", p.Task)
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

func TestLLMsTxtLinksOnlyToFilesThatExist(t *testing.T) {
	_, files := generated(t)
	// The docs build copies the contract files into public/ (contracts.json lists them).
	copied := map[string]string{}
	for _, c := range gen.Contracts {
		copied["docs-site/public/"+c.Site] = c.Repo
	}
	exists := func(p string) bool {
		if repo, ok := copied[p]; ok {
			p = repo
		}
		if _, ok := files[p]; ok {
			return true
		}
		_, err := gen.RootDeps(root).ReadFile(p)
		return err == nil
	}
	for _, m := range mdLink.FindAllStringSubmatch(string(files["llms.txt"]), -1) {
		if !exists(m[1]) {
			t.Errorf("llms.txt links to %s, which does not exist", m[1])
		}
	}
	for _, m := range mdLink.FindAllStringSubmatch(string(files["docs-site/public/llms.txt"]), -1) {
		if !exists(sitePath(m[1])) {
			t.Errorf("docs-site/public/llms.txt links to %s, which the site does not serve", m[1])
		}
	}
}

// sitePath maps a docs-site URL to the file that produces it.
func sitePath(url string) string {
	switch {
	case strings.HasSuffix(url, "/"):
		return "docs-site/src/content/docs" + strings.TrimSuffix(url, "/") + ".md"
	default:
		return "docs-site/public" + url
	}
}

func TestSkillsZipIsReproducible(t *testing.T) {
	reg, files := generated(t)
	again, err := gen.Skills(gen.SkillFiles(gen.Catalog(reg), reg))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files["skills/cgt-skills.zip"], again) {
		t.Fatal("two builds of the skills zip differ")
	}
	zr, err := zip.NewReader(bytes.NewReader(again), int64(len(again)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Modified.Year() != 1980 {
			t.Errorf("%s: modified %v, want the fixed 1980 time", f.Name, f.Modified)
		}
	}
	if !sortedStrings(names) {
		t.Errorf("zip entries not sorted: %v", names)
	}
	skill := readZipFile(t, zr, "skills/cgt/SKILL.md")
	if !regexp.MustCompile(`(?s)^---\nname: cgt\ndescription: "[^\n]+"\n---\n`).MatchString(skill) {
		t.Errorf("SKILL.md front matter is not name + description:\n%.300s", skill)
	}
}

func readZipFile(t *testing.T, zr *zip.Reader, name string) string {
	f, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s not in the zip: %v", name, err)
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b)
}

func sortedStrings(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] > s[i] {
			return false
		}
	}
	return true
}

func TestGenerationIsDeterministic(t *testing.T) {
	reg, files := generated(t)
	again, err := gen.Files(reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(files) {
		t.Fatalf("%d files, then %d", len(files), len(again))
	}
	for p, b := range files {
		if !bytes.Equal(b, again[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

func TestGeneratedFilesCarryTheMarker(t *testing.T) {
	_, files := generated(t)
	for p, b := range files {
		switch {
		case strings.HasSuffix(p, ".zip"):
		case bytes.Contains(b, []byte("<!-- START AUTOMATED ")):
			// a hand-written page whose marked regions are generated
		case strings.HasSuffix(p, ".json"):
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil || m["x-generated-by"] != gen.GeneratedBy {
				t.Errorf("%s: no x-generated-by %q", p, gen.GeneratedBy)
			}
		default:
			head := string(b[:min(len(b), 2000)])
			if !strings.Contains(strings.ToLower(head), "generated by cgt gen") {
				t.Errorf("%s: no generated-by header line", p)
			}
		}
	}
}
