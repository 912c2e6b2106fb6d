package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/internal/callgate"
	"github.com/cgt-tools/cgt/internal/ledgergen"
	"github.com/cgt-tools/cgt/internal/loadaware"
)

// gatedRunner holds every call until release is closed, counting those that started.
type gatedRunner struct {
	release chan struct{}
	started chan struct{}
}

func (g gatedRunner) Run(ctx context.Context, t Tool, args json.RawMessage) Reply {
	g.started <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	return Reply{Text: "done", OK: true}
}

// stdioSession serves s over pipes with at most maxCalls calls at once.
type stdioSession struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	stop func()
}

func newStdioSession(t *testing.T, run Runner, maxCalls int) *stdioSession {
	t.Helper()
	schema := json.RawMessage(`{"type":"object"}`)
	s := newMCPServer("test", "1", "", []Tool{{Name: "hold", InputSchema: schema}}, run)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeCalls(ctx, s, inR, outW, io.Discard, maxCalls) }()
	return &stdioSession{in: inW, out: bufio.NewReaderSize(outR, 1<<20), stop: func() { cancel(); inW.Close(); outR.Close(); <-done }}
}

func (s *stdioSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *stdioSession) read(t *testing.T) string {
	t.Helper()
	line, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// TestBusyBeyondTheQueue guards the bound on calls: with one call running and MaxQueue
// waiting, every further call is answered at once with a "server busy" JSON-RPC error
// (CodeServerBusy), and the admitted ones are all answered once the running call ends.
func TestBusyBeyondTheQueue(t *testing.T) {
	g := gatedRunner{release: make(chan struct{}), started: make(chan struct{}, 100)}
	s := newStdioSession(t, g, 1)
	defer s.stop()
	const extra = 3
	go func() {
		for i := range 1 + MaxQueue + extra {
			if _, err := fmt.Fprintf(s.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{}}}`+"\n", i); err != nil {
				return
			}
		}
	}()
	<-g.started
	for range extra {
		line := s.read(t)
		if !strings.Contains(line, `"code":-32000`) || !strings.Contains(line, "server busy") {
			t.Fatalf("got %s, want a server busy error", line)
		}
	}
	close(g.release)
	for range 1 + MaxQueue {
		if line := s.read(t); !strings.Contains(line, `"text":"done"`) {
			t.Fatalf("got %s, want the call answered", line)
		}
	}
}

// TestQueuedLargeCallsBoundedMemory guards the memory of the MCP server under a flood of
// large calls: 400 calls of 4 MB each (40 of 1 MB under -short) sent while every call is held leave
// the heap under 300 MB (it once grew past 2.6 GB: every call waited with its message).
func TestQueuedLargeCallsBoundedMemory(t *testing.T) {
	calls, size := 400, 4<<20
	if testing.Short() {
		calls, size = 40, 1<<20
	}
	g := gatedRunner{release: make(chan struct{}), started: make(chan struct{}, calls)}
	s := newStdioSession(t, g, 2)
	defer s.stop()
	busy := make(chan int, 1)
	go func() {
		n := 0
		for {
			line, err := s.out.ReadString('\n')
			if err != nil {
				busy <- n
				return
			}
			if strings.Contains(line, "server busy") {
				if n++; n == calls-2-MaxQueue {
					busy <- n
					return
				}
			}
		}
	}()
	text := strings.Repeat("x", size)
	var peak uint64
	for i := range calls {
		s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{"cgt_content":%q}}}`, i, text))
		if i%20 == 19 {
			peak = max(peak, heapInUse())
		}
	}
	select {
	case n := <-busy:
		if n != calls-2-MaxQueue {
			t.Errorf("%d busy answers, want %d", n, calls-2-MaxQueue)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no busy answers")
	}
	peak = max(peak, heapInUse())
	t.Logf("%d calls of %d MB queued: heap in use at most %d MB", calls, size>>20, peak>>20)
	if peak > 300<<20 {
		t.Errorf("heap in use reached %d MB, want under 300 MB", peak>>20)
	}
	close(g.release)
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// callCGT runs one tools/call of cgt's own server (New) in process, as the stdio transport
// does, and returns the reply.
func callCGT(t *testing.T, ctx context.Context, roots []string, tool string, args map[string]any) Reply {
	t.Helper()
	s, err := New(commands.NewRegistry, Options{Version: "test", Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := direct.Load(s)
	calls := d.(*directCalls)
	raw, _ := json.Marshal(args)
	return calls.run.Run(ctx, calls.tools[tool], raw)
}

func ledgerText(t *testing.T, lines int) string {
	var b bytes.Buffer
	if err := ledgergen.Write(&b, ledgergen.Options{Lines: lines, Tickers: 50, USDPercent: 10, Events: true, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestMaxCharsCeiling guards the ceiling on a result: max_chars over MaxChars (1,000,000) is
// refused, and a JSON result over it with max_chars 0 ("no limit") is refused naming the
// ceiling, never returned whole.
func TestMaxCharsCeiling(t *testing.T) {
	ledger := ledgerText(t, 4000)
	r := callCGT(t, context.Background(), nil, "calculate_report", map[string]any{"cgt_content": ledger, "output": "json", "detail": "full", "max_chars": MaxChars + 1})
	if r.OK || !strings.Contains(r.Text, "over this server's ceiling of 1000000") {
		t.Errorf("max_chars over the ceiling: %s", clip(r.Text))
	}
	r = callCGT(t, context.Background(), nil, "calculate_report", map[string]any{"cgt_content": ledger, "output": "json", "detail": "full", "max_chars": 0})
	if r.OK || !strings.Contains(r.Text, "this server answers at most 1000000 characters") || len(r.Text) > 100_000 {
		t.Errorf("a result over the ceiling (%d chars): %s", len(r.Text), clip(r.Text))
	}
	r = callCGT(t, context.Background(), nil, "calculate_report", map[string]any{"cgt_content": ledgerText(t, 12000), "output": "compact", "detail": "full", "max_chars": 0})
	// The records are cut at the ceiling; the notices after them (truncation, the ledger's
	// warnings) are not.
	if !r.OK || len(r.Text) > MaxChars+100_000 || !strings.Contains(r.Text, "truncated|") {
		t.Errorf("compact with max_chars 0: ok=%v, %d chars: %s", r.OK, len(r.Text), clip(r.Text))
	}
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// TestFIFOInRootRefused guards that a FIFO inside --root is refused at once, without being
// opened (opening it waited for a writer and held the call for ever).
func TestFIFOInRootRefused(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "ledger.cgt"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	start := time.Now()
	r := callCGT(t, context.Background(), []string{dir}, "calculate_report", map[string]any{"path": "ledger.cgt"})
	if took := time.Since(start); took > loadaware.Bound(time.Second) {
		t.Errorf("took %v", took)
	}
	if r.OK || !strings.Contains(r.Text, "is a FIFO (named pipe), not a ledger file") {
		t.Errorf("got %s", clip(r.Text))
	}
}

// TestCancelledCallStops guards cancellation: a full JSON report of a large ledger (200,000
// lines; 50,000 under -short) cancelled while it runs answers within a second of the cancel.
func TestCancelledCallStops(t *testing.T) {
	lines := 200_000
	if testing.Short() {
		lines = 50_000
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.cgt"), []byte(ledgerText(t, lines)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, output := range []string{"json", "compact"} {
		t.Run(output, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			answered := make(chan time.Time, 1)
			go func() {
				callCGT(t, ctx, []string{dir}, "calculate_report", map[string]any{"path": "big.cgt", "output": output, "detail": "full", "max_chars": 0})
				answered <- time.Now()
			}()
			time.Sleep(150 * time.Millisecond)
			cancelled := time.Now()
			cancel()
			at := <-answered
			if at.Before(cancelled) {
				t.Skip("the call ended before it was cancelled")
			}
			t.Logf("answered %v after the cancel", at.Sub(cancelled))
			if bound := loadaware.Bound(time.Second); at.Sub(cancelled) > bound {
				t.Errorf("answered %v after the cancel, want within a second (%v at this load)", at.Sub(cancelled), bound)
			}
		})
	}
}

// TestGatedToolsBusyBeyondTheQueue guards the bound on the calls the library dispatches itself
// (every call over HTTP): with one call running and the queue full, a further call fails at
// once with the "server busy" error and never reaches the tool.
func TestGatedToolsBusyBeyondTheQueue(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{}, 2)
	reached := 0
	tool := gatedTools(callgate.New(1, 0))(func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		reached++
		started <- struct{}{}
		<-release
		return mcpgo.NewToolResultText("done"), nil
	})
	first := make(chan error, 1)
	go func() { _, err := tool(context.Background(), mcpgo.CallToolRequest{}); first <- err }()
	<-started
	if _, err := tool(context.Background(), mcpgo.CallToolRequest{}); err == nil || !strings.Contains(err.Error(), "server busy") {
		t.Fatalf("second call: %v, want server busy", err)
	}
	close(release)
	if err := <-first; err != nil || reached != 1 {
		t.Fatalf("first call: %v; the tool was reached %d times, want 1", err, reached)
	}
}

// TestAnswersWithinMaxCharsWarningsIncluded guards the bound on a whole answer: an export
// with tens of thousands of warnings answered with max_chars 1000 stays within 1000
// characters in every format, says how many warnings were left out and how to see them.
func TestAnswersWithinMaxCharsWarningsIncluded(t *testing.T) {
	var b strings.Builder
	b.WriteString("\ufeffDate,Transaction,Description,Quantity,Price,Amount (GBP),Reference\n")
	b.WriteString(`"10/05/2024","Purchase","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","120","32.18","-3866.60","B1001"` + "\n")
	b.WriteString(`"22/07/2024","Sale","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","50","33.41","1665.50","S1002"` + "\n")
	for i := range 5000 {
		fmt.Fprintf(&b, `"08/05/2024","Mystery transfer type %d","Vanguard FTSE 250 UCITS ETF Dist (LSE:VMID)","1","1.00","1.00","X%d"`+"\n", i, i)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "transactionhistory.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args map[string]any
		max  int
	}{
		{map[string]any{"output": "compact"}, 1000},
		{map[string]any{"output": "schema"}, 1000},
		{map[string]any{"output": "records"}, 1000},
		{map[string]any{"output": "json"}, 1000},
		{map[string]any{"output": "json"}, 6000},
		{map[string]any{"output": "compact", "detail": "full"}, 3000},
		{map[string]any{"output": "compact", "ticker": "NOPE"}, 1000},
		{map[string]any{"output": "json", "ticker": "NOPE"}, 1000},
	} {
		args := map[string]any{"path": "transactionhistory.csv", "max_chars": c.max}
		maps.Copy(args, c.args)
		r := callCGT(t, context.Background(), []string{dir}, "calculate_report", args)
		if len(r.Text) > c.max {
			t.Errorf("%v: %d characters, over max_chars %d: %s", c.args, len(r.Text), c.max, clip(r.Text))
		}
		if !strings.Contains(strings.ReplaceAll(r.Text, "_", " "), "more warnings") || !strings.Contains(r.Text, "raise max_chars") {
			t.Errorf("%v: does not say how many warnings were left out and how to see them: %s", c.args, clip(r.Text))
		}
	}
}

// TestResourceReadBounded guards resources/read: a file under a root larger than an answer
// may hold is refused with an error naming the tool argument that reads it, never returned.
func TestResourceReadBounded(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("2024-01-02 BUY AAPL 1 @ 100.00\n", MaxResourceBytes/30+10)
	if err := os.WriteFile(filepath.Join(dir, "big.cgt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := NewRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	files := scanRoots(roots)
	if len(files) != 1 {
		t.Fatalf("listed %d files, want 1", len(files))
	}
	handler := boundedResources(rootFileHandler(roots, files[0]))
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = fileURI(files[0].abs)
	if _, err := handler(context.Background(), req); err == nil || !strings.Contains(err.Error(), "path argument") {
		t.Errorf("reading a %d-byte file as a resource: %v, want a refusal naming path", len(big), err)
	}
}

// TestPromptArgumentsBounded guards prompts/get: an argument longer than a prompt takes is
// refused rather than repeated into the prompt's text.
func TestPromptArgumentsBounded(t *testing.T) {
	handler := boundedPrompts(func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		return promptResult("x", "y"), nil
	})
	req := mcpgo.GetPromptRequest{}
	req.Params.Arguments = map[string]string{"year": strings.Repeat("2024", 1<<20)}
	if _, err := handler(context.Background(), req); err == nil {
		t.Error("a 4 MB prompt argument was accepted")
	}
}
