package cli

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress tells a person at a terminal that a long command is still at work: from
// progressDelay after the start, one line on standard error with the command, what it is
// doing and the time so far, rewritten in place every progressEvery and erased when the
// command ends, so none of it stays on the screen or reaches a file. Anything else written to
// standard error meanwhile (a warning, "Written to: ...") erases the line first.
type progress struct {
	w     io.Writer
	name  string
	start time.Time
	stop  chan struct{}
	done  chan struct{}

	mu    sync.Mutex // guards what follows, and every write to w
	stage string
	shown bool
}

// progressDelay and progressEvery are variables so that tests can run the line quickly.
var (
	progressDelay = 700 * time.Millisecond // a command done sooner shows nothing
	progressEvery = 100 * time.Millisecond
)

// startProgress starts the line for a command, or returns nil when standard error is not a
// terminal (a nil *progress does nothing).
func startProgress(f *Factory, name string) *progress {
	if f.ErrIsTerminal == nil || !f.ErrIsTerminal() {
		return nil
	}
	p := &progress{w: f.Stderr, name: name, start: time.Now(), stage: "reading and calculating",
		stop: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *progress) run() {
	defer close(p.done)
	wait := time.NewTimer(progressDelay)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-p.stop:
		return
	}
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for frame := 0; ; frame++ {
		p.draw(frame)
		select {
		case <-tick.C:
		case <-p.stop:
			return
		}
	}
}

func (p *progress) draw(frame int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r"+progressLine(p.name, p.stage, frame, time.Since(p.start))+eraseToEnd)
	p.shown = true
}

// eraseToEnd clears the rest of the terminal line (ANSI "erase in line").
const eraseToEnd = "\x1b[K"

// progressLine is the line drawn at a frame: a turning bar, the command, its stage, the
// seconds so far.
func progressLine(name, stage string, frame int, elapsed time.Duration) string {
	const bar = `|/-\`
	return fmt.Sprintf("%c %s: %s… %.1f s", bar[frame%len(bar)], name, stage, elapsed.Seconds())
}

// setStage names what the command does now.
func (p *progress) setStage(stage string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stage = stage
	p.mu.Unlock()
}

// end stops the line and erases it.
func (p *progress) end() {
	if p == nil {
		return
	}
	select {
	case <-p.stop:
		return // ended already
	default:
	}
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
}

func (p *progress) erase() {
	if p.shown {
		fmt.Fprint(p.w, "\r"+eraseToEnd)
		p.shown = false
	}
}

// Write writes to standard error below the progress: the line is erased first, and drawn
// again at the next frame.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	return p.w.Write(b)
}

// factory is f writing its standard error through the progress line; f itself when there is
// no line.
func (p *progress) factory(f *Factory) *Factory {
	if p == nil {
		return f
	}
	g := *f
	g.Stderr = p
	return &g
}
