package toolcli

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/internal/callgate"
	"github.com/cgt-tools/cgt/internal/jsontext"
)

// Options configure a Server.
type Options struct {
	// Port to listen on, on 127.0.0.1; 0 picks a free one.
	Port int
	// Token clients must present as "Authorization: Bearer <token>";
	// empty generates a fresh random one.
	Token string
	// Providers maps a server name to the MCP client behind it.
	Providers map[string]ProviderFactory
	// Log receives notices about bridged servers; nil discards them.
	Log io.Writer
	// MaxCalls is how many tool calls run at once (0: the number of CPUs); MaxQueue how many
	// more may wait (0: DefaultMaxQueue). A call beyond both is answered at once with a
	// CodeServerBusy error.
	MaxCalls, MaxQueue int
}

// DefaultMaxQueue is how many tool calls may wait for their turn by default: enough for 64
// clients calling at once. A request is at most MaxRequestBytes, so what waits is bounded.
const DefaultMaxQueue = 64

// Server is a running tool-cli server. It is safe for concurrent use.
type Server struct {
	token     string
	providers map[string]*provider
	names     []string
	listener  net.Listener
	http      *http.Server
	served    chan struct{}
	calls     *callgate.Gate
}

// Listen starts a tool-cli server on 127.0.0.1 and serves it in the
// background until Shutdown.
func Listen(opts Options) (*Server, error) {
	token := opts.Token
	if token == "" {
		var err error
		if token, err = NewToken(); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port)))
	if err != nil {
		return nil, err
	}
	s := newServer(token, opts.Providers, opts.Log)
	queue := opts.MaxQueue
	if queue <= 0 {
		queue = DefaultMaxQueue
	}
	s.calls = callgate.New(opts.MaxCalls, queue)
	s.listener = ln
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          log.New(logWriter(opts.Log), "tool-cli: ", 0),
	}
	go s.serve()
	return s, nil
}

func newServer(token string, factories map[string]ProviderFactory, logw io.Writer) *Server {
	s := &Server{token: token, providers: make(map[string]*provider, len(factories)), served: make(chan struct{}),
		calls: callgate.New(0, DefaultMaxQueue)}
	for name, f := range factories {
		s.providers[name] = &provider{name: name, factory: f, log: logw}
		s.names = append(s.names, name)
	}
	sort.Strings(s.names)
	return s
}

func logWriter(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

func (s *Server) serve() {
	defer close(s.served)
	_ = s.http.Serve(s.listener)
}

// NewToken returns 32 random bytes, hex encoded.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.listener.Addr().(*net.TCPAddr).Port }

// Token is the bearer token clients must present.
func (s *Server) Token() string { return s.token }

// URL is the address clients post to.
func (s *Server) URL() string { return "http://" + s.listener.Addr().String() + "/" }

// Shutdown stops accepting requests, waits for those in flight (until ctx
// ends), then stops every bridged server.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.http.Shutdown(ctx)
	<-s.served
	var wg sync.WaitGroup
	for _, p := range s.providers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.close()
		}()
	}
	wg.Wait()
	return err
}

// ServeHTTP answers one tool-cli request. Checks run in this order: method
// (405), Host and Origin are loopback (403), bearer token (401), body size
// (413); then the body is answered as JSON-RPC with status 200.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, errorResponse(nil, rpcErrorf(CodeInvalidRequest, "Only POST accepted")))
		return
	}
	if !loopbackRequest(r) {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "Forbidden: Host and Origin must be loopback"})
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "Unauthorized"})
		return
	}
	in := bodies.Get().(*bytes.Buffer)
	defer putBody(in)
	body, ok := readBody(r, in)
	if !ok {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorResponse(nil, rpcErrorf(CodeInvalidRequest, "Request too large")))
		return
	}
	out := bodies.Get().(*bytes.Buffer)
	defer putBody(out)
	out.Write(s.handle(r.Context(), body, out.AvailableBuffer()))
	writeBody(w, http.StatusOK, out.Bytes())
}

// bodies are the buffers of requests and answers, reused from call to call (a buffer grown
// past 1 MiB is left to the collector).
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putBody(b *bytes.Buffer) {
	if b.Cap() <= 1<<20 {
		b.Reset()
		bodies.Put(b)
	}
}

// authorized compares the bearer token in constant time.
func (s *Server) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.token)) == 1
}

