package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/mcp"
	"github.com/cgt-tools/cgt/registry"
)

func testRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := commands.NewRegistry(&registry.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// servedCount is the number of the catalog's commands the servers offer (fx.update is the
// command line's only).
func servedCount(cat *catalog.Catalog) int {
	n := 0
	for _, c := range cat.Commands {
		if registry.SideEffect(c.SideEffects).Served() {
			n++
		}
	}
	return n
}

func TestToolsListMatchesCatalog(t *testing.T) {
	reg := testRegistry(t)
	cat := catalog.Own(reg)
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []listedTool `json:"tools"`
	}
	rpcResult(t, s, "tools/list", nil, &list)
	if len(list.Tools) != servedCount(cat) {
		t.Errorf("%d tools listed, catalog has %d commands the servers offer", len(list.Tools), servedCount(cat))
	}
	namePattern := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	for _, c := range cat.Commands {
		i := slices.IndexFunc(list.Tools, func(tl listedTool) bool {
			return tl.Name == c.MCPName
		})
		if !registry.SideEffect(c.SideEffects).Served() {
			if i >= 0 {
				t.Errorf("%s is labelled %s, which servers never offer, but is listed", c.Name, c.SideEffects)
			}
			continue
		}
		if i < 0 {
			t.Errorf("%s: no tool named %s", c.Name, c.MCPName)
			continue
		}
		tool := list.Tools[i]
		if !namePattern.MatchString(tool.Name) {
			t.Errorf("tool name %q is not a valid MCP tool name", tool.Name)
		}
		checkLightSchema(t, c.Name, withoutDefaults(t, tool.InputSchema, c.InputSchema), c.InputSchema, mcp.SharedArgNames(cat))
		if tool.OutputSchema != nil {
			t.Errorf("%s: tools/list carries an output schema without --structured", c.Name)
		}
		checkAnnotations(t, c, tool.Annotations)
		if want := strings.TrimSuffix(c.Summary, "."); !strings.HasPrefix(tool.Description, want) || strings.Count(tool.Description, ". ") > 2 {
			t.Errorf("%s: the tool's description should be the summary and when to use it, in one or two sentences:\n got: %s", c.Name, tool.Description)
		}
	}
}

// The agent front ends show their own defaults: a summary report in the input schema;
// compact output and the bound on characters, the same for every tool, in the instructions.
func TestToolSchemasShowTheAgentDefaults(t *testing.T) {
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []listedTool `json:"tools"`
	}
	rpcResult(t, s, "tools/list", nil, &list)
	for _, tool := range list.Tools {
		var sc struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		}
		json.Unmarshal(tool.InputSchema, &sc)
		for _, arg := range []string{"output", "max_chars"} { // said once, in the instructions
			if d := sc.Properties[arg].Default; d != nil {
				t.Errorf("%s: %s shows a default, %v, which the instructions give", tool.Name, arg, d)
			}
		}
		if p, ok := sc.Properties["detail"]; ok && p.Default != "summary" {
			t.Errorf("%s: detail defaults to %v, want summary", tool.Name, p.Default)
		}
	}
}

// withoutDefaults is a listed input schema with the defaults the front end added taken out
// again, for comparison with the catalog's.
func withoutDefaults(t *testing.T, listed json.RawMessage, catalogSchema map[string]any) json.RawMessage {
	t.Helper()
	var sc map[string]any
	if err := json.Unmarshal(listed, &sc); err != nil {
		t.Fatal(err)
	}
	props, _ := sc["properties"].(map[string]any)
	want, _ := catalogSchema["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		wm, _ := want[name].(map[string]any)
		if _, had := wm["default"]; !had {
			delete(pm, "default")
		} else if name == "detail" {
			pm["default"] = wm["default"]
		}
	}
	b, _ := json.Marshal(sc)
	return b
}

// listedTool is a tool of tools/list as it is on the wire.
type listedTool struct {
	Name         string               `json:"name"`
	Description  string               `json:"description"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema"`
	Annotations  mcpgo.ToolAnnotation `json:"annotations"`
}

