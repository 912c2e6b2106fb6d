// Package fresh allocates the engine's large arrays, and the memory a large report will use,
// so that their pages are mapped for writing in bulk rather than one fault at a time.
//
// Why: the first touch of each 4 KB page of fresh memory is a page fault, and on the
// virtual machines the project is measured on a fault costs about 8 µs. A million-line
// report uses 1.15 GB, some 280,000 pages: 2.2 s of CPU in the kernel, about a third of
// the run. Linux (5.14 and later) maps a range in one call (madvise MADV_POPULATE_WRITE) at
// about a fifth of that cost. Slice maps each large array that way, in parts at once;
// Reserve maps, before a large ledger is read, the memory its report will need, hands it
// back to the heap, and the allocations that follow reuse it. Where the call is not
// available, Slice writes zeros over the array instead and Reserve does nothing.
//
// There is a second reason to map a large array before using it: allocating a large slice of
// a type that holds pointers usually starts a collection (the heap jumps past its goal), and
// the collector then scans the new slice while it is still untouched. Its reads map the
// kernel's shared zero page into every page of the slice, and the program's first write to
// each page must replace that mapping, which makes the kernel interrupt the other processors
// running the program to flush a stale translation (reading a million-line ledger took 0.9 s
// this way against 0.35 s when the transaction array is written first).
//
// So, when the program has asked for it (SetPause), Slice and Reserve hold collections off
// (debug.SetGCPercent(-1)) only while they allocate and map, then restore the setting. A
// collection already under way is finished first (SetGCPercent waits for it), and one the
// allocation made due starts at the next allocation, when the pages are real. Once Reserve
// has set the memory limit, the setting is off for the rest of the process: the collector
// runs at the limit only (collectAtLimitOnly). The pause is
// process-wide: a program embedding the engine that changes the setting itself while a call
// is under way has its change replaced by the setting restored. That is why the pause, and
// Reserve with it, are off unless the binary's main turns them on: the command line does,
// for one report per process; the long-lived servers (MCP, tool-cli) leave them off, and
// Slice then only maps (or writes) the array.
package fresh

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
)

// MinBytes is the smallest slice worth pausing collections for; below it Slice is make.
const MinBytes = 16 << 20

// pageSize is the unit the kernel maps memory in.
var pageSize = uintptr(os.Getpagesize())

// Slice returns n zero values of T, their memory mapped (or written over) in parts pieces at
// once.
func Slice[T any](n, parts int) []T {
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size < MinBytes {
		return make([]T, n)
	}
	if paused.Load() {
		hold()
		defer release()
	}
	s := make([]T, n)
	parts = max(parts, 1)
	fanout.Each(parts, func(w int) {
		piece := s[n*w/parts : n*(w+1)/parts]
		if len(piece) > 0 && !mapForWriting(unsafe.Pointer(&piece[0]), uintptr(len(piece))*unsafe.Sizeof(zero)) {
			clear(piece)
		}
	})
	return s
}

// reserveChunk is the size of the blocks Reserve maps: small enough that only the one
// block laid over memory the heap used before must be zeroed by the runtime (a single
// block of the whole size would be zeroed, page fault by page fault, if any of it had been
// used), large enough that the calls are few.
const reserveChunk = 32 << 20

// Reserve maps about n bytes of memory for the allocations that follow, when the program has
// asked for it (SetPause) and n is at least MinBytes: it allocates blocks of reserveChunk
// bytes in parts pieces at once, maps their pages for writing, lets them go and runs a collection, so
// the heap keeps the pages and later allocations reuse them (zeroed by the runtime, which
// is cheap once they are mapped) instead of faulting fresh ones in. It then sets the
// collector's soft memory limit to about the memory the process holds (limitToMapped), so
// that garbage does not grow the heap past the pages mapped. The pages stay part of
// the process until it ends or the runtime returns them, so Reserve is for a program that
// computes one report and exits; n should not much exceed what the report will use.
func Reserve(n, parts int) {
	if n < MinBytes || !paused.Load() {
		return
	}
	blocks := make([][]byte, (n+reserveChunk-1)/reserveChunk)
	parts = max(parts, 1)
	own := liftOwnLimit()
	hold()
	var failed atomic.Bool // the kernel cannot map in bulk: stop, and leave the blocks to the collector
	fanout.Each(parts, func(w int) {
		for k := w; k < len(blocks) && !failed.Load(); k += parts {
			b := make([]byte, reserveChunk)
			if !mapForWriting(unsafe.Pointer(&b[0]), reserveChunk) {
				failed.Store(true)
			}
			blocks[k] = b
		}
	})
	release()
	clear(blocks)
	if failed.Load() {
		limitToMapped(0, own) // puts a lifted limit back as it was
		return
	}
	runtime.GC() // frees the blocks now and finishes sweeping them, so the next allocations find them
	reserved.Store(true)
	limitToMapped(n, own)
}

