package fresh

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"unsafe"
)

// row is a 64-byte element that holds a pointer, like the engine's records.
type row struct {
	_ string
	_ [6]int64
}

func TestSliceIsZeroedAndSized(t *testing.T) {
	for _, n := range []int{0, 1, 1000, MinBytes/64 + 1} {
		for _, parts := range []int{0, 1, 3} {
			s := Slice[row](n, parts)
			if len(s) != n || cap(s) != n {
				t.Fatalf("n=%d parts=%d: len %d cap %d", n, parts, len(s), cap(s))
			}
			for i := range s {
				if s[i] != (row{}) {
					t.Fatalf("n=%d: element %d not zero", n, i)
				}
			}
		}
	}
}

// The collector's setting is restored once, after concurrent calls, to what it was before.
func TestSliceRestoresTheCollectorSetting(t *testing.T) {
	SetPause(true)
	defer SetPause(false)
	for _, before := range []int{100, 250, -1} {
		debug.SetGCPercent(before)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = Slice[row](MinBytes/64+1, 2)
			}()
		}
		wg.Wait()
		if got := debug.SetGCPercent(100); got != before {
			t.Errorf("setting %d before, %d after", before, got)
		}
	}
}

// Unless the program asked for the pause, Slice never touches the collector's setting, even
// while another goroutine is changing it (as a server embedding the engine might).
func TestSliceLeavesTheCollectorAloneByDefault(t *testing.T) {
	debug.SetGCPercent(100)
	defer debug.SetGCPercent(100)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				if got := debug.SetGCPercent(100); got != 100 {
					t.Errorf("the collector's setting was %d while Slice ran; want 100 untouched", got)
					return
				}
			}
		}
	}()
	for range 8 {
		_ = Slice[row](MinBytes/64+1, 2)
	}
	close(stop)
	wg.Wait()
}

// Mapping pages for writing never changes what they hold, whatever the alignment and length
// of the range, and reports whether the kernel could do it.
func TestMapForWritingKeepsContents(t *testing.T) {
	buf := make([]byte, 3*int(pageSize)+100)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	for _, r := range [][2]int{{0, len(buf)}, {1, len(buf) - 1}, {5, 10}, {int(pageSize) - 1, 2}, {0, 0}} {
		ok := mapForWriting(unsafe.Pointer(&buf[r[0]]), uintptr(r[1]))
		if !ok && runtime.GOOS == "linux" {
			t.Logf("range %v: this kernel cannot map in bulk (Linux before 5.14); Slice and Reserve fall back", r)
		}
		for i := range buf {
			if buf[i] != byte(i*7+1) {
				t.Fatalf("range %v: byte %d changed to %d", r, i, buf[i])
			}
		}
	}
}

// Reserve leaves the collector's setting as it found it when it sets no memory limit (one is
// set already), and what is allocated after it is zero, as make promises: the reserved pages
// come back through the allocator, which zeroes them.
func TestReserveThenAllocate(t *testing.T) {
	SetPause(true)
	defer SetPause(false)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	for _, before := range []int{100, 300} {
		debug.SetGCPercent(before)
		Reserve(MinBytes*3, 2)
		if got := debug.SetGCPercent(100); got != before {
			t.Errorf("setting %d before Reserve, %d after", before, got)
		}
		s := Slice[row](MinBytes/64+1, 2)
		for i := range s {
			if s[i] != (row{}) {
				t.Fatalf("element %d not zero after Reserve", i)
			}
		}
	}
}

// Reserve holds the collector to the memory it mapped, unless a limit is already set (the
// program's own, or GOMEMLIMIT's), which it keeps.
func TestReserveSetsAMemoryLimitOnlyWhenNoneIsSet(t *testing.T) {
	SetPause(true)
	defer SetPause(false)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	Reserve(MinBytes*3, 2)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 || uint64(limit) < ms.HeapSys-ms.HeapReleased || uint64(limit) < MinBytes*3 {
		t.Errorf("limit after Reserve %d, want at least the heap held (%d) and the bytes reserved", limit, ms.HeapSys-ms.HeapReleased)
	}
	// A second ledger file adds what it reserves to the limit the first set.
	Reserve(MinBytes*2, 2)
	if got := debug.SetMemoryLimit(-1); got < limit+MinBytes*2 {
		t.Errorf("limit after a second Reserve of %d bytes %d, want at least %d", MinBytes*2, got, limit+MinBytes*2)
	}
	debug.SetMemoryLimit(1 << 40)
	Reserve(MinBytes*3, 2)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("a limit set before Reserve became %d", got)
	}
}

// Without the program's consent Reserve does nothing: a server's heap is its own business.
func TestReserveIsOffByDefault(t *testing.T) {
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	Reserve(MinBytes*8, 2)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown >= MinBytes {
		t.Errorf("Reserve allocated %d bytes without SetPause", grown)
	}
}

// When Reserve sets the memory limit, the collector runs at that limit only (GOGC=off): the
// heap is not collected each time it doubles on the way there. GOGC, when given, is kept.
func TestReserveCollectsAtTheLimitOnly(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: Reserve keeps it")
	}
	SetPause(true)
	defer SetPause(false)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	limits.Lock()
	limits.set = 0
	limits.Unlock()
	Reserve(MinBytes*3, 2)
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		t.Skip("this kernel cannot map in bulk: Reserve set no limit")
	}
	if got := debug.SetGCPercent(100); got != -1 {
		t.Errorf("collector setting after Reserve set the limit %d, want -1 (off)", got)
	}
}

// Collect collects only in a program for which Reserve set the memory limit.
func TestCollectOnlyAfterReserveSetALimit(t *testing.T) {
	numGC := func() uint32 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.NumGC
	}
	limits.Lock()
	saved := limits.set
	limits.set = 0
	limits.Unlock()
	defer func() { limits.Lock(); limits.set = saved; limits.Unlock() }()
	before := numGC()
	Collect()
	if got := numGC(); got != before {
		t.Errorf("Collect without a limit of Reserve's ran %d collections", got-before)
	}
	limits.Lock()
	limits.set = 1 << 40
	limits.Unlock()
	makeGarbage(8 << 20)
	released := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapReleased
	}
	before, freed := numGC(), released()
	Collect()
	if got := numGC(); got == before {
		t.Error("Collect after Reserve set a limit ran no collection")
	}
	if got := released(); got < freed+4<<20 {
		t.Errorf("Collect gave %d bytes back to the system, want the 8 MB of garbage", int64(got)-int64(freed))
	}
}

// makeGarbage allocates n bytes in blocks of a megabyte and drops them.
func makeGarbage(n int) {
	blocks := make([][]byte, n>>20)
	for i := range blocks {
		blocks[i] = make([]byte, 1<<20)
	}
	runtime.KeepAlive(blocks)
}
