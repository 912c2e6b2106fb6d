package toolcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cgt-tools/cgt/atomicfile"
)

// shutdownTimeout bounds how long in-flight requests may run after a stop.
const shutdownTimeout = 5 * time.Second

// serveConfig is a parsed "serve" command line.
type serveConfig struct {
	port      int
	token     string
	mcpConfig string
	envFile   string
	maxCalls  int
	maxQueue  int
	command   []string
}

// ServeMain runs the "serve" subcommand: cgt serve [flags] [-- CMD ARGS...].
// It serves the builtin providers plus those of --mcp-config. With a
// command it runs CMD with TOOL_CLI_PORT and TOOL_CLI_TOKEN in its
// environment, stops serving when CMD exits and returns CMD's exit status;
// otherwise it prints (or writes to --env-file) the export lines and serves
// until ctx ends, SIGINT or SIGTERM, returning 0. Usage errors return 2,
// failures to start 1.
func ServeMain(ctx context.Context, args []string, stdout, stderr io.Writer, builtins map[string]ProviderFactory) int {
	cfg, err := parseServeArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		ServeHelp(stdout, "")
		return 0
	}
	if err != nil {
		fail(stderr, err)
		return 2
	}
	providers, err := cfg.providers(builtins, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	srv, err := Listen(Options{Port: cfg.port, Token: cfg.token, Providers: providers, Log: stderr,
		MaxCalls: cfg.maxCalls, MaxQueue: cfg.maxQueue})
	if err != nil {
		return fail(stderr, err)
	}
	if len(cfg.command) > 0 {
		return runCommand(ctx, srv, cfg.command, stdout, stderr)
	}
	return serveUntilStopped(ctx, srv, cfg.envFile, stdout, stderr)
}

const serveUsage = `Usage: cgt serve [FLAGS] [-- CMD ARGS...]

Serves tools over the tool-cli protocol (JSON-RPC 2.0 over HTTP) on 127.0.0.1.
Without CMD, prints "export TOOL_CLI_PORT=... TOOL_CLI_TOKEN=..." lines (or
writes them to --env-file) and serves until interrupted. With CMD, runs it with
those variables set and exits with its status when it ends.

Flags:
`

func parseServeArgs(args []string) (*serveConfig, error) {
	cfg := &serveConfig{}
	if i := slices.Index(args, "--"); i >= 0 {
		args, cfg.command = args[:i], args[i+1:]
	}
	if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		// Help asked for is the result and goes to stdout; a usage error is one line on stderr.
		return nil, flag.ErrHelp
	}
	fs := serveFlags(cfg)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w (see --help)", err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (put a command after --)", fs.Arg(0))
	}
	if cfg.port < 0 || cfg.port > 65535 {
		return nil, fmt.Errorf("--port %d is not a port number", cfg.port)
	}
	if cfg.maxCalls < 0 || cfg.maxQueue < 0 {
		return nil, errors.New("--max-calls and --max-queue must not be negative")
	}
	if strings.ContainsAny(cfg.token, " \t\r\n") {
		return nil, errors.New("--token must not contain white space")
	}
	return cfg, nil
}

func serveFlags(cfg *serveConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.IntVar(&cfg.port, "port", 0, "port on 127.0.0.1 (0 picks a free one)")
	fs.StringVar(&cfg.token, "token", "", "bearer token (default: 32 random bytes, hex)")
	fs.StringVar(&cfg.mcpConfig, "mcp-config", "", `also serve the MCP servers named in this {"mcpServers": ...} file`)
	fs.StringVar(&cfg.envFile, "env-file", "", "write the export lines to this file (mode 0600) instead of stdout")
	fs.IntVar(&cfg.maxCalls, "max-calls", 0, "tool calls run at once (0: the number of CPUs)")
	fs.IntVar(&cfg.maxQueue, "max-queue", 0, fmt.Sprintf("tool calls that may wait beyond those (0: %d); more are answered \"server busy\"", DefaultMaxQueue))
	return fs
}

// ServeHelp writes the usage of serve to w: its flags, written --name, and then extra, the
// lines of flags a front end handles before calling ServeMain (cgt's --root).
func ServeHelp(w io.Writer, extra string) {
	fmt.Fprint(w, serveUsage)
	serveFlags(&serveConfig{}).VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s %s\n        %s\n", f.Name, name, usage)
	})
	fmt.Fprint(w, extra)
}

// providers merges the builtins with the servers of the MCP config file.
func (cfg *serveConfig) providers(builtins map[string]ProviderFactory, stderr io.Writer) (map[string]ProviderFactory, error) {
	all := make(map[string]ProviderFactory, len(builtins))
	for name, f := range builtins {
		all[name] = f
	}
	if cfg.mcpConfig == "" {
		return all, nil
	}
	bridged, err := LoadMCPConfig(cfg.mcpConfig, stderr)
	if err != nil {
		return nil, fmt.Errorf("--mcp-config: %w", err)
	}
	for name, f := range bridged {
		if _, clash := all[name]; clash {
			return nil, fmt.Errorf("--mcp-config %s: server %q clashes with a built-in server", cfg.mcpConfig, name)
		}
		all[name] = f
	}
	return all, nil
}

// environment is the export lines, or the KEY=VALUE pairs, a client needs.
func environment(srv *Server) []string {
	return []string{fmt.Sprintf("%s=%d", EnvPort, srv.Port()), EnvToken + "=" + srv.Token()}
}

func exportLines(srv *Server) string {
	var b strings.Builder
	for _, kv := range environment(srv) {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
	}
	return b.String()
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=-]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shutdown(srv *Server, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		fmt.Fprintf(stderr, "tool-cli: shutdown: %v\n", err)
	}
}

func serveUntilStopped(ctx context.Context, srv *Server, envFile string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer shutdown(srv, stderr)
	exports := exportLines(srv)
	if envFile == "" {
		fmt.Fprint(stdout, exports)
	} else {
		if err := atomicfile.Write(envFile, []byte(exports), 0o600); err != nil {
			return fail(stderr, fmt.Errorf("--env-file: %w", err))
		}
		fmt.Fprintf(stderr, "tool-cli: serving on 127.0.0.1:%d; environment in %s\n", srv.Port(), envFile)
	}
	<-ctx.Done()
	return 0
}

// runCommand runs the command with the server's environment, passing on
// SIGINT and SIGTERM, and returns its exit status (128+N for signal N).
func runCommand(ctx context.Context, srv *Server, command []string, stdout, stderr io.Writer) int {
	defer shutdown(srv, stderr)
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), environment(srv)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		fail(stderr, err)
		return 127
	}
	done := make(chan struct{})
	defer close(done)
	go forwardSignals(ctx, cmd.Process, done)
	err := cmd.Wait()
	if errors.Is(err, exec.ErrWaitDelay) {
		// The command exited but left something holding its output open.
		err = nil
		if !cmd.ProcessState.Success() {
			return cmd.ProcessState.ExitCode()
		}
	}
	return exitStatus(err)
}

func forwardSignals(ctx context.Context, proc *os.Process, done <-chan struct{}) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	for {
		select {
		case sig := <-sigs:
			_ = proc.Signal(sig)
		case <-ctx.Done():
			_ = proc.Signal(syscall.SIGTERM)
			ctx = context.Background()
		case <-done:
			return
		}
	}
}

func exitStatus(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	return 1
}
