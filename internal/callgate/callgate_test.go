package callgate

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestGate(t *testing.T) {
	g := New(1, 1)
	if err := g.Enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- g.Enter(context.Background()) }() // queued
	for g.Pending() < 2 {
		time.Sleep(time.Millisecond)
	}
	var busy *Busy
	if err := g.Enter(context.Background()); !errors.As(err, &busy) || busy.Running != 1 || busy.Queue != 1 {
		t.Fatalf("third call: %v, want busy", err)
	}
	g.Done()
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	// A call that gives up while waiting leaves its place.
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error, 1)
	go func() { gaveUp <- g.Enter(ctx) }()
	for g.Pending() < 2 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	g.Done()
	if n := g.Pending(); n != 0 {
		t.Errorf("pending %d after every call ended", n)
	}
}

// TestCancelledCallFreesItsSlotAtOnce guards that a call whose context ends gives its running
// slot to the next call at once, while its place in the queue is kept until its work ends.
func TestCancelledCallFreesItsSlotAtOnce(t *testing.T) {
	g := New(1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	if err := g.Enter(ctx); err != nil {
		t.Fatal(err)
	}
	end := g.Started(ctx)
	cancel() // the work goes on stopping; end is not called yet
	next, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if err := g.Enter(next); err != nil {
		t.Fatalf("the next call waited for a cancelled one: %v", err)
	}
	var busy *Busy
	if err := g.Admit(); !errors.As(err, &busy) {
		t.Fatalf("a third call while the cancelled one still winds down: %v, want busy", err)
	}
	end()
	g.Done()
	if n := g.Pending(); n != 0 {
		t.Errorf("pending %d after every call ended", n)
	}
}