// rpcResult sends one request to the server as JSON-RPC text, exactly as it would arrive on
// stdin, and decodes the result.
func rpcResult(t testing.TB, s *server.MCPServer, method string, params any, result any) {
	t.Helper()
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := json.Marshal(s.HandleMessage(context.Background(), msg))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || r.Error != nil {
		t.Fatalf("%s: %s", method, resp)
	}
	if err := json.Unmarshal(r.Result, result); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

// checkLightSchema checks a listed input schema against the catalog's: the same arguments,
// required ones, descriptions and enums, and each argument's types (a choice of plain types as
// a list), without the keywords that only validate.
// checkLightSchema compares a listed input schema with the catalog's: the same arguments, each
// with its description, values and types, less what only validates; an argument described
// once in the instructions (shared) lists its values and plain type only.
// checkSharedArg checks an argument described once in the instructions: the schema keeps its
// name, its values (but output's, which the instructions list) and, for fields, the names of
// the tool's fields, beginning with those the catalog lists.
func checkSharedArg(t *testing.T, name, arg string, ga, wa map[string]any) {
	t.Helper()
	wantEnum := wa["enum"]
	if arg == registry.ArgOutput {
		wantEnum = nil
	}
	desc, _ := ga["description"].(string)
	if arg == registry.ArgFields {
		items, _ := wa["items"].(map[string]any)
		names, _ := items["examples"].([]any)
		if len(names) == 0 || desc == "" {
			t.Errorf("%s.fields: the catalog lists no field names (%v), or the schema shows none (%q)", name, names, desc)
		}
		for _, n := range strings.Split(strings.TrimSuffix(desc, ", …"), ", ") {
			if !slices.Contains(names, any(n)) {
				t.Errorf("%s.fields: the schema names %q, which the catalog's field names do not have", name, n)
			}
		}
		desc = ""
	}
	if desc != "" || ga["items"] != nil || ga["type"] != nil || ga["default"] != nil || !jsonEqualValues(ga["enum"], wantEnum) {
		t.Errorf("%s.%s: an argument described once in the instructions lists %v", name, arg, ga)
	}
}

// checkShortEnum checks an argument whose long enum tools/list says in its description (the
// broker, one name an importer): how many values there are and the first of them, in order.
// It reports whether the argument was such a one.
func checkShortEnum(t *testing.T, arg string, ga, wa map[string]any) bool {
	t.Helper()
	enum, _ := wa["enum"].([]any)
	if ga["enum"] != nil || len(enum) == 0 {
		return false
	}
	desc, _ := ga["description"].(string)
	lead := fmt.Sprintf("%v One of %d: ", wa["description"], len(enum))
	if len(enum) <= 12 || !strings.HasPrefix(desc, lead) {
		t.Errorf("%s: the %d values are left out, and the description %q does not say them after %q", arg, len(enum), desc, lead)
		return true
	}
	for i, v := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(desc, lead), ", …"), ", ") {
		if v != fmt.Sprint(enum[i]) {
			t.Errorf("%s: value %d is %q in the description, %v in the enum", arg, i, v, enum[i])
		}
	}
	return true
}

