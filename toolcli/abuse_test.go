package toolcli

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/internal/loadaware"
)

// holdServer is an in-process MCP server whose "hold" tool returns only when release is
// closed or its call is cancelled, counting calls started and calls that saw the cancel.
type holdServer struct {
	release   chan struct{}
	started   chan struct{}
	cancelled atomic.Int64
}

func (h *holdServer) provider() ProviderFactory {
	s := server.NewMCPServer("hold", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("hold", mcp.WithDescription("Hold until released.")), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		h.started <- struct{}{}
		select {
		case <-h.release:
			return mcp.NewToolResultText("done"), nil
		case <-ctx.Done():
			h.cancelled.Add(1)
			return mcp.NewToolResultText("cancelled"), nil
		}
	})
	return InProcessProvider(s)
}

func listenLimited(t *testing.T, providers map[string]ProviderFactory, calls, queue int) *Server {
	t.Helper()
	srv, err := Listen(Options{Providers: providers, Log: testLog{t}, MaxCalls: calls, MaxQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv
}

// TestBusyBeyondTheQueue guards cgt serve's bound on calls: with 1 call running and 2
// waiting, a fourth is answered at once with a "server busy" error (CodeServerBusy), and the
// others are answered once the running one ends.
func TestBusyBeyondTheQueue(t *testing.T) {
	h := &holdServer{release: make(chan struct{}), started: make(chan struct{}, 10)}
	srv := listenLimited(t, map[string]ProviderFactory{"h": h.provider()}, 1, 2)
	body := `{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"h","tool":"hold"}}`
	answers := make(chan map[string]any, 3)
	for range 3 {
		go func() {
			_, out := post(t, srv, http.MethodPost, body, nil)
			answers <- out
		}()
	}
	<-h.started
	deadline := time.Now().Add(5 * time.Second)
	for srv.calls.Pending() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	_, out := post(t, srv, http.MethodPost, body, nil)
	e, _ := out["error"].(map[string]any)
	if e == nil || e["code"] != float64(CodeServerBusy) || !strings.HasPrefix(e["message"].(string), "server busy") {
		t.Errorf("fourth call: %v, want a server busy error", out)
	}
	if took := time.Since(start); took > loadaware.Bound(time.Second) {
		t.Errorf("the busy answer took %v", took)
	}
	close(h.release)
	for range 3 {
		if out := <-answers; out["result"] == nil {
			t.Errorf("an admitted call: %v", out)
		}
	}
}

// TestClientGoneStopsTheCall guards cancellation over HTTP: when the client of a running
// call goes away, the tool's context ends within a second.
func TestClientGoneStopsTheCall(t *testing.T) {
	h := &holdServer{release: make(chan struct{}), started: make(chan struct{}, 10)}
	defer close(h.release)
	srv := listenLimited(t, map[string]ProviderFactory{"h": h.provider()}, 1, 2)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL(),
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"h","tool":"hold"}}`))
		req.Header.Set("Authorization", "Bearer "+srv.Token())
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-h.started
	cancel()
	deadline := time.Now().Add(time.Second)
	for h.cancelled.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if h.cancelled.Load() == 0 {
		t.Error("the call was still running a second after its client went away")
	}
}
