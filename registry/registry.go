package registry

import (
	"context"
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
)

// Registry is the ordered set of commands and the dependencies they run with.
type Registry struct {
	cmds   []Command
	byName map[string]Command
	deps   *Deps
}

// mcpNamePattern is the form of an MCP tool name that every MCP client accepts.
const mcpNamePattern = `^[a-z0-9_]{1,64}$`

// isCommandName reports whether name is namespace.verb: two parts of lower-case letters,
// digits and underscores, each starting with a letter. It is a loop rather than a regexp
// because New runs on every invocation and a regexp would be compiled for it at start-up.
func isCommandName(name string) bool {
	ns, verb, ok := strings.Cut(name, ".")
	return ok && isWord(ns) && isWord(verb)
}

func isWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return isMCPChars(s)
}

// isMCPName reports whether name matches mcpNamePattern.
func isMCPName(name string) bool {
	return len(name) >= 1 && len(name) <= 64 && isMCPChars(name)
}

func isMCPChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// New builds a registry, checking that names are well formed and unique.
func New(deps *Deps, cmds ...Command) (*Registry, error) {
	r := &Registry{cmds: cmds, byName: map[string]Command{}, deps: deps}
	if deps == nil || deps.Schemas == nil {
		return nil, fmt.Errorf("registry: Deps.Schemas is not set")
	}
	for _, c := range cmds {
		c.useSchemas(deps.Schemas)
		m := c.Meta()
		if !isCommandName(m.Name) {
			return nil, fmt.Errorf("registry: command name %q is not namespace.verb", m.Name)
		}
		if !isMCPName(m.MCPName) {
			return nil, fmt.Errorf("registry: MCP name %q of %s does not match %s", m.MCPName, m.Name, mcpNamePattern)
		}
		for _, n := range []string{m.Name, m.MCPName} {
			if _, dup := r.byName[n]; dup {
				return nil, fmt.Errorf("registry: name %q registered twice", n)
			}
			r.byName[n] = c
		}
	}
	return r, nil
}

// Commands returns the commands in registration order.
func (r *Registry) Commands() []Command { return r.cmds }

// Deps returns the dependencies commands run with.
func (r *Registry) Deps() *Deps { return r.deps }

// Lookup finds a command by its name or its MCP name.
func (r *Registry) Lookup(name string) (Command, bool) {
	c, ok := r.byName[name]
	return c, ok
}

// Names returns every command name, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.cmds))
	for _, c := range r.cmds {
		names = append(names, c.Meta().Name)
	}
	order.Ascending(names)
	return names
}

// Execute runs a command from a JSON arguments object. It is the one entry point every front
// end uses; it never panics and always returns an envelope.
func (r *Registry) Execute(ctx context.Context, name string, raw json.RawMessage) envelope.Result {
	res, _ := r.ExecuteShaped(ctx, name, raw, nil)
	return res
}

// ExecuteShaped is Execute for a front end that writes the result itself: defaults fill the
// arguments the caller did not give (by canonical name, for the commands that have them:
// an agent front end's output=compact, detail=summary), and the shaping arguments come back
// as a Shape rather than reaching the handler.
func (r *Registry) ExecuteShaped(ctx context.Context, name string, raw json.RawMessage, defaults map[string]any) (envelope.Result, Shape) {
	c, ok := r.Lookup(name)
	if !ok {
		return envelope.Failure(r.unknownCommand(name), nil), Shape{}
	}
	args, err := DecodeObject(raw)
	if err != nil {
		return envelope.Failure(err, nil), Shape{}
	}
	return r.Run(ctx, c, args, defaults)
}

// ExecuteArgs runs a command from an already-decoded arguments object (the CLI binds one from
// argv). Aliases, coercion, defaults and schema validation happen here, before the handler.
func (r *Registry) ExecuteArgs(ctx context.Context, c Command, args map[string]any) envelope.Result {
	res, _ := r.Run(ctx, c, args, nil)
	return res
}

// Run is ExecuteArgs with a front end's defaults, returning the shape the arguments asked for.
func (r *Registry) Run(ctx context.Context, c Command, args map[string]any, defaults map[string]any) (res envelope.Result, sh Shape) {
	defer func() {
		if p := recover(); p != nil {
			res = envelope.Failure(envelope.Errorf(envelope.InternalError,
				"This is a fault in cgt, not in your input; please report it with the input that caused it.",
				"%s failed unexpectedly: %v", c.Meta().Name, p), nil)
		}
	}()
	specs := c.Args()
	norm, verr := normalize(c.Meta().Name, specs, args)
	if verr != nil {
		return envelope.Failure(WithExample(verr, c), nil), Shape{}
	}
	given := givenNames(specs, args)
	applyDefaults(specs, norm, given, defaults)
	if err := schemaError(c); err != nil {
		return envelope.Failure(err, nil), Shape{}
	}
	if err := validatorOf(c).check(norm); err != nil {
		// The shape still says how to write the error, as far as it can be read.
		return envelope.Failure(WithExample(err, c), nil), takeShape(c, norm, given)
	}
	sh = takeShape(c, norm, given)
	deps := r.deps
	if ctx.Done() != nil && deps != nil {
		d := *deps
		d.Context = ctx
		deps = &d
	}
	data, warnings, err := c.run(ctx, deps, norm)
	if err != nil {
		return envelope.Failure(err, warnings), sh
	}
	return envelope.Success(data, warnings), sh
}

