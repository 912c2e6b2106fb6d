package mcp

import (
	"context"
	"errors"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/internal/callgate"
)

// parentPollInterval is how often the server checks that the process that started it is alive.
const parentPollInterval = 500 * time.Millisecond

// Serve runs the server over newline-delimited JSON-RPC on stdin and stdout until stdin
// closes, ctx ends, the process receives SIGTERM, SIGINT or SIGHUP, or its parent process
// dies. Each of those is a clean end and returns nil. Only JSON-RPC is written to stdout; logs
// go to stderr.
// Tool calls run one per CPU at once, with MaxQueue more waiting (see ServeCalls).
func Serve(ctx context.Context, s *server.MCPServer, stdin io.Reader, stdout, stderr io.Writer) error {
	return ServeCalls(ctx, s, stdin, stdout, stderr, 0)
}

// ServeCalls is Serve running at most maxCalls tool calls at once (0 or less: one per CPU),
// with MaxQueue more waiting; a call beyond both is answered at once with a JSON-RPC error
// whose message begins "server busy" (CodeServerBusy).
func ServeCalls(ctx context.Context, s *server.MCPServer, stdin io.Reader, stdout, stderr io.Writer, maxCalls int) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go watchParent(ctx, cancel, os.Getppid(), parentPollInterval)

	out := &lockedWriter{w: stdout}
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(stderr, "cgt mcp: ", log.LstdFlags))
	g := newGuard(stdin, out, MaxMessageSize)
	gate := callgate.New(maxCalls, MaxQueue)
	s.Use(gatedTools(gate)) // the calls the library dispatches itself (task-augmented ones)
	g.calls = newCaller(ctx, s, out, gate)
	err := stdio.Listen(ctx, g, out)
	if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// watchParent cancels when the parent process changes: on Unix an orphan is re-parented (to
// init or a subreaper), so a different parent id means the client that started us is gone and
// nobody will close our stdin. A server started directly by init cannot be watched this way.
func watchParent(ctx context.Context, cancel context.CancelFunc, parent int, every time.Duration) {
	if parent <= 1 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != parent {
				cancel()
				return
			}
		}
	}
}
