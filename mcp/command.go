package mcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/registry"
)

// Program is what the server needs from the binary it runs in.
type Program struct {
	// Version is reported to clients.
	Version string
	// NewRegistry builds cgt's registry (commands.NewRegistry).
	NewRegistry NewRegistryFunc
}

// Exit codes of Main.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

const usageText = `Usage:
  cgt mcp [--root DIR]... [--make-root] [--toolsets NAME,...] [--structured] [--max-calls N] [--http ADDR [--token TOKEN]]
  cgt mcp --catalog FILE --exec PROGRAM [--allow LABEL]... [--structured] [--max-calls N] [--http ADDR [--token TOKEN]]

Serves cgt's commands as MCP tools over stdio (newline-delimited JSON-RPC on stdin and
stdout; logs on stderr), with the documentation as resources. Exits when stdin closes, on
SIGTERM, SIGINT or SIGHUP, and when the process that started it exits.
With --http it serves MCP's Streamable HTTP transport instead, at http://HOST:PORT/mcp (printed
on stderr), until SIGTERM, SIGINT or SIGHUP.

  --root DIR        let path arguments name ledger files inside DIR (repeatable); without
                    it the server reads no files and ledgers are passed inline (cgt_content)
  --make-root       create each --root folder that does not exist yet (readable by you only);
                    without it a missing --root is an error
  --toolsets NAMES  serve only these groups of tools, by command namespace (comma-separated,
                    repeatable): TOOLSETS;
                    all by default
  --structured      publish output schemas and answer with the envelope as structuredContent
                    (JSON output by default, and a one-line text); without it tools/list
                    carries input schemas only and results are text, compact by default
  --catalog FILE    serve another program's Finance-CLI-style tools.json instead of cgt
  --exec PROGRAM    with --catalog: run PROGRAM COMMAND key=value... --output json per call
  --allow LABEL     with --catalog: also run commands with this side-effect label
                    (only pure_calculation runs by default; repeatable)
  --http ADDR       serve over Streamable HTTP on HOST:PORT (":PORT" is 127.0.0.1:PORT, port 0
                    picks a free one); every request needs the bearer token, and its Host (and
                    Origin, if any) must name this server or localhost
  --token TOKEN     with --http: the bearer token (16+ characters); without it a random one is
                    printed once on stderr
  --max-calls N     tool calls run at once (default: the number of CPUs); 16 more may
                    wait, and a call beyond those is answered "server busy"

Example client configuration: claude mcp add cgt -- cgt mcp --root ~/tax
`

// usage is usageText with the toolsets of the registry's served commands, so the list in
// --help is never out of date.
func usage(p Program) string {
	return strings.Replace(usageText, "TOOLSETS", strings.Join(Toolsets(p.NewRegistry), ", "), 1)
}

// Toolsets are the command namespaces of the tools cgt serves, in the registry's order: the
// names --toolsets takes.
func Toolsets(newRegistry NewRegistryFunc) []string {
	if newRegistry == nil {
		return nil
	}
	reg, err := newRegistry(&registry.Deps{})
	if err != nil {
		return nil
	}
	var names []string
	for _, c := range reg.Commands() {
		m := c.Meta()
		if ns, _, _ := strings.Cut(m.Name, "."); m.SideEffects.Served() && !slices.Contains(names, ns) {
			names = append(names, ns)
		}
	}
	return names
}

type flags struct {
	roots, allow     []string
	toolsets         []string
	catalog, program string
	structured       bool
	makeRoot         bool
	http, token      string
	maxCalls         int
}