func checkLightSchema(t *testing.T, name string, got json.RawMessage, want map[string]any, shared map[string]string) {
	t.Helper()
	var g map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	var w map[string]any
	json.Unmarshal(wantJSON, &w)
	if !jsonEqualValues(g["required"], w["required"]) || g["additionalProperties"] != nil {
		t.Errorf("%s: required %v, want %v, and additionalProperties (validation only) left out: %v", name, g["required"], w["required"], g["additionalProperties"])
	}
	gp, _ := g["properties"].(map[string]any)
	wp, _ := w["properties"].(map[string]any)
	if len(gp) != len(wp) {
		t.Errorf("%s: %d arguments listed, the catalog has %d", name, len(gp), len(wp))
	}
	for arg, wv := range wp {
		wa, _ := wv.(map[string]any)
		ga, ok := gp[arg].(map[string]any)
		if !ok {
			t.Errorf("%s: argument %s is not listed", name, arg)
			continue
		}
		if d, ok := shared[arg]; ok && wa["description"] == d {
			checkSharedArg(t, name, arg, ga, wa)
			continue
		}
		if checkShortEnum(t, name+"."+arg, ga, wa) {
			continue
		}
		for _, k := range []string{"description", "enum", "items"} {
			if !jsonEqualValues(ga[k], wa[k]) {
				t.Errorf("%s.%s: %s is %v, want %v", name, arg, k, ga[k], wa[k])
			}
		}
		wantType := wa["type"]
		if wa["enum"] != nil {
			wantType = nil // the values say it
		}
		if alts, ok := wa["oneOf"].([]any); ok {
			var types []any
			for _, a := range alts {
				types = append(types, a.(map[string]any)["type"])
			}
			wantType = types
		}
		if !jsonEqualValues(ga["type"], wantType) {
			t.Errorf("%s.%s: type %v, want %v", name, arg, ga["type"], wantType)
		}
		for _, k := range []string{"minimum", "maximum", "minLength", "maxLength", "pattern", "format", "oneOf"} {
			if _, has := ga[k]; has {
				t.Errorf("%s.%s: lists %s, which only validates", name, arg, k)
			}
		}
	}
}

