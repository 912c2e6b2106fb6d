package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/cgt-tools/cgt/mcp"
)

// financeCatalog is a third-party Finance-CLI catalog kept outside the repository.
var financeCatalog = filepath.Join("..", "..", "shared", "finance-cli", "tools.json")

func readFinanceCatalog(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(financeCatalog)
	if err != nil {
		skipOrFail(t, "the Finance CLI catalog is not at %s: %v", financeCatalog, err)
	}
	return data
}

// standInProgram writes a program that runs this test binary as the stand-in.
func standInProgram(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "finance")
	script := "#!/bin/sh\n" + standInEnv + "=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func externalClient(t *testing.T, allow ...string) *client.Client {
	t.Helper()
	s, err := mcp.NewExternal(mcp.ExternalOptions{Catalog: readFinanceCatalog(t), Program: standInProgram(t), Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	return startClient(t, s)
}

func TestExternalCatalogListsEveryCommand(t *testing.T) {
	cat, err := mcp.LoadCatalog(readFinanceCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Commands []json.RawMessage `json:"commands"`
	}
	json.Unmarshal(readFinanceCatalog(t), &raw)
	if len(cat.Tools) != len(raw.Commands) || len(cat.Tools) == 0 {
		t.Fatalf("loaded %d tools from %d commands", len(cat.Tools), len(raw.Commands))
	}
	s, err := mcp.NewExternal(mcp.ExternalOptions{Catalog: readFinanceCatalog(t), Program: standInProgram(t)})
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []listedTool `json:"tools"`
	}
	rpcResult(t, s, "tools/list", nil, &list)
	byName := map[string]listedTool{}
	for _, tl := range list.Tools {
		byName[tl.Name] = tl
	}
	for _, tool := range cat.Tools {
		got, ok := byName[strings.ReplaceAll(tool.Command, ".", "_")]
		if !ok {
			t.Errorf("%s is not listed as %s", tool.Command, mcp.ToolName(tool.Command))
			continue
		}
		a := got.Annotations
		if a.ReadOnlyHint == nil || a.OpenWorldHint == nil || !*a.ReadOnlyHint && (a.DestructiveHint == nil || a.IdempotentHint == nil) {
			t.Errorf("%s: annotations not all set", got.Name)
		} else if *a.OpenWorldHint != strings.Contains(tool.SideEffects, "network") || !*a.ReadOnlyHint {
			t.Errorf("%s (%s): readOnly=%v openWorld=%v", got.Name, tool.SideEffects, *a.ReadOnlyHint, *a.OpenWorldHint)
		}
		if !jsonEqual(t, got.InputSchema, tool.InputSchema) {
			t.Errorf("%s: input schema changed", got.Name)
		}
	}
}

func TestExternalCallReturnsTheProgramsEnvelope(t *testing.T) {
	c := externalClient(t)
	env := call(t, c, "formula_cagr", map[string]any{"start": 100, "end": 150.5, "periods": 3})
	if !env.OK || len(env.Warnings) != 1 || env.Warnings[0] != "stand-in: no provider" {
		t.Fatalf("got %+v", env)
	}
	var data struct {
		Command string            `json:"command"`
		Args    map[string]string `json:"args"`
	}
	json.Unmarshal(env.Data, &data)
	want := map[string]string{"start": "100", "end": "150.5", "periods": "3"}
	if data.Command != "formula.cagr" || !mapsEqual(data.Args, want) {
		t.Errorf("program saw %s %v, want formula.cagr %v", data.Command, data.Args, want)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestExternalArraysAndObjectsBecomeWords(t *testing.T) {
	env := call(t, externalClient(t), "formula_adjusted_ebitda", map[string]any{"ebit": 9285, "d_and_a": 2237, "addbacks": []any{284, 163}})
	var data struct {
		Args map[string]string `json:"args"`
	}
	json.Unmarshal(env.Data, &data)
	if data.Args["addbacks"] != "284,163" {
		t.Errorf("addbacks passed as %q, want 284,163", data.Args["addbacks"])
	}
}

func TestExternalFailureIsAnErrorResultWithTheEnvelopeUnchanged(t *testing.T) {
	env := call(t, externalClient(t), "formula_margin", map[string]any{"numerator": 1, "denominator": 0})
	var msg string
	if env.OK || json.Unmarshal(env.Error, &msg) != nil || msg != "denominator must not be zero" || len(env.Warnings) != 1 {
		t.Errorf("got %+v (error %s)", env, env.Error)
	}
}

func TestExternalProgramWithoutEnvelopeIsReported(t *testing.T) {
	env := call(t, externalClient(t), "formula_days", daysArguments(t))
	var msg string
	json.Unmarshal(env.Error, &msg)
	if env.OK || !strings.HasPrefix(msg, "internal_error: ") || !strings.Contains(msg, "stand-in crashed") {
		t.Errorf("got %s", env.Error)
	}
}

// daysArguments builds valid arguments for formula.days from its input schema.
func daysArguments(t *testing.T) map[string]any {
	t.Helper()
	cat, err := mcp.LoadCatalog(readFinanceCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range cat.Tools {
		if tool.Command == "formula.days" {
			var s struct {
				Required   []string                  `json:"required"`
				Properties map[string]map[string]any `json:"properties"`
			}
			json.Unmarshal(tool.InputSchema, &s)
			args := map[string]any{}
			for _, r := range s.Required {
				args[r] = sampleValue(s.Properties[r])
			}
			return args
		}
	}
	t.Fatal("formula.days is not in the catalog")
	return nil
}

func sampleValue(p map[string]any) any {
	switch p["type"] {
	case "number", "integer":
		return 10
	case "boolean":
		return true
	case "array":
		return []any{1, 2}
	case "object":
		return map[string]any{}
	}
	if p["format"] == "date" {
		return "2024-01-31"
	}
	return "x"
}

func TestExternalSideEffectsNeedAllow(t *testing.T) {
	args := map[string]any{"symbol": "AAPL"}
	env := call(t, externalClient(t), "market_quote", args)
	var msg string
	json.Unmarshal(env.Error, &msg)
	if env.OK || !strings.HasPrefix(msg, "permission_denied: ") || !strings.Contains(msg, "--allow network_read_only") {
		t.Errorf("without --allow: %s", env.Error)
	}
	if env := call(t, externalClient(t, "network_read_only"), "market_quote", args); !env.OK {
		t.Errorf("with --allow network_read_only: %s", env.Error)
	}
}

func TestExternalArgumentsAreValidated(t *testing.T) {
	env := call(t, externalClient(t), "formula_cagr", map[string]any{"start": "a hundred", "end": 150, "periods": 3})
	var msg string
	json.Unmarshal(env.Error, &msg)
	if env.OK || !strings.HasPrefix(msg, "invalid_argument: ") || !strings.Contains(msg, "/start") {
		t.Errorf("got %s", env.Error)
	}
}

func TestLoadCatalogIsLenient(t *testing.T) {
	cat, err := mcp.LoadCatalog([]byte(`{"name":"x","commands":[{"name":"a.b","input_schema":{"type":"object"},
		"examples":[{"args":["1"]}],"agent":{"use_when":["one","two"],"avoid_when":5},"output_schema":"n/a","side_effects":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tool := cat.Tools[0]
	if tool.Name != "a_b" || !strings.Contains(tool.Description, "Use when: one two") || tool.OutputSchema != nil {
		t.Errorf("got %+v", tool)
	}
	for _, bad := range []string{`[]`, `{"commands":[]}`, `{"commands":[{"name":"a"}]}`, `{"commands":[{"input_schema":{}}]}`} {
		if _, err := mcp.LoadCatalog([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