func validatorOf(c Command) *validator {
	c.InputSchema()
	if tc, ok := c.(interface{ validatorRef() *validator }); ok {
		return tc.validatorRef()
	}
	return nil
}

func (c *command[A, R]) validatorRef() *validator { c.init(); return c.valid }

// schemaError is the failure of a command whose argument schema could not be had (a command
// added without running make gen has no committed schema yet).
func schemaError(c Command) *envelope.Error {
	tc, ok := c.(interface{ schemaErr() error })
	if !ok || tc.schemaErr() == nil {
		return nil
	}
	return envelope.Errorf(envelope.InternalError, "Run make gen (it writes commands/schemas/), then try again.",
		"%s cannot check its arguments: %v", c.Meta().Name, tc.schemaErr())
}

func (c *command[A, R]) schemaErr() error { c.init(); return c.errSch }

// ShellJoin writes command-line words as a POSIX shell reads them back: a word with a space
// or a character the shell treats specially is single-quoted, so an example runs as printed.
func ShellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"{}[]$&|;<>()*?#\\~`!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// WithExample gives an argument error that has no example one in CLI form: the command's
// first example that gives the argument the error names; else its first example with the
// argument added at a valid value, when the argument's schema tells one (a date, a listed
// value); else its first example. (A value the error suggests stays in its hint: set in an
// example made for other inputs, it need not run.)
func WithExample(e *envelope.Error, c Command) *envelope.Error {
	examples := c.Meta().Examples
	if len(e.Examples) > 0 || len(examples) == 0 {
		return e
	}
	args := examples[0].Args
	if name, _ := e.Context["argument"].(string); name != "" {
		name, _, _ = strings.Cut(name, ".") // an element's path: the argument's name
		if given, ok := exampleGiving(examples, c.Args(), name); ok {
			args = given
		} else if v := sampleValue(c, name); v != "" {
			args = append(args[:len(args):len(args)], name+"="+v)
		}
	}
	e.Examples = []string{"cgt " + c.Meta().Name + " " + ShellJoin(args)}
	return e
}

// exampleGiving is the first example with a word that gives the argument name, by its name
// or an alias (name=…, --name).
func exampleGiving(examples []Example, specs []ArgSpec, name string) ([]string, bool) {
	for _, ex := range examples {
		for _, w := range ex.Args {
			key, _, isPair := strings.Cut(strings.TrimPrefix(w, "--"), "=")
			if !isPair && !strings.HasPrefix(w, "--") {
				continue // a positional value
			}
			if s, ok := lookupArg(specs, key); ok && s.Name == name {
				return ex.Args, true
			}
		}
	}
	return nil, false
}

// sampleValue is a valid value of the argument as its schema tells one: a day for a date,
// the first of its listed values; "" when it tells none.
func sampleValue(c Command, name string) string {
	v := validatorOf(c)
	if v == nil {
		return ""
	}
	prop, _ := v.props[name].(map[string]any)
	if prop["format"] == "date" {
		return "2024-04-06"
	}
	if enum, _ := prop["enum"].([]any); len(enum) > 0 {
		if s, ok := enum[0].(string); ok {
			return s
		}
	}
	return ""
}

func (r *Registry) unknownCommand(name string) *envelope.Error {
	e := envelope.Errorf(envelope.UsageError, "Commands: "+strings.Join(r.Names(), ", ")+". Run `cgt` for the overview.",
		"unknown command %q", name)
	if s := r.closest(name); s != "" {
		e.Hint = "Did you mean " + s + "? " + e.Hint
	}
	return e.With("command", name).With("available", r.Names())
}

// closest suggests the command sharing the most words with the given name: namespaces, verbs
// and the words of MCP names, typed in full or shortened or lengthened at the end (holding,
// rates) when three letters or more.
func (r *Registry) closest(name string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(c rune) bool { return c == '.' || c == '_' || c == '-' || c == ' ' })
	best, bestScore := "", 0
	for _, c := range r.cmds {
		m := c.Meta()
		parts := append(strings.Split(m.Name, "."), strings.Split(m.MCPName, "_")...)
		score := 0
		for _, w := range words {
			for _, p := range parts {
				if w == p || len(w) >= 3 && len(p) >= 3 && (strings.HasPrefix(p, w) || strings.HasPrefix(w, p)) {
					score++
					break
				}
			}
		}
		if score > bestScore {
			best, bestScore = m.Name, score
		}
	}
	return best
}
