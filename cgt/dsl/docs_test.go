package dsl

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDocsExamplesParse reads every ledger and JSON block of docs/dsl-syntax.md, so the syntax
// reference cannot show an example the reader rejects.
func TestDocsExamplesParse(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "dsl-syntax.md"))
	if err != nil {
		t.Skipf("syntax reference not found: %v", err)
	}
	blocks := 0
	parts := strings.Split(string(doc), "```")
	for i := 1; i < len(parts); i += 2 {
		lang, body, _ := strings.Cut(parts[i], "\n")
		if lang == "json" && !strings.HasPrefix(strings.TrimSpace(body), "[") {
			continue // an error envelope, not a ledger
		}
		if lang != "" && lang != "json" {
			continue // a syntax summary or a warning, not a ledger
		}
		blocks++
		txns, err := ParseAuto("doc", []byte(body))
		if err != nil {
			t.Errorf("block %d does not parse: %v\n%s", blocks, err, body)
			continue
		}
		if strings.Contains(body, "GBP FEES 11.95 GBP") && FormatAll(txns) != body {
			t.Errorf("canonical block is not canonical:\n%s\nwant\n%s", body, FormatAll(txns))
		}
	}
	if blocks < 3 {
		t.Errorf("only %d example blocks found", blocks)
	}
	for _, ex := range append(slices.Collect(maps.Values(lineExamples)), totalFormExample, labelExample) {
		if !strings.Contains(string(doc), ex) {
			t.Errorf("docs lack the example %q", ex)
		}
	}
}

// TestBundledExamplesParse reads every ledger in examples/ and checks that its canonical form
// reads back to the same transactions.
func TestBundledExamplesParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.cgt"))
	if len(files) < 3 {
		t.Fatalf("only %d example ledgers found", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		txns, err := Parse(filepath.Base(f), src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		again, err := Parse("", []byte(FormatAll(txns)))
		if err != nil {
			t.Fatalf("%s: canonical form does not parse: %v", f, err)
		}
		sameTransactions(t, again, txns)
	}
}
