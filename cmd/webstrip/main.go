// Command webstrip writes the browser module's build overlay: a copy of each Go file of the
// module that cmd/cgt-wasm links, with the jsonschema and jsonschema_description keys taken
// out of its struct tags, and overlay.json naming the copies for `go build -overlay`.
//
// Those keys are read only by the schema reflector of the native programs (cgt gen, the
// servers' tool lists); the page never reflects a schema, yet every tag it links travels in
// the module's type data. Everything else in the files is kept byte for byte, so the page
// runs the same code.
//
//	go run ./cmd/webstrip DIR
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: webstrip DIR (writes DIR/overlay.json and the stripped files)")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "webstrip:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	files, err := moduleFiles()
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	replace := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		out, changed, err := stripTags(f, src)
		if err != nil {
			return err
		}
		if !changed {
			continue
		}
		copyPath, err := filepath.Abs(filepath.Join(dir, strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(f)))
		if err != nil {
			return err
		}
		if err := os.WriteFile(copyPath, out, 0o644); err != nil {
			return err
		}
		replace[f] = copyPath
	}
	b, err := json.MarshalIndent(map[string]any{"Replace": replace}, "", "  ")
	if err != nil {
		return err
	}
	fmt.Printf("webstrip: %d of %d files with jsonschema tags, overlay in %s\n", len(replace), len(files), dir)
	return os.WriteFile(filepath.Join(dir, "overlay.json"), append(b, '\n'), 0o644)
}

// moduleFiles lists the absolute paths of the Go files of this module that the browser
// module compiles.
func moduleFiles() ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f", `{{if .Module}}{{if .Module.Main}}{{range .GoFiles}}{{$.Dir}}/{{.}}
{{end}}{{end}}{{end}}`, "./cmd/cgt-wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	return strings.Fields(string(out)), nil
}

// stripTags returns src with the jsonschema keys removed from every struct field's tag.
func stripTags(name string, src []byte) ([]byte, bool, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false, err
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	ast.Inspect(file, func(n ast.Node) bool {
		f, ok := n.(*ast.Field)
		if !ok || f.Tag == nil {
			return true
		}
		tag, err := strconv.Unquote(f.Tag.Value)
		if err != nil {
			return true
		}
		kept := keepTag(tag)
		if kept == tag {
			return true
		}
		edits = append(edits, edit{fset.Position(f.Tag.Pos()).Offset, fset.Position(f.Tag.End()).Offset, "`" + kept + "`"})
		return true
	})
	if len(edits) == 0 {
		return src, false, nil
	}
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.from])
		out.WriteString(e.text)
		last = e.to
	}
	out.Write(src[last:])
	return out.Bytes(), true, nil
}

// keepTag is a struct tag without its jsonschema and jsonschema_description keys, the other
// key:"value" pairs kept in order. A tag it cannot read is kept whole.
func keepTag(tag string) string {
	var kept []string
	for rest := strings.TrimLeft(tag, " "); rest != ""; rest = strings.TrimLeft(rest, " ") {
		colon := strings.Index(rest, `:"`)
		if colon <= 0 || strings.ContainsAny(rest[:colon], " \"") {
			return tag
		}
		end := colon + 2
		for end < len(rest) && rest[end] != '"' {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			return tag
		}
		pair := rest[:end+1]
		if key := rest[:colon]; key != "jsonschema" && key != "jsonschema_description" {
			kept = append(kept, pair)
		}
		rest = rest[end+1:]
	}
	return strings.Join(kept, " ")
}
