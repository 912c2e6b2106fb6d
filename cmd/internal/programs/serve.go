package programs

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"

	"github.com/cgt-tools/cgt/mcp"
	"github.com/cgt-tools/cgt/toolcli"
)

// Serve is `cgt serve` (the cgt-serve program): the tool-cli JSON-RPC server with cgt's commands as the "cgt"
// server (through an in-process MCP server, so they look exactly as they do over MCP) plus any
// MCP servers named with --mcp-config. --root DIR (repeatable) lets tools read ledger files
// there, as with `cgt mcp`.
func Serve(version string, args []string, stdout, stderr io.Writer) int {
	if wantsHelp(args) {
		toolcli.ServeHelp(stdout, "  --root DIR\n        let cgt's tools read ledger files inside DIR (repeatable); without it ledgers are passed inline\n"+
			"  --structured\n        publish cgt's tools' output schemas and answer with the envelope as structuredContent (JSON by default)\n")
		return exitOK
	}
	roots, rest, err := takeRoots(args)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return exitUsage
	}
	// --structured is cgt's own flag, taken before any "--" (after it are CMD's words).
	structured := false
	end := len(rest)
	if i := slices.Index(rest, "--"); i >= 0 {
		end = i
	}
	if i := slices.Index(rest[:end], "--structured"); i >= 0 {
		structured, rest = true, slices.Delete(rest, i, i+1)
	}
	// The tools answer as over MCP: compact text by default, and with output json the
	// envelope as JSON text. With --structured (as cgt mcp --structured) their output schemas
	// are published — listTools' hasStructuredOutput is then true and describeTool gives the
	// schema when asked — and they answer in JSON by default, the envelope as structuredContent
	// (an MCP tool with an output schema answers with content that fits it).
	// Without it no tool has an output schema, so hasStructuredOutput is false, as describeTool
	// gives none.
	opts := mcp.Options{Version: version, Roots: roots, Structured: structured}
	if structured {
		opts.DefaultOutput = "json" // a tool with an output schema answers with structured content
	}
	s, err := mcp.New(withRatesCache, opts)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return exitError
	}
	builtins := map[string]toolcli.ProviderFactory{"cgt": toolcli.InProcessRawProvider(s)}
	floor := heapFloor()
	defer runtime.KeepAlive(floor)
	return toolcli.ServeMain(context.Background(), rest, stdout, stderr, builtins)
}

// heapFloorBytes is the heap the collector counts before the server's own: with it, a server
// answering small calls collects once every 64 MiB allocated rather than every 4 MiB (the
// default's floor), which took a third of its CPU under load; a large call's heap is collected
// as before (GOGC's proportion of what is live, plus this). The memory is never written, so
// the system never gives it pages.
const heapFloorBytes = 64 << 20

// heapFloor allocates the floor, unless GOGC is set (the operator's choice stands).
func heapFloor() []byte {
	if os.Getenv("GOGC") != "" {
		return nil
	}
	return make([]byte, heapFloorBytes)
}

// wantsHelp reports whether the words before any "--" ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "-help":
			return true
		}
	}
	return false
}

// takeRoots removes --root DIR / --root=DIR words (before any "--") and returns them.
func takeRoots(args []string) (roots, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return roots, append(rest, args[i:]...), nil
		case a == "--root":
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("--root needs a directory")
			}
			roots = append(roots, args[i+1])
			i++
		case len(a) > 7 && a[:7] == "--root=":
			roots = append(roots, a[7:])
		default:
			rest = append(rest, a)
		}
	}
	return roots, rest, nil
}
