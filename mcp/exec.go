package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry/argcheck"
)

// MaxOutputSize bounds what a catalog program may print for one call.
const MaxOutputSize = 64 << 20

// execRunner runs a catalog program once per call. It holds no mutable state after
// construction, so calls run concurrently.
type execRunner struct {
	structured  bool // the catalog's output schemas are published: results carry structuredContent
	program     string
	allow       map[string]bool
	validators  map[string]*argcheck.Schema // by tool name; absent when a schema does not compile
	stringError map[string]bool             // tools whose envelope error is a string, not an object
}

func newExecRunner(program string, tools []Tool, allow []string) (*execRunner, error) {
	path, err := exec.LookPath(program)
	if err != nil {
		return nil, fmt.Errorf("--exec %s: %w", program, err)
	}
	r := &execRunner{program: path, allow: map[string]bool{PureCalculation: true},
		validators: map[string]*argcheck.Schema{}, stringError: map[string]bool{}}
	for _, a := range allow {
		r.allow[a] = true
	}
	for _, t := range tools {
		if v := compileSchema(t); v != nil {
			r.validators[t.Name] = v
		}
		r.stringError[t.Name] = errorIsString(t.OutputSchema)
	}
	return r, nil
}

// compileSchema compiles a tool's input schema, or returns nil when it cannot (or uses a
// keyword the validator does not implement): the program still validates its own arguments.
func compileSchema(t Tool) *argcheck.Schema {
	dec := json.NewDecoder(bytes.NewReader(t.InputSchema))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return nil
	}
	s, err := argcheck.Compile(doc)
	if err != nil {
		return nil
	}
	return s
}

// errorIsString reports whether the catalog's envelope declares error as a string, so that
// errors the server itself reports take the same shape as the program's.
func errorIsString(outputSchema json.RawMessage) bool {
	var s struct {
		Properties struct {
			Error struct {
				Type json.RawMessage `json:"type"`
			} `json:"error"`
		} `json:"properties"`
	}
	if json.Unmarshal(outputSchema, &s) != nil {
		return false
	}
	t := string(s.Properties.Error.Type)
	return strings.Contains(t, `"string"`) && !strings.Contains(t, `"object"`)
}

// Run checks the side-effect label and the arguments, runs the program and returns its envelope.
func (r *execRunner) Run(ctx context.Context, t Tool, args json.RawMessage) Reply {
	env, ok := r.run(ctx, t, args)
	env = bytes.TrimSpace(env)
	if r.structured && len(t.OutputSchema) > 0 {
		return Reply{Text: string(env), Structured: env, OK: ok}
	}
	return Reply{Text: string(env), OK: ok}
}

// run returns the program's envelope, passed through unchanged, or one of the server's own.
func (r *execRunner) run(ctx context.Context, t Tool, args json.RawMessage) ([]byte, bool) {
	if !r.allow[t.SideEffects] {
		return r.failure(t, r.refusal(t))
	}
	obj, err := r.arguments(t, args)
	if err != nil {
		return r.failure(t, err)
	}
	argv, err := commandLine(t.Command, obj)
	if err != nil {
		return r.failure(t, err)
	}
	return r.runProgram(ctx, t, argv)
}

func (r *execRunner) refusal(t Tool) *envelope.Error {
	return envelope.New(envelope.PermissionDenied,
		fmt.Sprintf("%s is labelled %s, and this server runs only %s commands", t.Name, label(t.SideEffects), strings.Join(r.allowed(), ", ")),
		"The server's operator can enable it by adding --allow "+label(t.SideEffects)+" to the server's command line.",
	).With("side_effects", t.SideEffects).With("allowed", r.allowed())
}

func (r *execRunner) allowed() []string {
	out := make([]string, 0, len(r.allow))
	for a := range r.allow {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// arguments decodes and validates the arguments object, keeping numbers exact.
func (r *execRunner) arguments(t Tool, args json.RawMessage) (map[string]any, *envelope.Error) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, envelope.New(envelope.UsageError, "arguments must be a JSON object", "Pass the arguments as an object, as the tool's input schema describes.")
	}
	if v := r.validators[t.Name]; v != nil {
		if err := v.Validate(obj); err != nil {
			return nil, envelope.New(envelope.InvalidArgument, validationMessage(err), "Check the arguments against the tool's input schema.")
		}
	}
	return obj, nil
}

