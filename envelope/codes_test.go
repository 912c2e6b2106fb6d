package envelope

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every error code the domain can produce is a published code: the domain's Code* constants
// (cgt/model) are in Codes, and no model.Error anywhere is given a code as a bare string.
func TestEveryDomainErrorCodeIsPublished(t *testing.T) {
	published := map[string]bool{}
	for _, c := range Codes {
		published[string(c.Code)] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec: // const CodeX = "..."
				for i, name := range n.Names {
					if strings.HasPrefix(name.Name, "Code") && i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							code, _ := strconv.Unquote(lit.Value)
							if !published[code] {
								t.Errorf("%s: %s = %q is not a published error code (envelope.Codes)", fset.Position(n.Pos()), name.Name, code)
							}
						}
					}
				}
			case *ast.KeyValueExpr: // Code: "..."
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Code" {
					if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						code, _ := strconv.Unquote(lit.Value)
						if !published[code] {
							t.Errorf("%s: error code %q is not published (envelope.Codes)", fset.Position(n.Pos()), code)
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
