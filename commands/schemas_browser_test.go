package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// TestBrowserSchemasAreThoseOfItsCommands checks the browser module's embedded argument
// schemas (schemas_embed_js.go, built only for js) against its commands (browser_js.go): every
// command the module registers has its input schema embedded under its name, and no other;
// and its result writes its own text.
// A command added to the registry and not left out of the module would otherwise fail every
// request in the page for want of its schema.
func TestBrowserSchemasAreThoseOfItsCommands(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// The commands browser_js.go leaves out (nil), by their variables here.
	byVar := map[string]registry.Command{
		"TransactionsParse": TransactionsParse, "TransactionsToDSL": TransactionsToDSL, "MatchingExplain": MatchingExplain,
		"HoldingsList": HoldingsList, "FXRate": FXRate, "FXUpdate": FXUpdate, "TaxYearInfo": TaxYearInfo,
	}
	out := map[string]bool{}
	for _, d := range parse("browser_js.go").Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					c, ok := byVar[n.Name]
					if !ok {
						t.Fatalf("browser_js.go leaves out %s: add it to this test's table", n.Name)
					}
					out[c.Meta().Name] = true
				}
			}
		}
	}
	var want []string
	texter := reflect.TypeFor[records.Texter]()
	for _, c := range All() {
		if !out[c.Meta().Name] {
			want = append(want, c.Meta().Name)
			// The module writes a result's text only as the result writes it (records.Texter):
			// the CLI's table of records for the others is not linked into it.
			if !c.ResultType().Implements(texter) {
				t.Errorf("%s runs in the browser module but its result (%s) does not write its own text", c.Meta().Name, c.ResultType())
			}
		}
	}

	// schemas_embed_js.go: each variable's //go:embed file, and browserSchemas' entries (command, &variable).
	file := parse("schemas_embed_js.go")
	embedded := map[string]string{}
	ast.Inspect(file, func(n ast.Node) bool {
		if s, ok := n.(*ast.ValueSpec); ok && s.Doc != nil {
			for _, c := range s.Doc.List {
				if p, ok := strings.CutPrefix(c.Text, "//go:embed "); ok {
					embedded[s.Names[0].Name] = strings.TrimSpace(p)
				}
			}
		}
		return true
	})
	var got []string
	ast.Inspect(file, func(n ast.Node) bool {
		entry, ok := n.(*ast.CompositeLit)
		if !ok || len(entry.Elts) != 2 {
			return true
		}
		lit, ok := entry.Elts[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		name, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		v := entry.Elts[1].(*ast.UnaryExpr).X.(*ast.Ident).Name
		if embedded[v] != SchemaPath(name, "input") {
			t.Errorf("browserSchemas[%q] is %s, which embeds %q, not %s", name, v, embedded[v], SchemaPath(name, "input"))
		}
		got = append(got, name)
		return true
	})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the browser module embeds the schemas of %v; its commands are %v", got, want)
	}
}
