package registry

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"sync"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// Deps are the dependencies a handler may use. Front ends fill them; handlers never reach for
// globals, files or the terminal on their own.
type Deps struct {
	// ReadFile reads a ledger file named in a `path` argument. Front ends that restrict file
	// access (the MCP server) wrap it; nil means files cannot be read at all.
	ReadFile func(path string) ([]byte, error)
	// ReadDir lists the files in a directory named in a `rates` argument, under the same
	// rules as ReadFile. For a path that is a file it returns an error wrapping ErrNotDir, and
	// the caller reads the file with ReadFile. nil means every path is read as a file.
	ReadDir func(path string) ([]string, error)
	// Stdin is read when a path is "-".
	Stdin io.Reader
	// Today is the date the front end runs on (the local calendar day); nil means unknown, as
	// in tests, whose results must not depend on the day they run.
	Today func() model.Date
	// Rates are the HMRC monthly exchange rates.
	Rates fx.Source
	// RatesCache is the folder of HMRC monthly rate files fx.update fills, read after the
	// bundled table; nil means this front end has none (tests, the browser).
	RatesCache RatesCache
	// Fetch gets a URL over the network (fx.update only): the HTTP status and the body. nil
	// means this front end does not use the network, and a command that would is refused.
	Fetch func(ctx context.Context, url string) (status int, body []byte, err error)
	// Schemas gives each command its argument and result schemas: the files cgt gen wrote
	// (the default the commands package supplies), or reflectschema.Live where schemas are
	// made from the Go types.
	Schemas SchemaSource
	// Context is the call's context when it can be cancelled (a server's call), set by the
	// registry for each such call so that long work (the engine) stops when it ends; nil
	// otherwise.
	Context context.Context
}

// RatesCache is the rate cache folder: read as an fx.CacheDir, written one whole file at a
// time (atomically: a file is there complete or not at all).
type RatesCache interface {
	fx.CacheDir
	Write(name string, data []byte) error
	// Path is the folder, for messages.
	Path() string
}

// SchemaSource gives the JSON Schema of a command's arguments (role "input") or result
// ("data"), whose Go type is t.
type SchemaSource interface {
	Schema(command, role string, t reflect.Type) (map[string]any, error)
}

// Handler is the body of a command: a plain function of its typed arguments. It returns the
// result, warnings for the caller, or an error (a *model.Error or *envelope.Error keeps its
// code; anything else becomes internal_error).
type Handler[A, R any] func(ctx context.Context, deps *Deps, args A) (R, []string, error)

// Command is a registered command with its types erased, as front ends see it.
type Command interface {
	Meta() *Meta
	// Args lists the arguments in declaration order.
	Args() []ArgSpec
	// InputSchema is the JSON Schema of the arguments object: the command's own arguments,
	// their aliases and the shaping arguments every command takes.
	InputSchema() map[string]any
	// ArgsSchema is the JSON Schema of the command's arguments struct alone, as reflected
	// (what cgt gen writes to commands/schemas).
	ArgsSchema() map[string]any
	// DataSchema is the JSON Schema of data in a successful envelope.
	DataSchema() map[string]any
	// ResultType is the Go type of data, for adapters that walk struct tags.
	ResultType() reflect.Type
	// ArgsType is the Go type of the arguments struct.
	ArgsType() reflect.Type
	run(ctx context.Context, deps *Deps, args map[string]any) (any, []string, error)
	useSchemas(SchemaSource)
}

// NewCommand registers a typed command: A is the arguments struct, R the result struct.
func NewCommand[A, R any](meta Meta, h Handler[A, R]) Command {
	return &command[A, R]{meta: meta, handler: h}
}

type command[A, R any] struct {
	meta    Meta
	handler Handler[A, R]
	schemas SchemaSource

	once   sync.Once
	args   []ArgSpec
	own    map[string]bool // the arguments the struct declares, by name
	argsSc map[string]any  // the schema of the struct alone
	input  map[string]any
	valid  *validator
	errSch error
	direct map[string][]int // plain string arguments set on the struct without JSON, by name
	ints   map[string][]int // plain int arguments, set likewise from a whole number

	// The result schema is reflected only when a generator or front end asks for it: running
	// a command never needs it.
	dataOnce sync.Once
	data     map[string]any
}

