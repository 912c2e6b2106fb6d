package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// Reply is one tool result: the text a model reads, and the envelope as structured content
// when the server publishes output schemas and the caller asked for JSON.
type Reply struct {
	Text       string
	Structured json.RawMessage // nil: none
	OK         bool
}

// DefaultMaxChars bounds a result over MCP and tool-cli unless the caller sets max_chars:
// about 10,000 tokens, well inside the 25,000 some clients accept for one tool result.
const DefaultMaxChars = 40000

// agentDefaults are the arguments an agent front end fills when the caller leaves them out,
// for the commands that take them: dense output, a report's summary, a bound on size.
func agentDefaults(output string) map[string]any {
	return map[string]any{registry.ArgOutput: output, "detail": "summary", registry.ArgMaxChars: DefaultMaxChars}
}

// registryRunner runs cgt commands in-process and writes each result for a model.
type registryRunner struct {
	reg        *registry.Registry
	structured bool
	defaults   map[string]any
}

func (r registryRunner) Run(ctx context.Context, t Tool, args json.RawMessage) Reply {
	res, sh := r.reg.ExecuteShaped(ctx, t.Command, args, r.defaults)
	c, _ := r.reg.Lookup(t.Command)
	if !res.OK {
		res.Error = r.speakJSON(c, res.Error)
	}
	return shapeReply(ctx, c, t, res, sh, r.structured)
}

// MinMaxChars is the least max_chars a call gets: a smaller value is raised to it, so that an
// answer always has room for an error line or a note saying how to narrow the result.
const MinMaxChars = 300

// warningsHint says how to see the warnings a bounded answer had no room for.
const warningsHint = "raise max_chars (up to 1000000) to see more; the cgt command line prints them all"

// MaxChars is the most a result over MCP and tool-cli may be, in characters (bytes of the
// text): max_chars above it is refused, and max_chars 0 ("no limit") means it. A result is
// written into a buffer that keeps at most this much, so a huge report costs the server the
// time to write it, never the memory.
const MaxChars = 1_000_000

// shapeReply writes a result in the format the shape asks for, within max_chars (at most
// MaxChars). A cancelled ctx stops the writing.
func shapeReply(ctx context.Context, c registry.Command, t Tool, res envelope.Result, sh registry.Shape, structured bool) Reply {
	format := sh.Output
	if format == "" {
		format = "json"
	}
	if sh.MaxChars > MaxChars {
		e := envelope.Errorf(envelope.InvalidArgument,
			fmt.Sprintf("Set max_chars to %d or less; %s, or ask for a dense format ({\"output\":\"compact\"}).", MaxChars, narrowing(c)),
			"max_chars=%d is over this server's ceiling of %d characters", sh.MaxChars, MaxChars).
			With("max_chars", sh.MaxChars).With("ceiling", MaxChars)
		res = envelope.Failure(e, res.Warnings)
	}
	if sh.MaxChars <= 0 || sh.MaxChars > MaxChars {
		sh.MaxChars = MaxChars
	}
	sh.MaxChars = max(sh.MaxChars, MinMaxChars)
	if format == "json" {
		return jsonReply(ctx, c, t, res, sh, structured)
	}
	if !res.OK {
		return Reply{Text: errorLines(format, res, sh.MaxChars), OK: false}
	}
	recs, shapes := records.Stream(res.Data), records.ShapeCounts(res.Data)
	if sh.Fields != nil {
		if unknown, avail := records.CheckFields(records.Shapes(res.Data), sh.Fields); len(unknown) > 0 {
			e := envelope.Errorf(envelope.UsageError, "Available fields: "+strings.Join(avail, ", ")+`. E.g. {"fields":["`+first(avail)+`"]}.`,
				"unknown field(s) in fields: %s", strings.Join(unknown, ", ")).With("available", avail)
			return Reply{Text: errorLines(format, envelope.Failure(e, res.Warnings), sh.MaxChars), OK: false}
		}
	}
	var b strings.Builder
	opt := records.Options{Fields: sh.Fields, MaxRecords: sh.MaxRecords, MaxChars: sh.MaxChars,
		Narrow: narrowing(c), More: more(c, sh), WarningsHint: warningsHint, Shapes: shapes}
	if ctx.Done() != nil {
		recs, opt.Shapes = untilDone(ctx, recs), countedUntilDone(ctx, shapes)
	}
	if err := records.Write(&b, format, recs, res.Warnings, opt); err != nil {
		e := envelope.Errorf(envelope.InternalError, "", "writing the result: %v", err)
		return Reply{Text: errorLines(format, envelope.Failure(e, res.Warnings), sh.MaxChars)}
	}
	if ctx.Err() != nil {
		return cancelled(format)
	}
	return Reply{Text: b.String(), OK: true}
}

