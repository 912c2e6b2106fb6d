package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/atomicfile"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Options are the front-end flags every command accepts.
type Options struct {
	Output     string
	Fields     []string
	MaxRecords int
	MaxChars   int
	Out        string
	Help       bool
}

// Run executes one invocation and returns the exit code.
func Run(f *Factory, argv []string) int {
	if len(argv) == 0 {
		return overview(f)
	}
	name := argv[0]
	if b, ok := f.builtin(name); ok {
		return b.Run(f, argv[1:])
	}
	reg, err := f.Registry()
	if err != nil {
		fmt.Fprintln(f.Stderr, "cgt:", err)
		return ExitError
	}
	switch name {
	case "help", "--help", "-h":
		return help(f, reg, argv[1:])
	case "version", "--version":
		fmt.Fprintln(f.Stdout, "cgt", f.Version)
		return ExitOK
	}
	cmd, ok := reg.Lookup(name)
	opts, rest, uerr := splitOptions(argv[1:])
	opts = f.defaultOutput(opts)
	if !ok {
		res := reg.Execute(context.Background(), name, nil)
		return emit(f, opts, nil, res)
	}
	if uerr != nil {
		return emit(f, opts, nil, envelope.Failure(uerr, nil))
	}
	if opts.Help {
		return commandHelp(f, cmd)
	}
	args, berr := registry.BindCLI(cmd, rest, f.Stdin)
	if berr != nil {
		return emit(f, opts, cmd, envelope.Failure(registry.WithExample(berr, cmd), nil))
	}
	p := startProgress(f, cmd.Meta().Name)
	res, sh := reg.Run(context.Background(), cmd, args, nil)
	opts = opts.merge(sh)
	if opts.Out == "" && f.IsTerminal != nil && f.IsTerminal() {
		p.end() // the output goes to the same screen: the line must be gone first
	}
	p.setStage("writing " + opts.Output)
	code := emit(p.factory(f), opts, cmd, res)
	p.end()
	return code
}

// defaultOutput fills in the output format when none was asked for: text for a person at a
// terminal, JSON when the output goes to a program (a pipe) or to a file (--out).
func (f *Factory) defaultOutput(o Options) Options {
	if o.Output != "" {
		return o
	}
	o.Output = "json"
	if o.Out == "" && f.IsTerminal != nil && f.IsTerminal() {
		o.Output = "text"
	}
	return o
}

// merge takes the shaping arguments given as ordinary arguments (output=compact,
// max_chars=2000) over the flags.
func (o Options) merge(sh registry.Shape) Options {
	if sh.Given[registry.ArgOutput] {
		o.Output = sh.Output
	}
	if sh.Given[registry.ArgFields] {
		o.Fields = sh.Fields
	}
	if sh.Given[registry.ArgMaxRecords] {
		o.MaxRecords = sh.MaxRecords
	}
	if sh.Given[registry.ArgMaxChars] {
		o.MaxChars = sh.MaxChars
	}
	return o
}

func (f *Factory) builtin(name string) (Builtin, bool) {
	for _, b := range f.Builtins {
		if b.Name == name {
			return b, true
		}
	}
	return Builtin{}, false
}

// splitOptions removes the front-end flags from the words after the command, wherever they
// stand, and returns the rest for the command's own binder.
func splitOptions(words []string) (Options, []string, *envelope.Error) {
	var opts Options // Output "" until defaultOutput decides
	var rest []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		key, val, hasVal := strings.Cut(w, "=")
		switch key {
		case "--output", "-o", "--fields", "--max-records", "--max-chars", "--out":
		case "--help", "-h":
			opts.Help = true
			continue
		default:
			rest = append(rest, w)
			continue
		}
		if !hasVal {
			if i+1 >= len(words) {
				return opts, nil, envelope.New(envelope.UsageError, key+" needs a value", "e.g. --output compact")
			}
			i++
			val = words[i]
		}
		if err := opts.set(key, val); err != nil {
			return opts, nil, err
		}
	}
	return opts, rest, nil
}

var outputFormats = records.FormatNames()

func (o *Options) set(key, val string) *envelope.Error {
	switch key {
	case "--output", "-o":
		for _, f := range outputFormats {
			if val == f {
				o.Output = val
				return nil
			}
		}
		return envelope.Errorf(envelope.UsageError, "Formats: "+strings.Join(outputFormats, ", ")+".", "unknown output format %q", val).With("value", val)
	case "--fields":
		for _, p := range strings.Split(val, ",") {
			if p = strings.TrimSpace(p); p != "" {
				o.Fields = append(o.Fields, p)
			}
		}
	case "--max-records", "--max-chars":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return envelope.Errorf(envelope.UsageError, "Give a whole number, e.g. "+key+" 50.", "%s needs a whole number, got %q", key, val).With("value", val)
		}
		if key == "--max-records" {
			o.MaxRecords = n
		} else {
			o.MaxChars = n
		}
	case "--out":
		o.Out = val
	}
	return nil
}

