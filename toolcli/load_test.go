package toolcli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/internal/cputime"
	"github.com/cgt-tools/cgt/mcp"
	"github.com/cgt-tools/cgt/toolcli/internal/bare"
)

// newHTTPClient returns a client with its own connection pool, so a test
// can close every connection it opened.
func newHTTPClient(conns int) (*http.Client, *http.Transport) {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxIdleConns: conns}
	return &http.Client{Transport: tr}, tr
}

func TestLoadConcurrentCallTool(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	const clients, total = 64, 10_000
	before := settledGoroutines(-1)
	srv, err := Listen(Options{Providers: map[string]ProviderFactory{"calc": inProcessProvider()}})
	if err != nil {
		t.Fatal(err)
	}
	httpClient, tr := newHTTPClient(clients)
	var sent, failed atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &Client{URL: srv.URL(), Token: srv.Token(), HTTP: httpClient}
			for sent.Add(1) <= total {
				res, err := c.CallTool(context.Background(), "calc", "add", json.RawMessage(`{"a":1,"b":2}`))
				if err == nil && string(res.StructuredContent) != `{"sum":3}` {
					err = &RPCError{Message: "unexpected result " + string(res.StructuredContent)}
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d calls failed; first: %v", n, total, firstErr.Load())
	}
	t.Logf("%d callTool requests from %d clients in %v (%.0f/s)", total, clients, elapsed, total/elapsed.Seconds())

	tr.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if after := settledGoroutines(before); after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// settledGoroutines waits up to five seconds for the goroutine count to
// drop to target (or to stop changing, when target is negative).
func settledGoroutines(target int) int {
	n := runtime.NumGoroutine()
	for range 100 {
		time.Sleep(50 * time.Millisecond)
		m := runtime.NumGoroutine()
		if (target >= 0 && m <= target) || (target < 0 && m == n) {
			return m
		}
		n = m
	}
	return n
}

// benchmarkRoundTrips posts body to url b.N times and decodes each answer,
// the work a client does for one call.
func benchmarkRoundTrips(b *testing.B, url, token string, body []byte) {
	httpClient, tr := newHTTPClient(1)
	defer tr.CloseIdleConnections()
	b.ReportAllocs()
	cpu := int64(cputime.Used())
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := httpClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct {
			Result *CallToolResult `json:"result"`
			Error  *RPCError       `json:"error"`
		}
		if err := json.Unmarshal(data, &out); err != nil || out.Error != nil || len(out.Result.Content) != 1 {
			b.Fatalf("answer %s: %v", data, err)
		}
	}
	// CPU time per call, client and server together, is steadier than wall
	// time on a busy machine.
	b.ReportMetric(float64(int64(cputime.Used())-cpu)/float64(b.N), "cpu-ns/op")
}

var benchBody = []byte(`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"calc","tool":"noop","arguments":{}}}`)

// BenchmarkCallTool is one callTool round trip over HTTP to a trivial
// in-process MCP tool.
func BenchmarkCallTool(b *testing.B) {
	srv := startServer(b, map[string]ProviderFactory{"calc": inProcessProvider()})
	benchmarkRoundTrips(b, srv.URL(), srv.Token(), benchBody)
}

// BenchmarkCallToolFXRate is one callTool round trip for cgt's get_fx_rate, through the same
// in-process MCP server `cgt serve` uses, so the registry's validation and execution count.
func BenchmarkCallToolFXRate(b *testing.B) {
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	srv := startServer(b, map[string]ProviderFactory{"cgt": InProcessProvider(s)})
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"cgt","tool":"get_fx_rate","arguments":{"currency":"USD","year":2024,"month":3}}}`)
	benchmarkRoundTrips(b, srv.URL(), srv.Token(), body)
}

// BenchmarkPlainHTTPJSON is the floor for BenchmarkCallTool: a minimal
// net/http handler decoding the same request and encoding the same answer.
func BenchmarkPlainHTTPJSON(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(bare.Handle)}
	go hs.Serve(ln)
	defer hs.Close()
	benchmarkRoundTrips(b, "http://"+ln.Addr().String()+"/", "token", benchBody)
}

// BenchmarkCallToolConcurrent measures throughput with 64 connections in use at once: cgt's
// get_fx_rate through callTool (output json, so the envelope is the answer) against the bare
// handler of BenchmarkPlainHTTPJSON, each call checked. Besides calls/s and CPU time per
// call, the callTool run reports its throughput as a fraction of the bare handler's measured
// just before it (ratio); every call must succeed.
func BenchmarkCallToolConcurrent(b *testing.B) {
	const conns = 64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(bare.Handle)}
	go hs.Serve(ln)
	defer hs.Close()
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "bench", Structured: true}) // as cgt serve
	if err != nil {
		b.Fatal(err)
	}
	srv := startServer(b, map[string]ProviderFactory{"cgt": InProcessRawProvider(s)})
	fx := []byte(`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"cgt","tool":"get_fx_rate","arguments":{"currency":"USD","year":2024,"month":3,"output":"json"}}}`)
	var plainRate float64
	for _, bc := range []struct {
		name, url, token string
		body             []byte
		want             string
	}{
		{"plain_http_json", "http://" + ln.Addr().String() + "/", "token", benchBody, `"ok"`},
		{"calltool_fx_rate", srv.URL(), srv.Token(), fx, `"rate":"1.2614"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			httpClient, tr := newHTTPClient(conns)
			defer tr.CloseIdleConnections()
			var failed atomic.Int64
			b.SetParallelism((conns + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ReportAllocs()
			cpu := int64(cputime.Used())
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest(http.MethodPost, bc.url, bytes.NewReader(bc.body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+bc.token)
					resp, err := httpClient.Do(req)
					if err != nil {
						failed.Add(1)
						continue
					}
					data, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK || !bytes.Contains(data, []byte(bc.want)) {
						failed.Add(1)
					}
				}
			})
			b.StopTimer()
			if n := failed.Load(); n > 0 {
				b.Fatalf("%d of %d calls failed", n, b.N)
			}
			rate := float64(b.N) / b.Elapsed().Seconds()
			b.ReportMetric(rate, "calls/s")
			b.ReportMetric(float64(int64(cputime.Used())-cpu)/float64(b.N), "cpu-ns/op")
			if bc.name == "plain_http_json" {
				plainRate = rate
			} else if plainRate > 0 {
				b.ReportMetric(rate/plainRate, "ratio")
			}
		})
	}
}

// BenchmarkHandleFXRate is the server's own work for one callTool of cgt's get_fx_rate, the
// call `make bench-toolcli` loads under wrk: the request read, the registry's validation and
// execution, the reply shaped and the response written, without HTTP (which the bare handler
// of BenchmarkPlainHTTPJSON pays alike). The provider is the one `cgt serve` has.
func BenchmarkHandleFXRate(b *testing.B) {
	s, err := mcp.New(commands.NewRegistry, mcp.Options{Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	srv := startServer(b, map[string]ProviderFactory{"cgt": InProcessRawProvider(s)})
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"cgt","tool":"get_fx_rate","arguments":{"currency":"USD","year":2024,"month":3}}}`)
	ctx := context.Background()
	dst := srv.handle(ctx, body, nil)
	if !bytes.Contains(dst, []byte(`"result"`)) || bytes.Contains(dst, []byte(`"isError":true`)) {
		b.Fatalf("answer %s", dst)
	}
	b.ReportAllocs()
	for b.Loop() {
		dst = srv.handle(ctx, body, dst[:0])
	}
}
