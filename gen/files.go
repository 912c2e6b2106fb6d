// Package gen generates cgt's machine contract and documentation from the registry alone:
// tools.json and its JSON Schema, openapi.json, llms.txt, llms-full.txt, the skills zip, the
// docs-site command and guide pages, and the docs-site copies of the contract. The builders
// are pure and deterministic (sorted keys, no timestamps, fixed zip times); Files collects
// them, Write writes them and Check reports which committed files are stale.
package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cgt-tools/cgt/atomicfile"
	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/registry"
	"github.com/cgt-tools/cgt/registry/reflectschema"
)

// FixCommand is the command that regenerates every generated file.
const FixCommand = "make gen"

// Files builds every generated file, keyed by path relative to the repository root. Example
// ledgers and the docs/ sources of the guide pages are read through the registry's ReadFile
// (see RootDeps), so the caller decides the root; a guide whose source does not exist yet is
// skipped.
func Files(reg *registry.Registry) (map[string][]byte, error) {
	c := Catalog(reg)
	files := map[string][]byte{}
	var err error
	if files["tools.json"], err = Tools(c); err != nil {
		return nil, fmt.Errorf("tools.json: %w", err)
	}
	if files["schemas/cgt-tools.schema.json"], err = ToolsSchema(); err != nil {
		return nil, fmt.Errorf("tools schema: %w", err)
	}
	if files["openapi.json"], err = OpenAPI(reg, catalog.Product()); err != nil {
		return nil, err
	}
	guides, err := addGuides(reg, files)
	if err != nil {
		return nil, err
	}
	files["llms.txt"] = LLMs(c, guides, Links{})
	files["llms-full.txt"] = LLMsFull(c, reg)
	if files["skills/cgt-skills.zip"], err = Skills(SkillFiles(c, reg)); err != nil {
		return nil, fmt.Errorf("skills zip: %w", err)
	}
	addCommandPages(reg, files)
	if err := addSchemaFiles(reg, files); err != nil {
		return nil, err
	}
	addPublicCopies(c, guides, files)
	if err := addMarkedPages(reg, c, files); err != nil {
		return nil, err
	}
	return files, nil
}

// addGuides renders the guide pages whose sources exist and returns those guides.
func addGuides(reg *registry.Registry, files map[string][]byte) ([]Guide, error) {
	read := reg.Deps().ReadFile
	if read == nil {
		return nil, nil
	}
	var found []Guide
	for _, g := range Guides {
		src, err := read(g.Source)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", g.Source, err)
		}
		files[g.Page] = GuidePage(g, src)
		found = append(found, g)
	}
	return found, nil
}

func addCommandPages(reg *registry.Registry, files map[string][]byte) {
	registered := func(name string) bool { _, ok := reg.Lookup(name); return ok }
	for _, cmd := range reg.Commands() {
		name := cmd.Meta().Name
		files[CommandPagePath(name)] = CommandPage(cmd, RunExamples(reg, cmd), registered)
	}
}

// addSchemaFiles writes each command's argument and result schemas beside the commands, where
// the serving programs read them instead of reflecting them at every start.
func addSchemaFiles(reg *registry.Registry, files map[string][]byte) error {
	for _, cmd := range reg.Commands() {
		name := cmd.Meta().Name
		for role, schema := range map[string]map[string]any{"input": cmd.ArgsSchema(), "data": cmd.DataSchema()} {
			b, err := CanonicalJSON(withGeneratedBy(schema))
			if err != nil {
				return fmt.Errorf("%s schema of %s: %w", role, name, err)
			}
			files["commands/"+commands.SchemaPath(name, role)] = b
		}
	}
	return nil
}

// addPublicCopies writes the list of contract files the docs build copies into public/ (the
// copies themselves are not committed), and the site's llms.txt, whose links are site URLs.
func addPublicCopies(c *catalog.Catalog, guides []Guide, files map[string][]byte) {
	type copyOf struct {
		Repo string `json:"repo"`
		Site string `json:"site"`
	}
	list := make([]copyOf, len(Contracts))
	for i, f := range Contracts {
		list[i] = copyOf{f.Repo, f.Site}
	}
	manifest, err := CanonicalJSON(map[string]any{"x-generated-by": GeneratedBy, "files": list})
	if err != nil {
		panic(err) // a fixed, marshalable value
	}
	files[siteDir+"contracts.json"] = manifest
	files[publicDir+"llms.txt"] = LLMs(c, guides, Links{Site: true})
}

// RootDeps are registry dependencies for generation: files are read relative to root and
// standard input is empty.
func RootDeps(root string) *registry.Deps {
	under := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, filepath.FromSlash(p))
		}
		return p
	}
	return &registry.Deps{
		ReadFile: func(p string) ([]byte, error) { return os.ReadFile(under(p)) },
		ReadDir:  func(p string) ([]string, error) { return registry.OSReadDir(under(p)) },
		Stdin:    strings.NewReader(""),
		Schemas:  reflectschema.Live{},
		// fx.update's examples run against a mirror that has nothing newer than the bundled
		// rates, and a cache held in memory: generating never uses the network or writes
		// outside the tree.
		RatesCache: &exampleCache{files: map[string][]byte{}},
		Fetch: func(context.Context, string) (int, []byte, error) {
			return http.StatusNotFound, nil, nil
		},
	}
}

// exampleCache is a rate cache in memory, for the examples.
type exampleCache struct{ files map[string][]byte }

func (c *exampleCache) List() ([]string, error) { return sortedKeys(c.files), nil }
func (c *exampleCache) Read(name string) ([]byte, error) {
	if b, ok := c.files[name]; ok {
		return b, nil
	}
	return nil, os.ErrNotExist
}
func (c *exampleCache) Write(name string, data []byte) error { c.files[name] = data; return nil }
func (c *exampleCache) Path() string                         { return "~/.cache/cgt/rates" }

// Write writes the files under root, each atomically, creating directories as needed; a file
// whose content is already current is left alone. It removes command pages a previous run
// generated for commands that no longer exist. It returns the paths it changed, sorted.
func Write(root string, files map[string][]byte) ([]string, error) {
	var changed []string
	for _, p := range sortedKeys(files) {
		full := filepath.Join(root, filepath.FromSlash(p))
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, files[p]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return changed, err
		}
		if err := atomicfile.Write(full, files[p], 0o644); err != nil {
			return changed, err
		}
		changed = append(changed, p)
	}
	for _, p := range orphanPages(root, files) {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return changed, err
		}
		changed = append(changed, p)
	}
	sort.Strings(changed)
	return changed, nil
}

// Check compares the files with what is under root and returns, sorted, every path that is
// missing or different, and every generated command page whose command no longer exists.
func Check(root string, files map[string][]byte) (stale []string) {
	for _, p := range sortedKeys(files) {
		old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !bytes.Equal(old, files[p]) {
			stale = append(stale, p)
		}
	}
	stale = append(stale, orphanPages(root, files)...)
	sort.Strings(stale)
	return stale
}

// orphanPages lists command pages under root that cgt gen wrote (they carry its header) but
// that are not among the files: their command was removed or renamed.
func orphanPages(root string, files map[string][]byte) []string {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(commandsDir)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		p := commandsDir + e.Name()
		if _, ok := files[p]; ok || e.IsDir() || !strings.HasSuffix(p, ".md") {
			continue
		}
		if isGeneratedPage(filepath.Join(root, filepath.FromSlash(p))) {
			out = append(out, p)
		}
	}
	return out
}

func isGeneratedPage(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return bytes.HasPrefix(data, []byte("---\n"+pageHeader+"\n"))
}