// emit writes the result to stdout (or --out) and returns the exit code. A successful result
// is written as it is rendered (see stream); a failure is rendered whole.
func emit(f *Factory, opts Options, cmd registry.Command, res envelope.Result) int {
	if _, page := res.Data.(records.HTMLer); res.OK && opts.Output == "html" && !page {
		res = envelope.Failure(envelope.New(envelope.UsageError, errNoHTML.Error(), "Write --output text for people, or json for programs."), res.Warnings)
	}
	if res.OK {
		bad := unknownFields(opts, res)
		if bad == nil {
			return stream(f, opts, res, writer(opts, res))
		}
		res = envelope.Failure(bad, res.Warnings)
		fmt.Fprint(f.Stdout, records.RenderErrorAs(opts.Output, "", string(bad.Code), bad.Message+" ("+bad.Hint+")", nil, res.Warnings))
		return exitCode(res)
	}
	fmt.Fprint(failureStream(f, opts), renderFailure(opts, res))
	return exitCode(res)
}

// unknownFields is the usage error, listing the available names, for --fields names that no
// record of a dense rendering has; nil when every name is known or none was given.
func unknownFields(opts Options, res envelope.Result) *envelope.Error {
	if opts.Fields == nil || opts.Output == "json" || opts.Output == "text" {
		return nil
	}
	unknown, avail := records.CheckFields(records.Shapes(res.Data), opts.Fields)
	if len(unknown) == 0 {
		return nil
	}
	bad := envelope.Errorf(envelope.UsageError, "Available fields: "+strings.Join(avail, ","), "unknown field(s) in --fields: %s", strings.Join(unknown, ","))
	return bad.With("available", avail)
}

// writer returns how to write a successful result in the chosen format.
func writer(opts Options, res envelope.Result) func(io.Writer) error {
	recs := records.Of(res.Data)
	switch opts.Output {
	case "json":
		return func(w io.Writer) error { return envelope.WriteIndent(w, res) }
	case "html":
		if h, ok := res.Data.(records.HTMLer); ok {
			return func(w io.Writer) error { return h.WriteHTML(w, res.Warnings) }
		}
		return func(io.Writer) error { return errNoHTML } // emit refuses html before this
	case "text":
		if t, ok := res.Data.(records.Texter); ok {
			return func(w io.Writer) error { return t.WriteText(w, res.Warnings) }
		}
		return func(w io.Writer) error { return records.WriteText(w, recs, res.Warnings) }
	}
	ro := records.Options{Fields: opts.Fields, MaxRecords: opts.MaxRecords, MaxChars: opts.MaxChars, Shapes: records.ShapeCounts(res.Data)}
	return func(w io.Writer) error {
		return records.Write(w, opts.Output, records.Stream(res.Data), res.Warnings, ro)
	}
}

// errNoHTML is the failure of --output html for a result that has no page.
var errNoHTML = errors.New("--output html is the report of report.calculate; use --output text or json for this command")

// stream writes a successful result to stdout or, atomically, to --out as it is rendered
// rather than building the whole text first: a large report runs to hundreds of megabytes
// in any format.
func stream(f *Factory, opts Options, res envelope.Result, write func(io.Writer) error) int {
	if opts.Out == "" {
		if err := write(f.Stdout); err != nil {
			fmt.Fprintf(f.Stderr, "error (%s): the output stopped part-way: %v\n", envelope.InternalError, err)
			return envelope.InternalError.ExitCode()
		}
		return ExitOK
	}
	if err := atomicfile.WriteFunc(opts.Out, 0o644, write); err != nil {
		fail := outFailure(opts, err, res.Warnings)
		fmt.Fprint(failureStream(f, opts), renderFailure(opts, fail))
		return exitCode(fail)
	}
	fmt.Fprintf(f.Stderr, "Written to: %s\n", opts.Out)
	return ExitOK
}

// outFailure is the result when --out cannot be written.
func outFailure(opts Options, err error, warnings []string) envelope.Result {
	return envelope.Failure(envelope.Errorf(envelope.IOError, "Check that the directory exists and is writable, and that --out names a file.", "--out: %v", err).With("path", opts.Out), warnings)
}

func exitCode(res envelope.Result) int {
	if res.OK {
		return ExitOK
	}
	return res.Error.Code.ExitCode()
}

// failureStream is where a failure is written: standard error for the formats people read
// (text, html), so that nothing but the report reaches a file or a page; standard output for
// the machine formats, whose readers expect the error in the same stream as a result.
func failureStream(f *Factory, opts Options) io.Writer {
	if opts.Output == "text" || opts.Output == "html" {
		return f.Stderr
	}
	return f.Stdout
}

// renderFailure renders a failed result in the chosen format.
func renderFailure(opts Options, res envelope.Result) string {
	switch opts.Output {
	case "json":
		return string(envelope.MarshalIndent(res))
	case "text", "html":
		return textError(res)
	}
	return records.RenderErrorAs(opts.Output, "", string(res.Error.Code), res.Error.Message, nil, res.Warnings)
}

func textError(res envelope.Result) string {
	var b strings.Builder
	e := res.Error
	fmt.Fprintf(&b, "error (%s): %s\n", e.Code, e.Message)
	if e.Hint != "" {
		fmt.Fprintf(&b, "hint: %s\n", e.Hint)
	}
	for _, x := range e.Examples {
		fmt.Fprintf(&b, "example: %s\n", x)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}
