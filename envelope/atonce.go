//go:build !js

package envelope

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
)

// The browser module runs on one thread: it writes every array in order (atonce_js.go), and
// carries none of this.

// chunksAhead is how many chunks may be encoded before the writer takes them: two per worker,
// and a slack of twelve more for the writer. The writer waits for chunks in order, and a
// write into the page cache sometimes stalls; with two per worker alone, a worker soon stops
// behind a slow chunk or a slow write while a processor goes idle. The slack does not grow
// with the processors (a report's chunk is about 350 KB): on two it took a few percent off the
// 1M report's time and kept its peak (docs/performance.md, step 13).
func chunksAhead(workers int) int { return 2*workers + 12 }

// elementsAtOnce writes the elements of an array of at least parallelElems when there are
// several processors, and reports whether it did. Workers encode chunks of elements, each
// into a buffer of its own, while this goroutine writes the finished chunks in order. At most
// chunksAhead chunks are encoded ahead of the writing, so memory stays bounded. Each element
// is written exactly as element writes it, so the output is the same as the one-by-one
// loop's; an element that fails to encode stops the output where the loop would have
// stopped. A chunk is perChunk elements encoded whole (a report's disposals, about 350 KB),
// or, for elements walked field by field, as many as make about chunkBytes, sized by the
// first element, which is encoded on its own (a ticker's pool history on the million-line
// ledger is about 79 KB). A worker's own arrays are written one by one.
func (s *streamer) elementsAtOnce(v reflect.Value, level, depth int) bool {
	n := v.Len()
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || s.serial || n < parallelElems {
		return false
	}
	from, per := 0, perChunk
	if !encodedWhole(v.Type().Elem(), depth) {
		size := s.firstElement(v, level, depth)
		if s.err != nil {
			return true
		}
		from, per = 1, max(1, min(perChunk, chunkBytes/max(size, 1)))
	}
	chunks := (n - from + per - 1) / per
	type slot struct {
		st   *streamer
		done chan struct{}
	}
	ring := make([]slot, min(chunksAhead(workers), chunks))
	for i := range ring {
		ring[i] = slot{st: s.worker(), done: make(chan struct{}, 1)}
	}
	tokens := make(chan struct{}, len(ring)+chunks) // one per chunk that may be encoded ahead
	for range ring {
		tokens <- struct{}{}
	}
	stop := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-tokens:
				case <-stop:
					return
				}
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				sl := ring[c%len(ring)]
				sl.st.encodeRange(v, from+c*per, min(from+(c+1)*per, n), level, depth)
				sl.done <- struct{}{}
			}
		}()
	}
	for c := 0; c < chunks && s.err == nil; c++ {
		sl := ring[c%len(ring)]
		<-sl.done
		s.take(sl.st)
		tokens <- struct{}{}
	}
	close(stop)
	wg.Wait()
	for _, sl := range ring {
		s.workers = append(s.workers, sl.st)
	}
	return true
}

// firstElement writes the array's first element, encoded by a worker, and returns its size.
func (s *streamer) firstElement(v reflect.Value, level, depth int) int {
	st := s.worker()
	st.encodeRange(v, 0, 1, level, depth)
	s.take(st)
	s.workers = append(s.workers, st)
	return len(st.w.(*chunk).b)
}

// take writes what a worker encoded, and takes its error when it met one first.
func (s *streamer) take(st *streamer) {
	s.writeBytes(st.w.(*chunk).b)
	if st.err != nil && s.err == nil {
		s.err = st.err
	}
}

// chunkBytes is about the size of a chunk of elements walked field by field.
const chunkBytes = 256 << 10

// worker is a streamer for one slot of elementsAtOnce's ring: one an earlier array used,
// whose buffer has grown to a chunk's size already, or a new one. Without them, each tax
// year's disposals grew a ring of buffers from nothing again: about 16 MB of garbage a year,
// which on a 100,000-line report made the collector run twice at the memory limit while the
// report was being written.
func (s *streamer) worker() *streamer {
	if n := len(s.workers); n > 0 {
		w := s.workers[n-1]
		s.workers = s.workers[:n-1]
		return w
	}
	w := newStreamer(&chunk{}, s.indent)
	w.serial = true
	return w
}

// encodeRange encodes elements [lo, hi) into the worker's buffer, from scratch, stopping at
// the first that fails.
func (s *streamer) encodeRange(v reflect.Value, lo, hi, level, depth int) {
	c := s.w.(*chunk)
	c.b = c.b[:0]
	s.err = nil
	for i := lo; i < hi && s.err == nil; i++ {
		s.element(v, i, level, depth)
	}
}

// encodedWhole reports whether every element of type t at this depth is encoded whole (see
// value). Elements walked field by field can be of any size (a ticker's pool history is about
// 216 events on the million-line ledger), so their chunks are sized in bytes: in chunks of
// 16 pools, 1 MB each, the pools took 40% more CPU to write (docs/performance.md, steps 13
// and 16).
func encodedWhole(t reflect.Type, depth int) bool {
	for t.Kind() == reflect.Pointer && !marshals(t) {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Interface:
		return false
	case t.Kind() == reflect.Struct && depth < walkDepth && walkable(t):
		return false
	case t.Kind() == reflect.Slice && walkable(t.Elem()):
		return false
	}
	return true
}