// untilDone stops a sequence of records when ctx ends.
func untilDone(ctx context.Context, recs iter.Seq[records.Record]) iter.Seq[records.Record] {
	return func(yield func(records.Record) bool) {
		n := 0
		for r := range recs {
			if n++; n%256 == 0 && ctx.Err() != nil {
				return
			}
			if !yield(r) {
				return
			}
		}
	}
}

// countedUntilDone is untilDone for shapes with their counts.
func countedUntilDone(ctx context.Context, shapes iter.Seq2[records.Record, int]) iter.Seq2[records.Record, int] {
	return func(yield func(records.Record, int) bool) {
		n := 0
		for r, count := range shapes {
			if n++; n%256 == 0 && ctx.Err() != nil {
				return
			}
			if !yield(r, count) {
				return
			}
		}
	}
}

// cancelled is the reply to a call cancelled while it was written (nobody reads it).
func cancelled(format string) Reply {
	e := envelope.New(envelope.InternalError, "the call was cancelled", "")
	if format == "json" {
		return Reply{Text: string(bytes.TrimSpace(envelope.MarshalCompact(envelope.Failure(e, nil))))}
	}
	return Reply{Text: errorLines(format, envelope.Failure(e, nil), 0)}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// jsonReply is the envelope, unchanged, when it fits within max_chars; otherwise a short
// failure naming the arguments that narrow it. With structured output the envelope goes in
// structuredContent and the text is one line saying what it holds.
func jsonReply(ctx context.Context, c registry.Command, t Tool, res envelope.Result, sh registry.Shape, structured bool) Reply {
	buf := buffers.get()
	defer buffers.put(buf)
	// The envelope is written with its newline: keep one byte more than max_chars.
	w := &boundedBuffer{b: buf.b[:0], keep: sh.MaxChars + 1, ctx: ctx}
	if err := envelope.WriteCompact(w, res); err != nil {
		if ctx.Err() != nil {
			return cancelled("json")
		}
		w.b, w.n = bytes.TrimSpace(envelope.AppendCompact(w.b[:0], envelope.Failure(err, res.Warnings))), 0
	}
	buf.b = w.b[:0]
	env := bytes.TrimSpace(w.b)
	if chars := w.n - 1; sh.MaxChars > 0 && chars > sh.MaxChars {
		if fit, ok := withFewerWarnings(ctx, res, chars, sh.MaxChars); ok {
			res, env = fit, bytes.TrimSpace(envelope.MarshalCompact(fit))
		} else {
			ask := fmt.Sprintf("or set max_chars to %d or more", chars)
			if chars > MaxChars {
				ask = fmt.Sprintf("this server answers at most %d characters", MaxChars)
			}
			e := envelope.Errorf(envelope.UsageError,
				fmt.Sprintf("Narrow it (%s), ask for a dense format ({\"output\":\"compact\"}); %s.", narrowing(c), ask),
				"the JSON result is %d characters, over max_chars=%d", chars, sh.MaxChars).
				With("chars", chars).With("max_chars", sh.MaxChars)
			res = boundedFailure(envelope.Failure(e, res.Warnings), sh.MaxChars)
			env = bytes.TrimSpace(envelope.MarshalCompact(res))
		}
	}
	if !structured {
		return Reply{Text: string(env), OK: res.OK}
	}
	return Reply{Text: summaryLine(t, res), Structured: bytes.Clone(env), OK: res.OK}
}

// withFewerWarnings is a successful result over maxChars only because of its warnings, with
// those that fit and a last one counting the others; false when the data alone is too long.
func withFewerWarnings(ctx context.Context, res envelope.Result, chars, maxChars int) (envelope.Result, bool) {
	if !res.OK || len(res.Warnings) == 0 {
		return res, false
	}
	bare := res
	bare.Warnings = nil
	w := &boundedBuffer{keep: 0, ctx: ctx}
	if envelope.WriteCompact(w, bare) != nil {
		return res, false
	}
	room := maxChars - (w.n - 1)
	if room < 200 {
		return res, false
	}
	bare.Warnings = records.FitWarnings(res.Warnings, room, warningsHint)
	return bare, true
}

// boundedFailure is a failure whose warnings are cut to fit, with the error, in maxChars.
func boundedFailure(res envelope.Result, maxChars int) envelope.Result {
	if len(res.Warnings) == 0 {
		return res
	}
	bare := res
	bare.Warnings = nil
	room := maxChars - len(bytes.TrimSpace(envelope.MarshalCompact(bare)))
	bare.Warnings = records.FitWarnings(res.Warnings, max(0, room), warningsHint)
	return bare
}

// summaryLine says in one line what the structured result holds, for clients that show text.
func summaryLine(t Tool, res envelope.Result) string {
	if !res.OK {
		return fmt.Sprintf("%s failed: %s: %s (the envelope is in structuredContent)", t.Name, res.Error.Code, res.Error.Message)
	}
	n := records.Count(res.Data)
	line := fmt.Sprintf("%s: ok, %d records; the envelope is in structuredContent", t.Name, n)
	if len(res.Warnings) > 0 {
		line += fmt.Sprintf("; %d warnings (in structuredContent): %s", len(res.Warnings),
			strings.Join(records.FitWarnings(res.Warnings, 2000, ""), "; "))
	}
	return line
}

// errorLines is a failure in a dense format, with the hint and examples a model needs to fix
// the call (the command line prints only the code and message), and the warnings that fit in
// maxChars (0: all).
func errorLines(format string, res envelope.Result, maxChars int) string {
	if maxChars > 0 && len(res.Warnings) > 0 {
		all := res.Warnings
		room := maxChars - len(errorLines(format, envelope.Failure(res.Error, nil), 0))
		for {
			// A warning's line is about as long as its JSON string; a records line is longer.
			res.Warnings = records.FitWarnings(all, max(0, room), warningsHint)
			if text := errorLines(format, res, 0); len(text) <= maxChars || room <= 0 {
				return text
			}
			room -= max(room/4, 100)
		}
	}
	e := res.Error
	var extra []records.Field
	if e.Hint != "" {
		extra = append(extra, records.Field{Key: "hint", Value: e.Hint})
	}
	for _, x := range e.Examples {
		extra = append(extra, records.Field{Key: "example", Value: x})
	}
	return records.RenderErrorAs(format, "", string(e.Code), e.Message, extra, res.Warnings)
}

// narrowingArgs are the arguments that make a result smaller, in the order they are named.
var narrowingArgs = []string{"year", "ticker", "from", "to", "detail", "fields", "max_records"}

// narrowings and mores hold what narrowing and more say for each command (and detail): the
// same for every call, and asked for on every dense answer.
var narrowings, mores sync.Map // string → string

// narrowing names the arguments of the command that narrow its result.
func narrowing(c registry.Command) string {
	if c == nil {
		return narrowingOf(c)
	}
	if s, ok := narrowings.Load(c.Meta().Name); ok {
		return s.(string)
	}
	s := narrowingOf(c)
	narrowings.Store(c.Meta().Name, s)
	return s
}

func narrowingOf(c registry.Command) string {
	var names []string
	for _, n := range narrowingArgs {
		if hasArg(c, n) {
			names = append(names, n)
		}
	}
	return "narrow with " + strings.Join(names, ", ") + ", or a larger max_chars"
}

// more says how to ask for more than the result gave: a fuller detail, or the envelope.
func more(c registry.Command, sh registry.Shape) string {
	if c == nil {
		return moreOf(c, sh)
	}
	cur, _ := sh.Args["detail"].(string)
	if cur != "" {
		if spec, _ := argSpec(c, "detail"); !slices.Contains(spec.Enum, any(cur)) {
			return moreOf(c, sh) // kept only for the values a schema allows, so the cache stays small
		}
	}
	key := c.Meta().Name + "\x00" + cur
	if s, ok := mores.Load(key); ok {
		return s.(string)
	}
	s := moreOf(c, sh)
	mores.Store(key, s)
	return s
}

// moreOf is the more| line's text, as arguments written key=value like the records' fields:
// the later values of detail, or at the last (and for a command without detail) output=json,
// the envelope with everything.
func moreOf(c registry.Command, sh registry.Shape) string {
	var later []string
	if s, ok := argSpec(c, "detail"); ok {
		cur, _ := sh.Args["detail"].(string)
		after := false
		for _, v := range s.Enum {
			if after {
				later = append(later, fmt.Sprint(v))
			}
			after = after || v == cur
		}
	}
	if len(later) == 0 {
		return "output=json"
	}
	return "detail=" + strings.Join(later, " or ")
}

func hasArg(c registry.Command, name string) bool {
	_, ok := argSpec(c, name)
	return ok
}

func argSpec(c registry.Command, name string) (registry.ArgSpec, bool) {
	if c == nil {
		return registry.ArgSpec{}, false
	}
	for _, a := range c.Args() {
		if a.Name == name {
			return a, true
		}
	}
	return registry.ArgSpec{}, false
}

// The caller's language over MCP is JSON arguments: errors written for the command line
// (flags, `cgt help`, key=value examples) are rewritten for it.
var (
	helpRef = regexp.MustCompile("(Run )?`cgt( help)?( [a-z_.]+)?`( for the [a-z ,]+)?")
	flagRef = regexp.MustCompile(`--([a-z][a-z-]*)( FILE\|DIR| FILE| N| [A-Z]+)?`)
)

// speakJSON rewrites an error's hint and examples in the terms of JSON arguments.
func (r registryRunner) speakJSON(c registry.Command, e *envelope.Error) *envelope.Error {
	if e == nil {
		return nil
	}
	out := *e
	out.Hint = JSONHint(c, e.Hint)
	out.Examples = make([]string, 0, len(e.Examples))
	for _, x := range e.Examples {
		out.Examples = append(out.Examples, r.jsonExample(c, x))
	}
	return &out
}

// JSONHint rewrites references to the command line in a hint: `cgt help X` becomes the
// tool's input schema, and --flag-name, when it is an argument of the command (or a shaping
// argument), becomes the argument flag_name. Flags of the server itself (--root) stay: they
// speak to the operator.
func JSONHint(c registry.Command, h string) string {
	h = helpRef.ReplaceAllString(h, "See the tool's input schema")
	h = flagRef.ReplaceAllStringFunc(h, func(m string) string {
		name := strings.ReplaceAll(flagRef.FindStringSubmatch(m)[1], "-", "_")
		if hasArg(c, name) {
			return name
		}
		return m
	})
	return h
}

// jsonExample turns an example written as a command line (cgt NAME words..., or key=value
// words) into the JSON arguments object it binds to; any other example (a ledger line) is
// left as it is.
func (r registryRunner) jsonExample(c registry.Command, x string) string {
	words, ok := splitWords(x)
	if !ok || len(words) == 0 {
		return x
	}
	cmd := c
	if words[0] == "cgt" {
		if len(words) < 2 {
			return x
		}
		named, found := r.reg.Lookup(words[1])
		if !found {
			return x
		}
		cmd, words = named, words[2:]
	} else {
		for _, w := range words {
			if !strings.Contains(w, "=") && !strings.HasPrefix(w, "--") {
				return x
			}
		}
	}
	if cmd == nil {
		return x
	}
	obj, err := registry.BindCLI(cmd, dropOutputFlags(words), nil)
	if err != nil {
		return x
	}
	b, merr := envelope.Marshal(obj)
	if merr != nil {
		return x
	}
	return strings.TrimSpace(string(b))
}

// dropOutputFlags removes the command line's own output flags from example words.
func dropOutputFlags(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		switch words[i] {
		case "--output", "-o", "--out":
			i++
			continue
		}
		out = append(out, words[i])
	}
	return out
}

