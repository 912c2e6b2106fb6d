package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a terminal's standard error as the progress goroutine and the test share it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func fastProgress(t *testing.T) {
	delay, every := progressDelay, progressEvery
	progressDelay, progressEvery = 20*time.Millisecond, 5*time.Millisecond
	t.Cleanup(func() { progressDelay, progressEvery = delay, every })
}

func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		frame   int
		elapsed time.Duration
		want    string
	}{
		{0, 700 * time.Millisecond, "| report.calculate: reading and calculating… 0.7 s"},
		{1, 1250 * time.Millisecond, "/ report.calculate: reading and calculating… 1.2 s"},
		{6, 61 * time.Second, "- report.calculate: reading and calculating… 61.0 s"},
	} {
		if got := progressLine("report.calculate", "reading and calculating", c.frame, c.elapsed); got != c.want {
			t.Errorf("frame %d: %q, want %q", c.frame, got, c.want)
		}
	}
}

// Off a terminal nothing is drawn, and the nil progress is safe to use.
func TestProgressOnlyOnATerminal(t *testing.T) {
	fastProgress(t)
	var errOut syncBuffer
	for _, isTerm := range []func() bool{nil, func() bool { return false }} {
		f := &Factory{Stderr: &errOut, ErrIsTerminal: isTerm}
		p := startProgress(f, "report.calculate")
		if p != nil {
			t.Fatal("a progress line off a terminal")
		}
		time.Sleep(40 * time.Millisecond)
		p.setStage("writing json")
		if g := p.factory(f); g != f {
			t.Error("the factory changed without a progress line")
		}
		p.end()
	}
	if errOut.String() != "" {
		t.Errorf("wrote %q", errOut.String())
	}
}

// A command done before the delay shows nothing.
func TestProgressQuietForAQuickCommand(t *testing.T) {
	progressDelay = time.Hour
	t.Cleanup(func() { progressDelay = 700 * time.Millisecond })
	var errOut syncBuffer
	p := startProgress(&Factory{Stderr: &errOut, ErrIsTerminal: func() bool { return true }}, "fx.rate")
	p.end()
	p.end() // ending twice is harmless
	if errOut.String() != "" {
		t.Errorf("wrote %q", errOut.String())
	}
}

// A long command's line is drawn in place with its stage, erased before anything else is
// written to standard error, and erased at the end.
func TestProgressDrawsStagesAndErases(t *testing.T) {
	fastProgress(t)
	var errOut syncBuffer
	f := &Factory{Stderr: &errOut, ErrIsTerminal: func() bool { return true }}
	p := startProgress(f, "report.calculate")
	waitFor(t, &errOut, "reading and calculating…")
	p.setStage("writing json")
	waitFor(t, &errOut, "writing json…")
	p.factory(f).Stderr.Write([]byte("Written to: r.json\n"))
	waitFor(t, &errOut, "r.json\n\r") // drawn again below it
	p.end()
	out := errOut.String()
	if !strings.HasSuffix(out, "\r"+eraseToEnd) {
		t.Errorf("the line is not erased at the end: %q", tail(out))
	}
	i := strings.Index(out, "Written to: r.json\n")
	if i < 0 || !strings.HasSuffix(out[:i], "\r"+eraseToEnd) {
		t.Errorf("the line is not erased before other output: %q", out)
	}
	for _, line := range strings.Split(out, "\r") {
		if line != "" && !strings.HasSuffix(line, eraseToEnd) && !strings.HasPrefix(line, eraseToEnd) {
			t.Errorf("a drawn line does not clear the rest of the row: %q", line)
		}
	}
}

func waitFor(t *testing.T, b *syncBuffer, s string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if strings.Contains(b.String(), s) {
			return
		}
	}
	t.Fatalf("no %q in %q", s, tail(b.String()))
}

func tail(s string) string {
	if len(s) > 200 {
		return "…" + s[len(s)-200:]
	}
	return s
}