func validationMessage(err error) string {
	var ve *argcheck.Error
	if !errors.As(err, &ve) {
		return err.Error()
	}
	return "invalid arguments: " + ve.Error()
}

var argKeyPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// commandLine builds `COMMAND key=value... --output json`, keys sorted. Arrays of plain values
// are joined with commas (addbacks=284,163), objects and other arrays are JSON text, null
// means absent.
func commandLine(command string, args map[string]any) ([]string, *envelope.Error) {
	keys := make([]string, 0, len(args))
	for k := range args {
		if !argKeyPattern.MatchString(k) {
			return nil, envelope.Errorf(envelope.UsageError, "Use the argument names of the tool's input schema.", "argument name %q is not a plain name", k).With("argument", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	argv := []string{command}
	for _, k := range keys {
		if args[k] == nil {
			continue
		}
		argv = append(argv, k+"="+argText(args[k]))
	}
	return append(argv, "--output", "json"), nil
}

func argText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		return strconv.FormatBool(t)
	case []any:
		if s, ok := joinPlain(t); ok {
			return s
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// joinPlain joins an array of strings, numbers and booleans with commas when no item
// contains a comma itself.
func joinPlain(items []any) (string, bool) {
	parts := make([]string, len(items))
	for i, it := range items {
		switch it.(type) {
		case string, json.Number, bool:
			parts[i] = argText(it)
		default:
			return "", false
		}
		if strings.Contains(parts[i], ",") {
			return "", false
		}
	}
	return strings.Join(parts, ","), true
}

// runProgram runs the program and returns the envelope it printed, unchanged. A program that
// prints no envelope gets one from the server naming its exit status and what it wrote to
// stderr.
func (r *execRunner) runProgram(ctx context.Context, t Tool, argv []string) ([]byte, bool) {
	cmd := exec.CommandContext(ctx, r.program, argv...)
	cmd.WaitDelay = 2 * time.Second
	stdout := &cappedBuffer{limit: MaxOutputSize}
	stderr := &cappedBuffer{limit: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	runErr := cmd.Run()
	if stdout.over {
		return r.failure(t, envelope.Errorf(envelope.IOError, "Ask for less (fewer rows, a shorter period).",
			"%s printed more than %d MiB", t.Command, MaxOutputSize>>20))
	}
	if ok, isEnvelope := envelopeOK(stdout.Bytes()); isEnvelope {
		return bytes.TrimSpace(stdout.Bytes()), ok
	}
	return r.failure(t, programFault(r.program, argv, runErr, stderr.String(), ctx.Err()))
}

// envelopeOK reports whether out is a JSON object with a boolean ok, and its value.
func envelopeOK(out []byte) (ok, isEnvelope bool) {
	var e struct {
		OK *bool `json:"ok"`
	}
	if json.Unmarshal(bytes.TrimSpace(out), &e) != nil || e.OK == nil {
		return false, false
	}
	return *e.OK, true
}

func programFault(program string, argv []string, runErr error, stderr string, ctxErr error) *envelope.Error {
	status := "exited successfully"
	if ctxErr != nil {
		status = "was stopped (the call was cancelled)"
	} else if runErr != nil {
		status = runErr.Error()
	}
	msg := fmt.Sprintf("%s %s: %s but printed no result envelope", program, argv[0], status)
	if s := strings.TrimSpace(stderr); s != "" {
		msg += "; stderr: " + lastLines(s, 10)
	}
	return envelope.New(envelope.InternalError, msg, "This is a fault in the program or its installation, not in the arguments.")
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// failure is an envelope of the server's own, shaped like the catalog's: the error is a string
// ("code: message (hint)") when the catalog declares it so.
func (r *execRunner) failure(t Tool, e *envelope.Error) ([]byte, bool) {
	if !r.stringError[t.Name] {
		return envelope.MarshalCompact(envelope.Failure(e, nil)), false
	}
	msg := string(e.Code) + ": " + e.Message
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	b, _ := marshalJSON(map[string]any{"ok": false, "data": nil, "error": msg, "warnings": []string{}})
	return b, false
}

// cappedBuffer keeps at most limit bytes and notes whether more were written.
type cappedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.limit - c.Len(); len(p) > room {
		c.over = true
		if room > 0 {
			c.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return c.Buffer.Write(p)
}