// Main runs `cgt mcp ARGS` and returns the exit status: 0 after a clean end (stdin closed,
// signal, parent gone), 1 when the server cannot start or fails, 2 for a usage error.
func Main(ctx context.Context, p Program, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage(p))
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "cgt mcp: %v\n\n%s", err, usage(p))
		return exitUsage
	}
	s, err := build(p, fl)
	if err != nil {
		fmt.Fprintln(stderr, "cgt mcp:", err)
		return exitError
	}
	if fl.http != "" {
		if err := ServeHTTP(ctx, s, HTTPOptions{Addr: fl.http, Token: fl.token, MaxCalls: fl.maxCalls}, stderr); err != nil {
			fmt.Fprintln(stderr, "cgt mcp:", err)
			return exitError
		}
		return exitOK
	}
	if err := ServeCalls(ctx, s, stdin, stdout, stderr, fl.maxCalls); err != nil {
		fmt.Fprintln(stderr, "cgt mcp:", err)
		return exitError
	}
	return exitOK
}

func parseFlags(args []string, stderr io.Writer) (flags, error) {
	var fl flags
	fs := flag.NewFlagSet("cgt mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Func("root", "", func(v string) error { fl.roots = append(fl.roots, v); return nil })
	fs.Func("allow", "", func(v string) error { fl.allow = append(fl.allow, v); return nil })
	fs.Func("toolsets", "", func(v string) error {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				fl.toolsets = append(fl.toolsets, t)
			}
		}
		return nil
	})
	fs.StringVar(&fl.catalog, "catalog", "", "")
	fs.StringVar(&fl.program, "exec", "", "")
	fs.BoolVar(&fl.structured, "structured", false, "")
	fs.BoolVar(&fl.makeRoot, "make-root", false, "")
	fs.StringVar(&fl.http, "http", "", "")
	fs.StringVar(&fl.token, "token", "", "")
	fs.IntVar(&fl.maxCalls, "max-calls", 0, "")
	if err := fs.Parse(args); err != nil {
		return fl, err
	}
	if fl.maxCalls < 0 {
		return fl, errors.New("--max-calls must not be negative")
	}
	if fs.NArg() > 0 {
		return fl, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return fl, checkModes(fl)
}

func checkModes(fl flags) error {
	switch {
	case fl.catalog == "" && (fl.program != "" || len(fl.allow) > 0):
		return errors.New("--exec and --allow need --catalog FILE")
	case fl.catalog != "" && fl.program == "":
		return errors.New("--catalog needs --exec PROGRAM")
	case fl.catalog != "" && len(fl.roots) > 0:
		return errors.New("--root applies to cgt's own commands, not to a --catalog program")
	case fl.catalog != "" && len(fl.toolsets) > 0:
		return errors.New("--toolsets applies to cgt's own commands, not to a --catalog program")
	case fl.makeRoot && len(fl.roots) == 0:
		return errors.New("--make-root needs --root DIR")
	case fl.token != "" && fl.http == "":
		return errors.New("--token needs --http ADDR")
	}
	if fl.http != "" {
		if _, _, err := listenAddress(fl.http); err != nil {
			return err
		}
		if fl.token != "" {
			if err := checkToken(fl.token); err != nil {
				return err
			}
		}
	}
	for _, a := range fl.allow {
		if strings.TrimSpace(a) == "" {
			return errors.New("--allow needs a side-effect label, e.g. --allow network_read_only")
		}
	}
	return nil
}

func build(p Program, fl flags) (*server.MCPServer, error) {
	if fl.makeRoot {
		if err := makeRoots(fl.roots); err != nil {
			return nil, err
		}
	}
	if fl.catalog == "" {
		opts := Options{Version: p.Version, Roots: fl.roots, Structured: fl.structured, Toolsets: fl.toolsets}
		if fl.structured {
			opts.DefaultOutput = "json"
		}
		return New(p.NewRegistry, opts)
	}
	data, err := os.ReadFile(fl.catalog)
	if err != nil {
		return nil, fmt.Errorf("--catalog: %w", err)
	}
	return NewExternal(ExternalOptions{Catalog: data, Program: fl.program, Allow: fl.allow, Version: p.Version, Structured: fl.structured})
}

// makeRoots creates the --root folders that do not exist yet: the MCP bundle's default folder
// (Documents/cgt) is made on the first run, empty, so the server sees only what the person
// puts there.
func makeRoots(dirs []string) error {
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil {
			continue
		}
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("--make-root %s: %w", d, err)
		}
	}
	return nil
}