// liftOwnLimit lifts the memory limit a previous Reserve set (another ledger file of the same
// report) while this one maps its blocks, so that the runtime does not hand the new pages back
// to the system to keep under the old limit; it reports whether it did.
func liftOwnLimit() bool {
	limits.Lock()
	defer limits.Unlock()
	if limits.set == 0 || debug.SetMemoryLimit(-1) != limits.set {
		return false
	}
	debug.SetMemoryLimit(math.MaxInt64)
	return true
}

// limitToMapped sets the collector's soft memory limit (debug.SetMemoryLimit) to the memory
// the process holds once Reserve has mapped n bytes, with a margin, unless a limit is already
// set (GOMEMLIMIT): the collector then reuses the reserved pages rather than letting garbage
// grow the heap to twice what is live (GOGC=100) and the process map more. A second ledger
// file of the same report (own: the limit was the previous Reserve's) adds its n bytes and
// margin to that limit. The limit is soft: a report that needs more than was reserved still
// gets it, the collector running more often.
func limitToMapped(n int, own bool) {
	limits.Lock()
	defer limits.Unlock()
	switch {
	case own: // a later ledger file: its bytes on top of the earlier files' limit
		limits.set += int64(n + n/limitMargin)
	case n == 0 || debug.SetMemoryLimit(-1) != math.MaxInt64: // nothing mapped, or a limit of the program's
		return
	default:
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		held := ms.Sys - ms.HeapReleased
		limits.set = int64(held + held/limitMargin)
		collectAtLimitOnly()
	}
	debug.SetMemoryLimit(limits.set)
}

// collectAtLimitOnly turns the collector's proportional pacing off (GOGC=off) once the memory
// limit is set, unless GOGC is given: the heap may then grow to the limit before a collection,
// rather than to twice what was live at the last one. A report's heap only grows while the
// ledger is worked through (little of it is garbage), so each collection before the limit
// marks most of the heap for little gain: on the million-line ledger two such collections,
// about 1.8 s of CPU, became one during the writing, where half the heap is garbage (0.5 s).
// The limit still bounds the heap as before; a report that needs more than was reserved is
// collected at the limit, as it was.
func collectAtLimitOnly() {
	if os.Getenv("GOGC") != "" {
		return
	}
	pause.Lock()
	defer pause.Unlock()
	if pause.holders > 0 {
		pause.percent = -1 // release restores this
		return
	}
	debug.SetGCPercent(-1)
}

// Reserved reports whether Reserve has mapped memory for the report: the heap's pages are
// then mapped already, and memory the allocator hands out has been written (zeroed), so a
// caller need not touch fresh memory to map it.
func Reserved() bool { return reserved.Load() }

var reserved atomic.Bool

// Collect runs a collection if Reserve set the memory limit (a program computing one large
// report), and does nothing otherwise. The program calls it once the report is computed and
// before writing it: the ledger's transactions and the calculation's working memory are
// garbage by then, so the collection marks only the report (on the million-line ledger, 0.2 s
// of CPU and 450 MB freed, where a collection the limit starts while the transactions are
// still live marks 790 MB, 0.9–1.5 s), and the writing then has room without another.
//
// The memory freed goes back to the system at once (debug.FreeOSMemory) rather than staying
// with the heap. The report written next needs more than that in the kernel's file
// cache (the 1M report's file is 1.1 GB), and the kernel hands out the pages freed last
// first: those are pages the machine already holds, where pages it has not used lately may
// have been given back to the host of a virtual machine, which must find and clear them
// again (docs/performance.md, step 15: the 1M report up to a second faster when the host
// is slow to hand out memory, level with before when it is quick).
func Collect() {
	limits.Lock()
	set := limits.set != 0
	limits.Unlock()
	if set {
		debug.FreeOSMemory()
	}
}

// limits remembers the limit limitToMapped set, which a later Reserve (another ledger file of
// the same report) may raise, unlike a limit the program or GOMEMLIMIT set.
var limits struct {
	sync.Mutex
	set int64
}

// limitMargin: the memory limit is the memory held plus this fraction of it (a seventh), so
// that a report close to its estimate does not make the collector run over and over, and the
// generated million-line ledger's calculation ends under it (899 MB of heap against a goal of
// about 920 MB: with an eighth, 908 MB, a collection began just as it ended, while the
// transactions were still live; see Collect).
const limitMargin = 7

// paused says whether Slice may pause the collector and Reserve may map memory ahead;
// SetPause sets it.
var paused atomic.Bool

// SetPause lets Slice hold collections off while it allocates a large slice, and Reserve map
// the memory of a large report ahead (see the package comment). Only a program's main should
// call it.
func SetPause(on bool) { paused.Store(on) }

// pause counts the Slice and Reserve calls under way, so that concurrent calls restore the
// collector's setting once, when the last one ends, to what it was before the first began.
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
