package fresh

import (
	"runtime/debug"
	"sync"
	"testing"
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