// splitWords splits a command line the way a shell would for plain words, 'single' and
// "double" quotes; false for an unterminated quote.
func splitWords(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

// boundedBuffer keeps the first keep bytes written to it and counts them all (n), so that a
// result larger than a call may return costs no memory beyond keep; it stops the writing when
// ctx ends (checked every 64 KiB).
type boundedBuffer struct {
	b     []byte
	keep  int
	n     int
	ctx   context.Context
	check int
}

func (w *boundedBuffer) InMemory() {}

func (w *boundedBuffer) WriteString(s string) (int, error) { return boundedWrite(w, s) }

func (w *boundedBuffer) Write(p []byte) (int, error) { return boundedWrite(w, p) }

// boundedWrite keeps what fits of b, counts all of it, and every 64 KiB asks whether the call was
// cancelled.
func boundedWrite[T string | []byte](w *boundedBuffer, b T) (int, error) {
	w.n += len(b)
	if room := w.keep - len(w.b); room > 0 {
		w.b = append(w.b, b[:min(room, len(b))]...)
	}
	if w.check += len(b); w.check >= 64<<10 {
		w.check = 0
		if err := w.ctx.Err(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// buffers hold the bytes of recent results and response lines for the next call, so that a
// call writing hundreds of kilobytes neither grows a buffer from nothing nor clears fresh
// memory for it. A buffer grown past maxPooled is left to the collector.
var buffers bufferPool

const maxPooled = 8 << 20

type pooledBuffer struct{ b []byte }

type bufferPool struct{ p sync.Pool }

func (p *bufferPool) get() *pooledBuffer {
	if b, ok := p.p.Get().(*pooledBuffer); ok {
		return b
	}
	return &pooledBuffer{}
}

func (p *bufferPool) put(b *pooledBuffer) {
	if cap(b.b) <= maxPooled {
		b.b = b.b[:0]
		p.p.Put(b)
	}
}
