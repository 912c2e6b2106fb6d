package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/internal/callgate"
)

// HTTPPath is where the Streamable HTTP endpoint is served.
const HTTPPath = "/mcp"

// MinTokenLength is the shortest bearer token --token accepts; a generated one is longer.
const MinTokenLength = 16

// shutdownGrace is how long a signalled server waits for calls in flight before closing.
const shutdownGrace = 5 * time.Second

// callGrace is how long, of shutdownGrace, calls in flight may run on before they are stopped
// and answered with an error saying the server is shutting down.
const callGrace = 2 * time.Second

// HTTPOptions configure `cgt mcp --http`.
type HTTPOptions struct {
	// Addr is host:port; an empty host (":8080") means 127.0.0.1, port 0 a free port.
	Addr string
	// Token is the bearer token every request must carry; empty generates one, printed once.
	Token string
	// Ready, when set, is called with the URL once the server listens (tests).
	Ready func(url string)
	// MaxCalls is how many tool calls run at once (0: the number of CPUs); MaxQueue more may
	// wait, and a call beyond those is answered that the server is busy.
	MaxCalls int
}

// ServeHTTP serves s over MCP's Streamable HTTP transport at http://HOST:PORT/mcp until ctx
// ends or the process receives SIGTERM, SIGINT or SIGHUP; each is a clean end and returns nil
// after the calls in flight finish (at most shutdownGrace). The URL, and the token when it was
// generated, are printed on stderr. Calls still running callGrace after the end is asked for
// are stopped and answered with a JSON-RPC error. Every request must name this server in its Host header
// (and Origin, when it has one) and carry the token: see httpGuard.
func ServeHTTP(ctx context.Context, s *server.MCPServer, opts HTTPOptions, stderr io.Writer) error {
	host, port, err := listenAddress(opts.Addr)
	if err != nil {
		return err
	}
	token, generated := opts.Token, false
	if token == "" {
		if token, err = newToken(); err != nil {
			return err
		}
		generated = true
	} else if err := checkToken(token); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("--http %s: %w", opts.Addr, err)
	}
	actual := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	endpoint := "http://" + net.JoinHostPort(host, actual) + HTTPPath

	// Over HTTP the library dispatches every tool call (in a goroutine per request): the gate
	// bounds them as the stdio transport bounds the calls it runs itself.
	s.Use(gatedTools(callgate.New(opts.MaxCalls, MaxQueue)))
	// A call still running when shutdown gives up waiting is stopped and answered with an error.
	stopCalls, cutCalls := context.WithCancel(context.Background())
	defer cutCalls()
	s.Use(stoppedByShutdown(stopCalls))
	live := newSessions(MaxSessions, SessionIdleTimeout)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	streamable := server.NewStreamableHTTPServer(s,
		server.WithEndpointPath(HTTPPath),
		server.WithStreamableHTTPServer(srv),
		// The tools and resources are fixed for the session: no server-sent notifications,
		// so no long-lived GET stream to hold open (clients take 405 as "none").
		server.WithDisableStreaming(true),
		// httpGuard's Host check is stricter than the library's loopback-only one.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		// Sessions are checked (unknown or ended: 404), bounded (MaxSessions) and end when
		// idle (SessionIdleTimeout): the library's default accepts any id and keeps them all.
		server.WithSessionIdManager(live),
		server.WithSessionIdleTTL(SessionIdleTimeout),
	)
	live.ended = endIn(streamable)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, sessionRules{next: newCancelledCalls(streamable), sessions: live})
	srv.Handler = newHTTPGuard(mux, token, allowedHosts(host, actual))

	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	fmt.Fprintf(stderr, "cgt mcp: MCP over Streamable HTTP at %s\n", endpoint)
	if generated {
		fmt.Fprintf(stderr, "cgt mcp: bearer token (shown once; send it as Authorization: Bearer TOKEN): %s\n", token)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "cgt mcp: warning: %s is reachable from other machines, and plain HTTP sends the token and ledgers unencrypted\n", host)
	}
	if opts.Ready != nil {
		opts.Ready(endpoint)
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	// Calls in flight get callGrace to finish; those still running are then stopped and
	// answered with an error, and the connections close once answered (at most shutdownGrace).
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	cut := time.AfterFunc(callGrace, cutCalls)
	defer cut.Stop()
	if err := streamable.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listenAddress splits ADDR; an empty host is 127.0.0.1, and the port must be a number.
func listenAddress(addr string) (host, port string, err error) {
	host, port, err = net.SplitHostPort(addr)
	if err != nil {
		return "", "", fmt.Errorf("--http %q: want HOST:PORT, e.g. 127.0.0.1:8765, or :0 for a free port on 127.0.0.1", addr)
	}
	if n, perr := strconv.Atoi(port); perr != nil || n < 0 || n > 65535 {
		return "", "", fmt.Errorf("--http %q: the port must be a number from 0 to 65535 (0 picks a free one)", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return host, port, nil
}

// newToken is 32 random bytes, base64url: 43 characters.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func checkToken(t string) error {
	if len(t) < MinTokenLength {
		return fmt.Errorf("--token must be at least %d characters (leave it out to have one generated)", MinTokenLength)
	}
	for _, r := range t {
		if r <= ' ' || r > '~' {
			return errors.New("--token must be printable ASCII without spaces (it is sent in an HTTP header)")
		}
	}
	return nil
}

// allowedHosts are the Host values that name this server: the listening host and the
// loopback names, each with the port, lower-cased.
func allowedHosts(host, port string) map[string]bool {
	hosts := map[string]bool{}
	for _, h := range []string{host, "localhost", "127.0.0.1", "::1"} {
		hosts[strings.ToLower(net.JoinHostPort(h, port))] = true
	}
	return hosts
}

// httpGuard is the HTTP front door: the Host header must name this server and an Origin header,
// when present, must be one of those hosts (403 otherwise: DNS rebinding and cross-site
// pages); then the bearer token must match (401 otherwise); a body over MaxMessageSize is
// 413. Only then does the request reach the MCP endpoint.
type httpGuard struct {
	next  http.Handler
	hosts map[string]bool
	token [sha256.Size]byte
}

func newHTTPGuard(next http.Handler, token string, hosts map[string]bool) *httpGuard {
	return &httpGuard{next: next, hosts: hosts, token: sha256.Sum256([]byte(token))}
}

func (g *httpGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hosts[hostWithPort(r.Host, "http")] {
		refuse(w, http.StatusForbidden, fmt.Sprintf("Host %q does not name this server; connect to %s", r.Host, g.example()))
		return
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		if len(origins) > 1 || !g.allowedOrigin(origins[0]) {
			refuse(w, http.StatusForbidden, fmt.Sprintf("Origin %q is not allowed; only pages served from this server's own address may call it", strings.Join(origins, ", ")))
			return
		}
	}
	if !g.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="cgt mcp"`)
		refuse(w, http.StatusUnauthorized, "a bearer token is required: send Authorization: Bearer TOKEN with the token cgt mcp printed when it started (or the one given with --token)")
		return
	}
	if r.ContentLength > MaxMessageSize {
		refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a message is at most %d bytes", MaxMessageSize))
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxMessageSize)
	}
	g.next.ServeHTTP(w, r)
}

// authorized compares the token in constant time (hashed first, so its length does not leak).
func (g *httpGuard) authorized(header string) bool {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], g.token[:]) == 1
}

// allowedOrigin: an http(s) origin whose host and port are one of the allowed hosts.
func (g *httpGuard) allowedOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	return g.hosts[hostWithPort(u.Host, u.Scheme)]
}

// hostWithPort lower-cases a Host value and adds the scheme's default port when it has none.
func hostWithPort(h, scheme string) string {
	h = strings.ToLower(h)
	if _, _, err := net.SplitHostPort(h); err == nil {
		return h
	}
	port := "80"
	if scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"), port)
}

// example is an address to suggest in a refusal.
func (g *httpGuard) example() string {
	for h := range g.hosts {
		if strings.HasPrefix(h, "127.0.0.1:") {
			return "http://" + h + HTTPPath
		}
	}
	return "the address cgt mcp printed when it started"
}

func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintln(w, "cgt mcp:", msg)
}
