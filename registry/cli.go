package registry

import (
	"io"
	"strings"

	"github.com/cgt-tools/cgt/envelope"
)

// BindCLI turns the words after a command name into an arguments object: positionals (bound
// in the order the command declares), key=value, --key value, --key=value, and --json '{...}'
// (--json - reads the object from stdin). Later words override earlier ones, except that an
// array argument given several times collects every value. Front-end flags such as --output
// must already be removed.
func BindCLI(c Command, argv []string, stdin io.Reader) (map[string]any, *envelope.Error) {
	b := &cliBinder{cmd: c.Meta().Name, specs: c.Args(), obj: map[string]any{}, stdin: stdin}
	for i := 0; i < len(argv); i++ {
		var err *envelope.Error
		i, err = b.word(argv, i)
		if err != nil {
			return nil, err
		}
	}
	return b.obj, nil
}

type cliBinder struct {
	cmd   string
	specs []ArgSpec
	obj   map[string]any
	pos   []string
	stdin io.Reader
}

// word consumes the word at i (and its value, when it takes one) and returns the last index used.
func (b *cliBinder) word(argv []string, i int) (int, *envelope.Error) {
	w := argv[i]
	switch {
	case w == "--json":
		if i+1 >= len(argv) {
			return i, usage(b.cmd, "--json needs a JSON object (or - to read it from stdin)")
		}
		return i + 1, b.mergeJSON(argv[i+1])
	case strings.HasPrefix(w, "--json="):
		return i, b.mergeJSON(strings.TrimPrefix(w, "--json="))
	case strings.HasPrefix(w, "--") && len(w) > 2:
		return b.flag(argv, i)
	case isKeyValue(w):
		k, v, _ := strings.Cut(w, "=")
		return i, b.set(k, v)
	default:
		return i, b.positional(w)
	}
}

func (b *cliBinder) flag(argv []string, i int) (int, *envelope.Error) {
	key, val, hasVal := strings.Cut(argv[i][2:], "=")
	key = strings.ReplaceAll(key, "-", "_")
	spec, ok := lookupArg(b.specs, key)
	if !ok {
		return i, unknownArg(b.cmd, key, b.specs)
	}
	if hasVal {
		return i, b.set(key, val)
	}
	if spec.Type == "boolean" && (i+1 >= len(argv) || !isBoolWord(argv[i+1])) {
		return i, b.set(key, "true")
	}
	if i+1 >= len(argv) {
		return i, usage(b.cmd, "--"+key+" needs a value")
	}
	return i + 1, b.set(key, argv[i+1])
}

func isBoolWord(s string) bool { return s == "true" || s == "false" }

// isKeyValue reports whether w looks like name=value with an identifier name.
func isKeyValue(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	if !ok || k == "" {
		return false
	}
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func (b *cliBinder) set(key, val string) *envelope.Error {
	spec, ok := lookupArg(b.specs, key)
	if !ok {
		return unknownArg(b.cmd, key, b.specs)
	}
	if spec.Type == "array" {
		prev, _ := b.obj[spec.Name].([]any)
		b.obj[spec.Name] = append(prev, coerceArray(val).([]any)...)
		return nil
	}
	b.obj[spec.Name] = val
	return nil
}

func (b *cliBinder) mergeJSON(s string) *envelope.Error {
	raw := []byte(s)
	if s == "-" {
		if b.stdin == nil {
			return usage(b.cmd, "--json - needs standard input")
		}
		data, err := io.ReadAll(b.stdin)
		if err != nil {
			return envelope.Errorf(envelope.IOError, "", "reading arguments from stdin: %v", err)
		}
		raw = data
	}
	obj, err := DecodeObject(raw)
	if err != nil {
		return err
	}
	for k, v := range obj {
		b.obj[k] = v
	}
	return nil
}

func (b *cliBinder) positional(w string) *envelope.Error {
	n := len(b.pos)
	b.pos = append(b.pos, w)
	for _, s := range b.specs {
		if s.Positional == nil {
			continue
		}
		if *s.Positional == n || s.Variadic && *s.Positional <= n {
			if s.Variadic {
				prev, _ := b.obj[s.Name].([]any)
				b.obj[s.Name] = append(prev, w)
			} else {
				b.obj[s.Name] = w
			}
			return nil
		}
	}
	return usage(b.cmd, "unexpected argument "+quote(w)+" (this command takes "+positionalList(b.specs)+")").With("value", w)
}

func positionalList(specs []ArgSpec) string {
	var names []string
	for _, s := range specs {
		if s.Positional != nil {
			names = append(names, strings.ToUpper(s.Name))
		}
	}
	if len(names) == 0 {
		return "no positional arguments; use key=value"
	}
	return "positionals " + strings.Join(names, " ")
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return `"` + s + `"`
}

func usage(cmd, msg string) *envelope.Error {
	return envelope.New(envelope.UsageError, msg, "Run `cgt help "+cmd+"` for the arguments and examples.")
}