func (c *command[A, R]) Meta() *Meta { return &c.meta }

func (c *command[A, R]) useSchemas(s SchemaSource) { c.schemas = s }

func (c *command[A, R]) init() {
	c.once.Do(func() {
		at := reflect.TypeFor[A]()
		c.input, c.errSch = c.schema("input", at)
		if c.errSch != nil {
			c.input = map[string]any{"type": "object"}
		}
		c.args = argSpecs(at, c.input)
		c.direct = plainStringFields(at)
		c.ints = plainIntFields(at)
		c.own = make(map[string]bool, len(c.args))
		for _, a := range c.args {
			c.own[a.Name] = true
		}
		c.argsSc = c.input
		if c.errSch == nil {
			c.input, c.args = withShaping(c.input, c.args, fieldNames(reflect.TypeFor[R](), c.meta.KeyFields))
		}
		if c.errSch == nil {
			c.valid, c.errSch = compileValidator(c.meta.Name, c.input)
		}
	})
}

func (c *command[A, R]) schema(role string, t reflect.Type) (map[string]any, error) {
	if c.schemas == nil {
		return nil, fmt.Errorf("registry: %s has no schema source (build it with registry.New)", c.meta.Name)
	}
	return c.schemas.Schema(c.meta.Name, role, t)
}

func (c *command[A, R]) ownArg(name string) bool { c.init(); return c.own[name] }

func (c *command[A, R]) Args() []ArgSpec             { c.init(); return c.args }
func (c *command[A, R]) InputSchema() map[string]any { c.init(); return c.input }
func (c *command[A, R]) ArgsSchema() map[string]any  { c.init(); return c.argsSc }
func (c *command[A, R]) DataSchema() map[string]any {
	c.dataOnce.Do(func() {
		var err error
		if c.data, err = c.schema("data", reflect.TypeFor[R]()); err != nil {
			c.data = map[string]any{"description": err.Error()}
		}
	})
	return c.data
}
func (c *command[A, R]) ResultType() reflect.Type { return reflect.TypeFor[R]() }
func (c *command[A, R]) ArgsType() reflect.Type   { return reflect.TypeFor[A]() }

// run decodes the already-normalized arguments object into A and calls the handler.
func (c *command[A, R]) run(ctx context.Context, deps *Deps, norm map[string]any) (any, []string, error) {
	c.init()
	if c.errSch != nil {
		return nil, nil, c.errSch
	}
	args, err := c.bind(norm)
	if err != nil {
		return nil, nil, err
	}
	r, warnings, err := c.handler(ctx, deps, args)
	if err != nil {
		return nil, warnings, err
	}
	return r, warnings, nil
}

// bind fills the arguments struct from the normalized arguments. Plain string arguments are
// set directly; the rest go through encoding/json, so custom types decode as they define. An
// inline ledger is tens of kilobytes: writing it back into JSON and reading it again would
// cost more than all the other binding together.
func (c *command[A, R]) bind(norm map[string]any) (A, error) {
	var args A
	v := reflect.ValueOf(&args).Elem()
	var rest map[string]any // what goes through encoding/json
	for name, val := range norm {
		if c.setDirect(v, name, val) {
			continue
		}
		if rest == nil {
			rest = make(map[string]any, len(norm))
		}
		rest[name] = val
	}
	if len(rest) > 0 {
		raw, err := json.Marshal(rest)
		if err != nil {
			return args, decodeError(err)
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			return args, decodeError(err)
		}
	}
	return args, nil
}

// setDirect sets a plain string argument, or a plain int argument given as a whole number
// that fits, on the arguments struct v; false leaves the value to encoding/json, which
// also says what is wrong with it.
func (c *command[A, R]) setDirect(v reflect.Value, name string, val any) bool {
	if at, ok := c.direct[name]; ok {
		if s, ok := val.(string); ok {
			v.FieldByIndex(at).SetString(s)
			return true
		}
	}
	if at, ok := c.ints[name]; ok {
		if n, ok := val.(json.Number); ok {
			if i, err := strconv.ParseInt(string(n), 10, strconv.IntSize); err == nil {
				v.FieldByIndex(at).SetInt(i)
				return true
			}
		}
	}
	return false
}
