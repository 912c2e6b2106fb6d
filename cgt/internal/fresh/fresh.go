// Package fresh allocates the engine's large result arrays so that their memory is mapped for
// writing before the garbage collector can read it.
//
// Why: allocating a large slice of a type that holds pointers usually starts a collection
// (the heap jumps past its goal), and the collector then scans the new slice while it is still
// untouched. Its reads map the kernel's shared zero page into every page of the slice, and the
// program's first write to each page must replace that mapping, which makes the kernel
// interrupt the other processors running the program to flush a stale translation. Measured
// on the project's 2-core machine, reading a million-line ledger took 0.9 s this way against
// 0.35 s when the transaction array is written first: the array is 280 MB.
//
// So, when the program has asked for it (SetPause), Slice holds collections off
// (debug.SetGCPercent(-1)) only while it allocates the slice and
// writes zeros over it in parts at once, then restores the setting. A collection already under
// way is finished first (SetGCPercent waits for it), and one the allocation made due starts at
// the next allocation, when the slice's pages are real. The pause is process-wide: a program
// embedding the engine that changes the setting itself while a Slice call is under way has
// its change replaced by the setting Slice restores. That is why the pause is off unless the
// binary's main turns it on: the command line does, for one report per process; the long-lived
// servers (MCP, tool-cli) leave it off, and Slice then only writes the zeros.
package fresh

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
)

// MinBytes is the smallest slice worth pausing collections for; below it Slice is make.
const MinBytes = 16 << 20

// Slice returns n zero values of T, written over in parts pieces at once.
func Slice[T any](n, parts int) []T {
	var zero T
	if uintptr(n)*unsafe.Sizeof(zero) < MinBytes {
		return make([]T, n)
	}
	if paused.Load() {
		hold()
		defer release()
	}
	s := make([]T, n)
	parts = max(parts, 1)
	fanout.Each(parts, func(w int) { clear(s[n*w/parts : n*(w+1)/parts]) })
	return s
}

// paused says whether Slice may pause the collector; SetPause sets it.
var paused atomic.Bool

// SetPause lets Slice hold collections off while it allocates a large slice (see the package
// comment). Only a program's main should call it.
func SetPause(on bool) { paused.Store(on) }

// pause counts the Slice calls under way, so that concurrent calls restore the collector's
// setting once, when the last one ends, to what it was before the first began.
var pause struct {
	sync.Mutex
	holders int
	percent int
}

func hold() {
	pause.Lock()
	defer pause.Unlock()
	if pause.holders == 0 {
		pause.percent = debug.SetGCPercent(-1)
	}
	pause.holders++
}

func release() {
	pause.Lock()
	defer pause.Unlock()
	pause.holders--
	if pause.holders == 0 {
		debug.SetGCPercent(pause.percent)
	}
}
