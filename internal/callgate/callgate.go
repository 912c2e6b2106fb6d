// Package callgate bounds the work a server takes on: a fixed number of calls run at once and
// a bounded number wait for their turn; a call beyond both is refused at once (the server
// answers that it is busy) rather than held, so that a client sending faster than the server
// works cannot make it hold every request in memory. The MCP stdio server and tool-cli's
// `cgt serve` put every tool call through one.
package callgate

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// DefaultQueue is how many calls may wait when a server does not say.
const DefaultQueue = 64

// Gate admits calls. The zero value is not usable; see New.
type Gate struct {
	slots   chan struct{}
	pending atomic.Int64 // admitted and not yet done: running or waiting
	limit   int64
	running int
	queue   int
}

// New returns a gate running at most running calls at once (0 or less: the number of CPUs)
// with at most queue more waiting (less than 0: DefaultQueue).
func New(running, queue int) *Gate {
	if running <= 0 {
		running = runtime.NumCPU()
	}
	if queue < 0 {
		queue = DefaultQueue
	}
	return &Gate{slots: make(chan struct{}, running), limit: int64(running + queue), running: running, queue: queue}
}

// Busy is the error of a call refused because the server is running and queueing all it may.
type Busy struct{ Running, Queue int }

func (b *Busy) Error() string {
	return fmt.Sprintf("server busy: %d calls are running and %d waiting, its limit; try again when a call has finished", b.Running, b.Queue)
}

// Admit takes a place for a call, running or waiting, without blocking; it returns a *Busy
// error when there is none. An admitted call is then started with Start and ended with Done.
func (g *Gate) Admit() error {
	if g.pending.Add(1) > g.limit {
		g.pending.Add(-1)
		return &Busy{Running: g.running, Queue: g.queue}
	}
	return nil
}

// Start waits for a running slot for an admitted call. If ctx ends first, the call gives up
// its place and Start returns ctx's error (Done must not be called then).
func (g *Gate) Start(ctx context.Context) error {
	select {
	case g.slots <- struct{}{}:
		return nil
	default:
	}
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		g.pending.Add(-1)
		return ctx.Err()
	}
}

// Done ends a started call.
func (g *Gate) Done() {
	<-g.slots
	g.pending.Add(-1)
}

// Enter is Admit then Start: nil when the call may run (then call Done), a *Busy error, or
// ctx's error.
func (g *Gate) Enter(ctx context.Context) error {
	if err := g.Admit(); err != nil {
		return err
	}
	return g.Start(ctx)
}

// Pending is how many calls are admitted and not done: running or waiting.
func (g *Gate) Pending() int { return int(g.pending.Load()) }

// Limits are the gate's running and queue sizes.
func (g *Gate) Limits() (running, queue int) { return g.running, g.queue }

// Started is for a call that has started (Start or Enter returned nil): it returns the
// function that ends the call, in place of Done. The call's running slot is freed as soon as
// ctx ends, even while its work is still stopping, so a cancelled call never holds up the
// next one; its place among the admitted calls is kept until end is called, so the work of
// cancelled calls still winding down stays within the queue's bound.
func (g *Gate) Started(ctx context.Context) (end func()) {
	var once sync.Once
	free := func() { once.Do(func() { <-g.slots }) }
	stop := context.AfterFunc(ctx, free)
	return func() {
		stop()
		free()
		g.pending.Add(-1)
	}
}
