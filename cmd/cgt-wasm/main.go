//go:build js && wasm

// Command cgt-wasm is cgt's browser front end: the registry compiled to WebAssembly, run by the
// page in web/ (make web). It links what the page runs — the registry, its commands, the
// engine, the importers and the report views — and no server, generator or schema reflector.
//
// It defines two functions on the page's global object and then waits:
//
//	cgtCommands() → ["fx.rate", ...]                 the registered command names
//	cgtRun(requestJSON, names, contents) → {envelope, html, text}
//
// requestJSON is webapp.Request ({command, args, today, render}); names and contents are the
// files the person chose (arrays of strings and Uint8Arrays), which path arguments name.
// envelope is the result as the CLI's --output json prints it (on one line).
package main

import (
	"syscall/js"

	"github.com/cgt-tools/cgt/cgt/eri"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cmd/cgt-wasm/webapp"
	"github.com/cgt-tools/cgt/envelope"
	json "github.com/cgt-tools/cgt/internal/jsonx"
)

func main() {
	global := js.Global()
	useTables(global.Get("cgtTables"))
	global.Set("cgtCommands", js.FuncOf(func(js.Value, []js.Value) any {
		names := webapp.Commands()
		out := make([]any, len(names))
		for i, n := range names {
			out[i] = n
		}
		return out
	}))
	global.Set("cgtRun", js.FuncOf(run))
	if ready := global.Get("cgtReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func run(_ js.Value, argv []js.Value) any {
	var req webapp.Request
	if len(argv) < 1 || argv[0].Type() != js.TypeString {
		return reply(failure("cgtRun needs a request as JSON text"))
	}
	if err := json.Unmarshal([]byte(argv[0].String()), &req); err != nil {
		return reply(failure("the request is not JSON: " + err.Error()))
	}
	if len(argv) >= 3 {
		names, contents := argv[1], argv[2]
		n := names.Length()
		for i := 0; i < n; i++ {
			c := contents.Index(i)
			b := make([]byte, c.Length())
			js.CopyBytesToGo(b, c)
			req.Files = append(req.Files, webapp.File{Name: names.Index(i).String(), Content: b})
		}
	}
	return reply(webapp.Run(req))
}

func failure(msg string) webapp.Response {
	return webapp.Response{Envelope: envelope.MarshalCompact(envelope.Failure(
		envelope.New(envelope.UsageError, msg, "This is a fault in the page; please report it."), nil))}
}

func reply(r webapp.Response) any {
	return map[string]any{"envelope": string(r.Envelope), "html": r.HTML, "text": r.Text}
}

// useTables gives the engine the bundled tables the page fetched beside the module (make web
// copies them into web/dist): HMRC's monthly rates (cgt/fx/rates.csv) and the ERI table
// (cgt/eri/table.txt). They are left out of the module to keep it small; being the same files
// the command line embeds, the figures are the same.
func useTables(t js.Value) {
	if t.Type() != js.TypeObject {
		return
	}
	if v := t.Get("rates"); v.Type() == js.TypeString {
		fx.UseBundled(v.String())
	}
	if v := t.Get("eri"); v.Type() == js.TypeString {
		eri.UseBundled(v.String())
	}
}
