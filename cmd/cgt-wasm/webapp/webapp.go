// Package webapp is the browser front end's Go side, apart from the JavaScript glue: it runs a
// registry command on files the page holds in memory and renders the result in the forms the
// page asks for. It knows no command: the page names the command and its arguments, exactly
// as a script would call the CLI or MCP, and every result comes from registry.Execute.
package webapp

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/records"
	"github.com/cgt-tools/cgt/registry"
)

// File is one file the person chose: its name (unique within a request; the page makes it
// so) and its bytes.
type File struct {
	Name    string
	Content []byte
}

// Request is one command run: the command's name, its arguments as the JSON object every front
// end takes (paths name Files), the day the page runs on (YYYY-MM-DD, the browser's local
// date; empty for unknown) and the renderings wanted: "json" (the envelope with its data),
// "html" (the result's page) and "text" (as the CLI's --output text: an imported ledger's
// lines, or the records as a table). Writing a large result's JSON costs as much as working it
// out, so a request that wants only the page leaves "json" out.
type Request struct {
	Command string          `json:"command"`
	Args    json.RawMessage `json:"args"`
	Today   string          `json:"today,omitempty"`
	Render  []string        `json:"render,omitempty"`
	Files   []File          `json:"-"`
}

// Response is the envelope as JSON (what the CLI's --output json prints, on one line; without
// "json" in the request's renderings, its data is left out and only ok, error and warnings are
// there) and the other renderings asked for; a rendering the result has not is left empty.
type Response struct {
	Envelope []byte
	HTML     string
	Text     string
}

// Commands lists the names of the registered commands, so the page can offer what exists.
func Commands() []string {
	reg, err := commands.NewRegistry(&registry.Deps{})
	if err != nil {
		return nil
	}
	return reg.Names()
}

// notInBrowser is the error for a command the module does not register: the page runs only
// some of cgt's commands (commands/browser_js.go), and the command line runs them all.
func notInBrowser(name string, names []string) *envelope.Error {
	e := envelope.Errorf(envelope.UsageError, "The browser app runs "+strings.Join(names, ", ")+
		"; the cgt command line runs every command (cgt "+name+" ...).", "%q is not in the browser app", name)
	return e.With("command", name).With("available", names)
}

// smallInput is the size of input up to which a run trades memory for speed.
const smallInput = 1_000_000

// gcPercent is the garbage collector's setting for a run on total bytes of files. A small
// input (a 10,000-line ledger is 430 kB) runs with the collector at a quarter of its usual
// pace: a quarter faster, for a few tens of megabytes more. A large one keeps Go's default,
// so that the tab's memory stays bounded (the page refuses more than 10 MB).
func gcPercent(total int) int {
	if total <= smallInput {
		return 400
	}
	return 100
}

// Run executes one request. It never panics (registry.Execute recovers) and always returns an
// envelope.
func Run(req Request) Response {
	files := make(map[string][]byte, len(req.Files))
	total := 0
	for _, f := range req.Files {
		files[f.Name] = f.Content
		total += len(f.Content)
	}
	debug.SetGCPercent(gcPercent(total))
	if total > smallInput {
		// WebAssembly memory only grows: the page's memory is the largest heap any run has had.
		// A large run aims at about 40 bytes of heap a byte of input (a 2.5 MB ledger's largest
		// run then peaks at 120 MB of WebAssembly memory instead of 179), and collects all its
		// garbage when it ends, so that the next run starts from an empty heap rather than
		// growing past this one's.
		debug.SetMemoryLimit(40 * int64(total))
		defer debug.FreeOSMemory()
	} else {
		debug.SetMemoryLimit(math.MaxInt64)
	}
	deps := &registry.Deps{
		ReadFile: func(path string) ([]byte, error) {
			if b, ok := files[path]; ok {
				return b, nil
			}
			return nil, fmt.Errorf("%s: %w (choose it again)", path, fs.ErrNotExist)
		},
	}
	if d, err := model.ParseDate(req.Today); err == nil {
		deps.Today = func() model.Date { return d }
	}
	reg, err := commands.NewRegistry(deps)
	if err != nil {
		return Response{Envelope: envelope.MarshalCompact(envelope.Failure(err, nil))}
	}
	if !slices.Contains(reg.Names(), req.Command) {
		return Response{Envelope: envelope.MarshalCompact(envelope.Failure(notInBrowser(req.Command, reg.Names()), nil))}
	}
	args := req.Args
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	res := reg.Execute(context.Background(), req.Command, args)
	if !res.OK {
		return Response{Envelope: envelope.MarshalCompact(res)}
	}
	var out Response
	if slices.Contains(req.Render, "json") {
		out.Envelope = envelope.MarshalCompact(res)
	} else {
		out.Envelope = envelope.MarshalCompact(envelope.Success(nil, res.Warnings))
	}
	for _, r := range req.Render {
		var b strings.Builder
		switch r {
		case "html":
			if h, ok := res.Data.(records.HTMLer); ok && h.WriteHTML(&b, res.Warnings) == nil {
				out.HTML = b.String()
			}
		case "text":
			// As the CLI's --output text: every command the page runs writes its result's
			// own text (an imported ledger prints as ledger lines). The CLI's table of a
			// result's records for the others (records.Of) is not linked: 0.1 MB of code.
			if t, ok := res.Data.(records.Texter); ok && t.WriteText(&b, res.Warnings) == nil {
				out.Text = b.String()
			}
		}
	}
	return out
}
