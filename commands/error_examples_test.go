package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// Every example an error gives runs as printed: applied to the call that failed (a JSON
// object merged into its arguments, key=value words bound as the command line binds them, a
// bare value as the argument the error names), the call gets past that error; a whole
// command (cgt ...) runs; a ledger line parses. The failing calls are every golden error case
// and the planning errors below.

// errorCalls are failing calls beside the golden cases: the planning errors a user meets.
var errorCalls = []struct {
	command string
	args    map[string]any
}{
	{"plan.sale", map[string]any{"path": []any{"examples/planning.cgt"}, "ticker": "AAPL", "quantity": "10", "price": "230", "date": "2026-12-01"}},
	{"plan.sale", map[string]any{"path": []any{"examples/planning.cgt"}, "ticker": "AAPL", "quantity": "10", "price": "abc", "date": "2026-12-01"}},
	{"plan.sale", map[string]any{"path": []any{"examples/planning.cgt"}, "ticker": "AAPL", "quantity": "ten", "price": "230 USD", "date": "2026-12-01"}},
	{"plan.sale", map[string]any{"path": []any{"examples/planning.cgt"}, "ticker": "AAPL", "quantity": "1000", "price": "230 USD", "date": "2026-12-01"}},
	{"plan.sale", map[string]any{"path": []any{"examples/planning.cgt"}, "ticker": "APPL", "quantity": "10", "price": "230 USD", "date": "2026-12-01"}},
	{"plan.sale", map[string]any{"path": []any{"examples/planning.cgt"}, "ticker": "AAPL", "quantity": "10", "price": "230 USD", "date": "2026-13-01"}},
	{"plan.allowance", map[string]any{"path": []any{"examples/planning.cgt"}, "prices": "AAPL=230,VWRL=98.2", "date": "2026-12-01"}},
	{"plan.allowance", map[string]any{"path": []any{"examples/planning.cgt"}, "prices": "AAPL", "date": "2026-12-01"}},
	{"plan.harvest", map[string]any{"path": []any{"examples/planning.cgt"}, "prices": "AAPL=230,VWRL=98.2", "date": "2026-12-01"}},
	{"plan.harvest", map[string]any{"path": []any{"examples/planning.cgt"}, "date": "2026-12-01"}},
	{"plan.harvest", map[string]any{"path": []any{"examples/planning.cgt"}, "prices": "VWRL=98.2", "target_gain": "lots", "date": "2026-12-01"}},
	// an argument's schema error: the example gives that argument a valid value
	{"report.calculate", map[string]any{"path": []any{"examples/portfolio.cgt"}, "from": "2024-13-01"}},
	{"report.calculate", map[string]any{"path": []any{"examples/portfolio.cgt"}, "detail": "everything"}},
	{"transactions.parse", map[string]any{"path": []any{"examples/portfolio.cgt"}, "to": "5 April 2025"}},
	{"matching.explain", map[string]any{"path": []any{"examples/portfolio.cgt"}, "disposal_date": "2024-02-30"}},
	{"transactions.import", map[string]any{"path": []any{"examples/portfolio.cgt"}, "broker": "t212"}},
}

func TestErrorExamplesRunAsPrinted(t *testing.T) {
	reg := testRegistry(t)
	type call struct {
		name, command string
		args          map[string]any
		root          bool // paths are from the repository's root
	}
	var calls []call
	cases, _ := filepath.Glob(filepath.Join("testdata", "*", "*.args.json"))
	for _, c := range cases {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		var args map[string]any
		if json.Unmarshal(b, &args) != nil {
			continue // a golden case of arguments that are not an object
		}
		calls = append(calls, call{c, filepath.Base(filepath.Dir(c)), args, false})
	}
	for i, c := range errorCalls {
		calls = append(calls, call{c.command + "#" + string(rune('a'+i)), c.command, c.args, true})
	}
	for _, c := range calls {
		if c.root {
			t.Chdir("..")
		}
		res := execArgs(reg, c.command, c.args)
		if c.root {
			t.Chdir("commands")
		}
		if res.OK || res.Error == nil {
			if c.root {
				t.Errorf("%s %v: no error", c.command, c.args)
			}
			continue
		}
		for _, ex := range res.Error.Examples {
			t.Run(c.name+"/"+ex, func(t *testing.T) {
				checkExample(t, reg, c.command, c.args, c.root, res.Error, ex)
			})
		}
	}
}