// loopbackRequest guards against DNS rebinding: a browser page on another
// site may reach 127.0.0.1, but its Host or Origin then names that site.
func loopbackRequest(r *http.Request) bool {
	if !loopbackHost(r.Host) {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && loopbackHost(u.Host)
}

func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// readBody reads at most MaxRequestBytes; ok is false when the body is larger.
func readBody(r *http.Request, buf *bytes.Buffer) (body []byte, ok bool) {
	if r.ContentLength > MaxRequestBytes {
		return nil, false
	}
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	n, err := buf.ReadFrom(io.LimitReader(r.Body, MaxRequestBytes+1))
	if n > MaxRequestBytes {
		return nil, false
	}
	// A body cut short reads as invalid JSON, answered with -32700.
	_ = err
	return buf.Bytes(), true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	if err := envelope.NewEncoder(&buf).Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%q}}`+"\n", CodeInternalError, err.Error())
	}
	writeBody(w, status, buf.Bytes())
}

// jsonContentType is the Content-Type of every answer, one slice shared by all of them (the
// server only reads it).
var jsonContentType = []string{"application/json"}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// appendResponse appends a response, the body of the HTTP answer, to dst: a tool's result by hand,
// straight from the library's value (appendCallResult), anything else with the encoder.
func appendResponse(dst []byte, resp rpcResponse) []byte {
	res, ok := resp.Result.(*mcp.CallToolResult)
	if !ok {
		buf := bytes.NewBuffer(dst)
		if err := envelope.NewEncoder(buf).Encode(resp); err != nil {
			return appendResponse(dst, errorResponse(resp.ID, internal(err)))
		}
		return buf.Bytes()
	}
	b := append(dst, `{"jsonrpc":"2.0","id":`...)
	if len(resp.ID) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, resp.ID...) // as the request gave it: a number or string, compact
	}
	b = append(b, `,"result":`...)
	b, err := appendCallResult(b, res)
	if err != nil {
		return appendResponse(dst, errorResponse(resp.ID, internal(err)))
	}
	return append(b, "}\n"...)
}

// appendCallResult writes a tool's result in the protocol's CallToolResult form: the content
// items (a plain text item by hand, its text escaped once; any other through encoding/json),
// isError when set, and the structured content as the tool sent it (compacted).
func appendCallResult(b []byte, res *mcp.CallToolResult) ([]byte, error) {
	b = append(b, `{"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			b = append(b, ',')
		}
		if t, ok := c.(mcp.TextContent); ok && t.Annotations == nil && t.Meta == nil && t.Type == "text" {
			b = append(b, `{"type":"text","text":`...)
			b = jsontext.AppendString(b, t.Text, false)
			b = append(b, '}')
			continue
		}
		item, err := envelope.Marshal(c)
		if err != nil {
			return nil, err
		}
		b = append(b, item...)
	}
	b = append(b, ']')
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	structured := res.RawStructuredContent
	if len(structured) == 0 && res.StructuredContent != nil {
		var err error
		if structured, err = envelope.Marshal(res.StructuredContent); err != nil {
			return nil, err
		}
	}
	if len(structured) > 0 {
		b = append(b, `,"structuredContent":`...)
		buf := bytes.NewBuffer(b)
		if err := json.Compact(buf, structured); err != nil {
			return nil, fmt.Errorf("structured content: %w", err)
		}
		b = buf.Bytes()
	}
	return append(b, '}'), nil
}

func errorResponse(id json.RawMessage, err *RPCError) rpcResponse {
	return rpcResponse{JSONRPC: "2.0", ID: id, Error: err}
}

// handle answers one JSON-RPC request body with the response's bytes.
// The answer is appended to dst.
func (s *Server) handle(ctx context.Context, body, dst []byte) []byte {
	return appendResponse(dst, s.respond(ctx, body))
}

func (s *Server) respond(ctx context.Context, body []byte) rpcResponse {
	req, p, rerr := readRequest(body)
	if rerr != nil {
		var id json.RawMessage
		if req != nil {
			id = req.ID
		}
		return errorResponse(id, rerr)
	}
	result, rerr := s.dispatch(ctx, req.Method, p)
	if rerr != nil {
		return errorResponse(req.ID, rerr)
	}
	return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: result}
}

// wellFormed is a request read with its params in one pass, the common case.
type wellFormed struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  params          `json:"params"`
}

// readRequest decodes a request and its params once; a body that does not decode that way
// (not JSON, params not an object, ...) is read again by parseRequest and decodeParams, which
// say what is wrong with it.
func readRequest(body []byte) (*rpcRequest, params, *RPCError) {
	w, ok := readFast(body)
	if !ok {
		w = wellFormed{}
		ok = json.Unmarshal(bytes.TrimSpace(body), &w) == nil
	}
	if ok && validID(w.ID) && w.JSONRPC == "2.0" && w.Method != "" {
		return &rpcRequest{JSONRPC: w.JSONRPC, ID: w.ID, Method: w.Method}, w.Params, nil
	}
	req, rerr := parseRequest(body)
	if rerr != nil {
		return req, params{}, rerr
	}
	if _, ok := methods[req.Method]; !ok {
		return req, params{}, rpcErrorf(CodeMethodNotFound, "Method not found: %s", req.Method)
	}
	p, rerr := decodeParams(req.Params)
	return req, p, rerr
}

// parseRequest decodes and validates one JSON-RPC request. On an invalid
// request whose id could be read, the request is returned with the error.
func parseRequest(body []byte) (*rpcRequest, *RPCError) {
	trimmed := bytes.TrimSpace(body)
	var req rpcRequest
	if err := json.Unmarshal(trimmed, &req); err != nil {
		if !json.Valid(trimmed) {
			return nil, rpcErrorf(CodeParseError, "Parse error: %v", err)
		}
		if len(trimmed) > 0 && trimmed[0] == '[' {
			return nil, rpcErrorf(CodeInvalidRequest, "Invalid Request: batch requests are not supported")
		}
		return nil, rpcErrorf(CodeInvalidRequest, "Invalid Request: %v", err)
	}
	if !validID(req.ID) {
		return nil, rpcErrorf(CodeInvalidRequest, "Invalid Request: id must be a string, a number or null")
	}
	if req.JSONRPC != "2.0" {
		return &req, rpcErrorf(CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`)
	}
	if req.Method == "" {
		return &req, rpcErrorf(CodeInvalidRequest, `Invalid Request: "method" is required`)
	}
	return &req, nil
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	switch id[0] {
	case '{', '[', 't', 'f':
		return false
	}
	return true
}
