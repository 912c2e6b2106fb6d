package gen_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/gen"
	"github.com/cgt-tools/cgt/registry"
)

// root is the repository root as seen from this package's directory.
const root = ".."

var (
	genOnce  sync.Once
	genReg   *registry.Registry
	genFiles map[string][]byte
	genErr   error
)

// generated builds the registry and every generated file once per test binary.
func generated(t testing.TB) (*registry.Registry, map[string][]byte) {
	t.Helper()
	genOnce.Do(func() {
		genReg, genErr = commands.NewRegistry(gen.RootDeps(root))
		if genErr == nil {
			genFiles, genErr = gen.Files(genReg)
		}
	})
	if genErr != nil {
		t.Fatal(genErr)
	}
	return genReg, genFiles
}

// mustRegistry builds the registry reading files under dir.
func mustRegistry(t testing.TB, dir string) *registry.Registry {
	t.Helper()
	reg, err := commands.NewRegistry(gen.RootDeps(dir))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func builtCatalog(t testing.TB) *catalog.Catalog {
	reg, _ := generated(t)
	return gen.Catalog(reg)
}

// compileSchema compiles a JSON Schema document under the given URL.
func compileSchema(t testing.TB, url string, doc []byte) *jsonschema.Schema {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile: %v", url, err)
	}
	return s
}

func unmarshalInstance(t testing.TB, doc []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