func execArgs(reg *registry.Registry, command string, args map[string]any) envelope.Result {
	raw, _ := json.Marshal(args)
	return reg.Execute(context.Background(), command, raw)
}

var keyValue = regexp.MustCompile(`^-{0,2}[a-z_][a-z0-9_.]*=`)

// checkExample applies one example to the failing call and checks it runs as printed.
func checkExample(t *testing.T, reg *registry.Registry, command string, args map[string]any, root bool, failed *envelope.Error, ex string) {
	if root {
		t.Chdir("..")
	}
	fixed := map[string]any{}
	for k, v := range args {
		fixed[k] = v
	}
	if w, _ := shellWords(ex); len(w) > 1 && !strings.HasPrefix(ex, "cgt ") {
		if _, isCmd := reg.Lookup(w[0]); isCmd {
			ex = "cgt " + ex // a command line written without the program's name
		}
	}
	switch {
	case strings.HasPrefix(ex, "cgt "):
		if !root {
			t.Chdir("..") // a command line is run from the repository's root, as the README's are
		}
		words, ok := shellWords(ex[len("cgt "):])
		if !ok || len(words) == 0 {
			t.Fatalf("%q is not a command line a shell reads", ex)
		}
		cmd, found := reg.Lookup(words[0])
		if !found {
			t.Skipf("%q is a built-in of the command line, not a command of the registry", ex)
		}
		if se := cmd.Meta().SideEffects; se != registry.PureCalculation && se != registry.LocalFileRead {
			t.Skipf("%q reaches beyond the files (%s)", ex, se)
		}
		bound, berr := registry.BindCLI(cmd, words[1:], strings.NewReader(""))
		if berr != nil {
			t.Fatalf("%q does not parse: %s", ex, berr.Message)
		}
		for _, k := range []string{"path", "rates"} {
			files, _ := bound[k].([]any)
			if f, _ := bound[k].(string); f != "" {
				files = append(files, f)
			}
			for _, f := range files {
				if _, err := os.Stat(fmt.Sprint(f)); err != nil {
					t.Skipf("%q names %v, a file of the user's", ex, f)
				}
			}
		}
		if res := reg.ExecuteArgs(context.Background(), cmd, bound); !res.OK {
			t.Fatalf("%q fails: %s", ex, res.Error.Message)
		}
		return
	case strings.HasPrefix(ex, "{"):
		var m map[string]any
		if err := json.Unmarshal([]byte(ex), &m); err != nil {
			t.Fatalf("%q is not JSON: %v", ex, err)
		}
		for k, v := range m {
			fixed[k] = v
		}
	case keyValue.MatchString(ex):
		words, ok := shellWords(ex)
		if !ok {
			t.Fatalf("%q is not words a shell reads", ex)
		}
		cmd, _ := reg.Lookup(command)
		bound, berr := registry.BindCLI(cmd, words, strings.NewReader(""))
		if berr != nil {
			t.Fatalf("%q does not parse for %s: %s", ex, command, berr.Message)
		}
		for k, v := range bound {
			fixed[k] = v
		}
	case strings.HasPrefix(ex, "<"):
		t.Skipf("%q is what a file holds, not an argument", ex)
	default:
		if arg, ok := failed.Context["argument"].(string); ok && !strings.Contains(ex, "\n") && !dateLine.MatchString(ex) {
			fixed[arg] = ex
			break
		}
		if _, err := dsl.Parse("example", []byte(ex)); err != nil {
			t.Logf("%q is neither arguments nor a ledger line (%v)", ex, err)
		}
		return
	}
	res := execArgs(reg, command, fixed)
	if !res.OK && (res.Error.Message == failed.Message || failed.Context["argument"] != nil && res.Error.Context["argument"] == failed.Context["argument"]) {
		t.Fatalf("with %q the call still fails on the same argument: %s", ex, res.Error.Message)
	}
}

var dateLine = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} `)

// shellWords splits a line as a POSIX shell does: spaces separate words, single quotes keep
// everything, double quotes keep all but \" and \\, a backslash outside quotes escapes.
func shellWords(s string) ([]string, bool) {
	var out []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\' || s[i+1] == '$'):
				i++
				b.WriteByte(s[i])
			default:
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		out = append(out, b.String())
	}
	return out, true
}