func jsonEqualValues(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func checkAnnotations(t *testing.T, c catalog.Command, a mcpgo.ToolAnnotation) {
	t.Helper()
	// destructiveHint and idempotentHint mean something only when readOnlyHint is false.
	if a.ReadOnlyHint == nil || a.OpenWorldHint == nil || !*a.ReadOnlyHint && (a.DestructiveHint == nil || a.IdempotentHint == nil) {
		t.Fatalf("%s: annotations not all set: %+v", c.Name, a)
	}
	for _, l := range registry.SideEffectLevels {
		if string(l.Level) != c.SideEffects {
			continue
		}
		if *a.ReadOnlyHint != l.ReadOnly || *a.OpenWorldHint != l.OpenWorld {
			t.Errorf("%s (%s): annotations readOnly %v, openWorld %v do not follow the level", c.Name, c.SideEffects, *a.ReadOnlyHint, *a.OpenWorldHint)
		}
		if l.ReadOnly && (a.DestructiveHint != nil || a.IdempotentHint != nil) {
			t.Errorf("%s (%s): a read-only tool carries destructive or idempotent hints (meaningless, and tokens)", c.Name, c.SideEffects)
		}
		if !l.ReadOnly && (!*a.DestructiveHint || *a.IdempotentHint) {
			t.Errorf("%s (%s): a writing tool must be marked destructive and not idempotent", c.Name, c.SideEffects)
		}
		return
	}
	t.Errorf("%s: side effects %q is not a registry level", c.Name, c.SideEffects)
}

// exampleArguments turns a registry example (CLI words) into the JSON arguments object a
// model would send, dropping the CLI's own output flags.
func exampleArguments(t testing.TB, cmd registry.Command, ex registry.Example) map[string]any {
	t.Helper()
	var words []string
	for i := 0; i < len(ex.Args); i++ {
		switch w := ex.Args[i]; {
		case w == "--output" || w == "--fields" || w == "--max-records" || w == "--max-chars":
			i++
		case strings.HasPrefix(w, "--output="):
		default:
			words = append(words, w)
		}
	}
	args, err := registry.BindCLI(cmd, words, nil)
	if err != nil {
		t.Fatalf("%s example %v: %v", cmd.Meta().Name, ex.Args, err)
	}
	return args
}

func TestEveryToolRunsEachExample(t *testing.T) {
	c := newClient(t, repoRoot(t))
	for _, cmd := range testRegistry(t).Commands() {
		m := cmd.Meta()
		if len(m.Examples) == 0 {
			t.Errorf("%s has no example", m.Name)
		}
		if !m.SideEffects.Served() {
			continue // not offered by the servers (TestToolsListMatchesCatalog)
		}
		for _, ex := range m.Examples {
			t.Run(m.MCPName+"/"+ex.Description, func(t *testing.T) {
				env := call(t, c, m.MCPName, exampleArguments(t, cmd, ex))
				if !env.OK {
					t.Fatalf("ok=false: %s", env.Error)
				}
				if env.Warnings == nil {
					t.Error("warnings must be an array, never null")
				}
			})
		}
	}
}

func TestToolErrorsAreResultsTheModelCanFix(t *testing.T) {
	c := newClient(t)
	t.Run("missing_argument", func(t *testing.T) {
		env := call(t, c, "get_fx_rate", map[string]any{"currency": "USD", "year": 2024})
		e := errorOf(t, env)
		if env.OK || e.Code != "usage_error" || !strings.Contains(e.Message, "month") || e.Hint == "" || len(e.Examples) == 0 {
			t.Errorf("got %+v", e)
		}
	})
	t.Run("value_out_of_range", func(t *testing.T) {
		e := errorOf(t, call(t, c, "get_fx_rate", map[string]any{"currency": "USD", "year": 2024, "month": 13}))
		if e.Code != "invalid_argument" || !strings.Contains(e.Message, "13") {
			t.Errorf("got %+v", e)
		}
	})
	t.Run("unknown_argument", func(t *testing.T) {
		e := errorOf(t, call(t, c, "get_fx_rate", map[string]any{"currency": "USD", "year": 2024, "month": 3, "day": 1}))
		if e.Code != "usage_error" || !strings.Contains(e.Message, "day") {
			t.Errorf("got %+v", e)
		}
	})
	t.Run("arguments_not_an_object", func(t *testing.T) {
		e := errorOf(t, call(t, c, "get_fx_rate", []any{"USD"}))
		if e.Code != "usage_error" {
			t.Errorf("got %+v", e)
		}
	})
	t.Run("ledger_parse_error_names_the_line", func(t *testing.T) {
		tool := toolWithArgument(t, "cgt_content")
		ledger := "2024-04-01 BUY AAPL 100 @ 150.00 USD\n2024-06-20 SELL AAPL fifty @ 170.25 USD\n"
		e := errorOf(t, call(t, c, tool, map[string]any{"cgt_content": ledger}))
		if e.Code != "parse_error" || e.Context["line"] != float64(2) || e.Hint == "" || len(e.Examples) == 0 {
			t.Errorf("got %+v", e)
		}
		if v, _ := e.Context["value"].(string); !strings.Contains(v, "fifty") {
			t.Errorf("context.value = %v, want the offending text", e.Context["value"])
		}
	})
}

// toolWithArgument finds a tool that takes the named argument, so tests need not name tools.
func toolWithArgument(t testing.TB, arg string) string {
	t.Helper()
	for _, cmd := range testRegistry(t).Commands() {
		for _, a := range cmd.Args() {
			if a.Name == arg {
				return cmd.Meta().MCPName
			}
		}
	}
	t.Skipf("no command takes %s yet", arg)
	return ""
}

func TestPathArgumentsStayInsideRoots(t *testing.T) {
	tool := toolWithArgument(t, "path")
	root, outside := t.TempDir(), t.TempDir()
	ledger := []byte("2024-04-01 BUY AAPL 100 @ 150.00 GBP\n")
	for _, dir := range []string{root, outside} {
		if err := os.WriteFile(filepath.Join(dir, "ledger.cgt"), ledger, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "ledger.cgt"), filepath.Join(root, "escape.cgt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "ledger.cgt"), filepath.Join(root, "alias.cgt")); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root)
	for _, tc := range []struct {
		name, path, code string
	}{
		{"relative_inside", "ledger.cgt", ""},
		{"absolute_inside", filepath.Join(root, "ledger.cgt"), ""},
		{"symlink_inside", "alias.cgt", ""},
		{"dot_dot_escape", "../" + filepath.Base(outside) + "/ledger.cgt", "permission_denied"},
		{"absolute_outside", filepath.Join(outside, "ledger.cgt"), "permission_denied"},
		{"symlink_escape", "escape.cgt", "permission_denied"},
		{"system_file", "/etc/passwd", "permission_denied"},
		{"stdin", "-", "permission_denied"},
		{"missing_inside", "nope.cgt", "io_error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := call(t, c, tool, map[string]any{"path": []string{tc.path}})
			if tc.code == "" {
				if !env.OK {
					t.Fatalf("ok=false: %s", env.Error)
				}
				return
			}
			if e := errorOf(t, env); e.Code != tc.code {
				t.Errorf("code %s, want %s: %+v", e.Code, tc.code, e)
			}
		})
	}
}

// rateFile is a made-up month in the shape of HMRC's monthly XML file.
const rateFile = `<?xml version="1.0" encoding="UTF-8"?>
<exchangeRateMonthList Period="01/Oct/2026 to 31/Oct/2026">
  <exchangeRate><countryName>USA</countryName><countryCode>US</countryCode><currencyName>Dollar</currencyName><currencyCode>USD</currencyCode><rateNew>1.3250</rateNew></exchangeRate>
</exchangeRateMonthList>
`

// Rate files follow the same root rules as ledgers, for files and for directories alike.
func TestRatesArgumentsStayInsideRoots(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	for _, dir := range []string{filepath.Join(root, "rates"), filepath.Join(outside, "rates")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "2026-10.xml"), []byte(rateFile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := [][2]string{ // link, target
		{filepath.Join(root, "escape"), filepath.Join(outside, "rates")},
		{filepath.Join(root, "alias.xml"), filepath.Join(root, "rates", "2026-10.xml")},
		{filepath.Join(root, "escape-file.xml"), filepath.Join(outside, "rates", "2026-10.xml")},
		// A directory inside the root whose .xml file links out of it: listing the directory
		// is allowed, reading the file is not.
		{filepath.Join(root, "leaky", "2026-10.xml"), filepath.Join(outside, "rates", "2026-10.xml")},
	}
	if err := os.Mkdir(filepath.Join(root, "leaky"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		if err := os.Symlink(l[1], l[0]); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, root)
	for _, tc := range []struct {
		name, path, code string
	}{
		{"file_inside", "rates/2026-10.xml", ""},
		{"directory_inside", "rates", ""},
		{"absolute_directory_inside", filepath.Join(root, "rates"), ""},
		{"symlink_inside", "alias.xml", ""},
		{"directory_outside", filepath.Join(outside, "rates"), "permission_denied"},
		{"file_outside", filepath.Join(outside, "rates", "2026-10.xml"), "permission_denied"},
		{"dot_dot_escape", "../" + filepath.Base(outside) + "/rates", "permission_denied"},
		{"symlinked_directory_escape", "escape", "permission_denied"},
		{"symlinked_file_escape", "escape-file.xml", "permission_denied"},
		{"file_in_directory_links_out", "leaky", "permission_denied"},
		{"stdin", "-", "invalid_argument"},
		{"missing_inside", "nope.xml", "io_error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := call(t, c, "get_fx_rate", map[string]any{"currency": "USD", "year": 2026, "month": 10, "rates": []string{tc.path}})
			if tc.code == "" {
				var data struct{ Rate string }
				if !env.OK || json.Unmarshal(env.Data, &data) != nil || data.Rate != "1.3250" {
					t.Fatalf("ok=%v data=%s error=%s", env.OK, env.Data, env.Error)
				}
				return
			}
			e := errorOf(t, env)
			if e.Code != tc.code || e.Context["argument"] != "rates" {
				t.Errorf("code %s, want %s, argument rates: %+v", e.Code, tc.code, e)
			}
			if tc.code == "permission_denied" && (strings.Contains(e.Hint, "cgt_content") || !strings.Contains(e.Hint, "--root")) {
				t.Errorf("hint %q should be about rate files and --root", e.Hint)
			}
		})
	}
	t.Run("without_roots", func(t *testing.T) {
		e := errorOf(t, call(t, newClient(t), "get_fx_rate", map[string]any{"currency": "USD", "year": 2026, "month": 10, "rates": []string{"rates"}}))
		if e.Code != "permission_denied" {
			t.Errorf("got %+v", e)
		}
	})
}

func TestWithoutRootsPathIsRefusedWithTheAlternative(t *testing.T) {
	tool := toolWithArgument(t, "path")
	e := errorOf(t, call(t, newClient(t), tool, map[string]any{"path": []string{"ledger.cgt"}}))
	if e.Code != "permission_denied" || !strings.Contains(e.Hint, "cgt_content") || !strings.Contains(e.Message+e.Hint, "--root") {
		t.Errorf("got %+v", e)
	}
}

func TestRootsReadFile(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.cgt"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	r, err := mcp.NewRoots([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := r.ReadFile(filepath.Join(root, "sub", "..", "a.cgt")); err != nil || string(b) != "x" {
		t.Errorf("clean path inside: %q, %v", b, err)
	}
	for _, p := range []string{"sub", root} {
		if _, err := r.ReadFile(p); err == nil || !strings.Contains(err.Error(), "io_error") {
			t.Errorf("directory %s: %v, want io_error", p, err)
		}
	}
	if _, err := mcp.NewRoots([]string{filepath.Join(root, "missing")}); err == nil {
		t.Error("a missing --root directory must be an error")
	}
	if _, err := mcp.NewRoots([]string{filepath.Join(root, "a.cgt")}); err == nil {
		t.Error("a --root that is a file must be an error")
	}
}

func TestRootsReadDir(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.xml"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	r, err := mcp.NewRoots([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if names, err := r.ReadDir("."); err != nil || !slices.Equal(names, []string{"a.xml"}) {
		t.Errorf("root listing: %v, %v; want [a.xml] (files only)", names, err)
	}
	if _, err := r.ReadDir("a.xml"); !errors.Is(err, registry.ErrNotDir) {
		t.Errorf("a file: %v, want ErrNotDir", err)
	}
	if _, err := r.ReadDir("/etc"); err == nil || !strings.Contains(err.Error(), "permission_denied") {
		t.Errorf("outside the root: %v, want permission_denied", err)
	}
}

func TestToolName(t *testing.T) {
	for in, want := range map[string]string{
		"formula.cagr":            "formula_cagr",
		"backtest.factor.payload": "backtest_factor_payload",
		"a b/ç":                   "a_b__",
		strings.Repeat("x", 70):   strings.Repeat("x", 64),
	} {
		if got := mcp.ToolName(in); got != want {
			t.Errorf("ToolName(%q) = %q, want %q", in, got, want)
		}
	}
}

// --toolsets serves only the tools of the namespaces named; a name that is none is an error
// listing those there are.
func TestToolsets(t *testing.T) {
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "test", Toolsets: []string{"report", "holdings"}})
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []listedTool `json:"tools"`
	}
	rpcResult(t, s, "tools/list", nil, &list)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "calculate_report,list_holdings" {
		t.Errorf("served %v", names)
	}
	if _, err := mcp.New(commands.NewRegistry, mcp.Options{Toolsets: []string{"reports"}}); err == nil || !strings.Contains(err.Error(), "report, ") {
		t.Errorf("an unknown toolset: %v", err)
	}
	all, err := mcp.New(commands.NewRegistry, mcp.Options{Toolsets: []string{"all"}})
	if err != nil {
		t.Fatal(err)
	}
	rpcResult(t, all, "tools/list", nil, &list)
	if len(list.Tools) != servedCount(catalog.Own(testRegistry(t))) {
		t.Errorf("all serves %d tools", len(list.Tools))
	}
}

// The MCP guide's table of toolsets (written by cgt gen) has a row for each name --toolsets
// takes, in the order cgt mcp --help gives them.
func TestGuideListsTheToolsets(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(repoRoot(t), "docs-site/src/content/docs/guides/mcp-setup.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, region, _ := strings.Cut(string(page), "<!-- START AUTOMATED TOOLSETS -->")
	region, _, _ = strings.Cut(region, "<!-- END AUTOMATED TOOLSETS -->")
	var rows []string
	for _, line := range strings.Split(region, "\n") {
		if name, ok := strings.CutPrefix(line, "| `"); ok && !strings.HasPrefix(name, "--") {
			name, _, _ = strings.Cut(name, "`")
			rows = append(rows, name)
		}
	}
	if want := mcp.Toolsets(commands.NewRegistry); !slices.Equal(rows, want) {
		t.Errorf("the guide lists the toolsets %v, cgt mcp serves %v: run make gen", rows, want)
	}
}
