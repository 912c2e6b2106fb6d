package dsl

import (
	"bytes"
	"runtime"

	"github.com/cgt-tools/cgt/cgt/internal/fanout"
	"github.com/cgt-tools/cgt/cgt/internal/fresh"
	"github.com/cgt-tools/cgt/cgt/model"
)

// partBytes is the least text worth a part of its own: below it, starting a goroutine and
// joining the results costs about what reading the lines saves. At 4 MB a 100,000-line
// ledger (4.3 MB) was read in one part on one processor; in four it is reported 10–20 ms
// sooner, and ledgers of 1–2 MB take the same time either way (docs/performance.md, step 18).
var partBytes = 1 << 20

// part is a run of whole lines of a ledger: bytes [start, end) of the text, whose first line
// is line firstLine of the file. lines counts its '\n's; bad is the offset in the text of
// its first byte that cannot be in a text ledger (−1 when none), and what describes it.
type part struct {
	start, end int
	firstLine  int
	lines      int
	bad        int
	what       string
}

// partsFor is how many parts a text of n bytes is read in: partsPerProcessor for each
// processor (one with a single processor), and no part smaller than partBytes.
func partsFor(n int) int {
	procs := runtime.GOMAXPROCS(0)
	if procs > 1 {
		procs *= partsPerProcessor
	}
	return max(1, min(procs, n/partBytes))
}

// partsPerProcessor: lines of one length can take unequal time to read (a line in a foreign
// currency, one with more fields), so a part per processor left one processor reading while
// the others waited (a tenth of a second on the generated million-line ledger, whose later
// years are in dollars). The processors take smaller parts in turn instead (fanout.Share).
const partsPerProcessor = 4

// splitParts cuts src into about n parts of whole lines and surveys them at once: a part
// ends just after a '\n', so no line (however long) and no UTF-8 sequence is split, and each
// part learns its line count, its first line's number and its first bad byte.
func splitParts(src []byte, n int) []part {
	parts := make([]part, 0, n)
	for start, k := 0, 1; k <= n && start < len(src); k++ {
		end := len(src)
		if k < n {
			cut := max(start, len(src)*k/n)
			if i := bytes.IndexByte(src[cut:], '\n'); i >= 0 {
				end = cut + i + 1
			}
		}
		parts = append(parts, part{start: start, end: end})
		start = end
	}
	if len(parts) == 0 {
		parts = append(parts, part{})
	}
	fanout.Share(runtime.GOMAXPROCS(0), len(parts), func(k int) {
		p := &parts[k]
		b := src[p.start:p.end]
		p.lines = bytes.Count(b, []byte{'\n'})
		if p.bad, p.what = scanText(b); p.bad >= 0 {
			p.bad += p.start
		}
	})
	line := 1
	for k := range parts {
		parts[k].firstLine = line
		line += parts[k].lines
	}
	return parts
}

// reportBytesPerLine and reportBaseBytes are about the memory a report takes at its peak
// (the end of the calculation): per ledger line, the transaction (288 bytes), the engine's
// disposals, matches and pool records; and, whatever the ledger's size, the program's own
// (the runtime, the rate tables, the writer's buffers). The generated ledgers of
// docs/performance.md peak at about 110 MB for 100,000 lines and 910 MB for a million. Before
// a large ledger is read, Parse has fresh.Reserve map this much in one go, when the program
// computes one report, and the collector is then held to about that memory. A ledger of
// mostly purchases uses less of it (its peak is then this figure, about 830 MB for a million
// lines); a report that needs more still gets it, page by page, with the collector running
// more often (fresh.Reserve). Without the base (832 bytes a line alone), the 100,000-line
// report reached the limit twice, once while calculating and once while writing, and each
// collection marked most of its heap.
const (
	reportBytesPerLine = 808
	reportBaseBytes    = 24 << 20
)

// capacity is the transactions the parts of src can hold between them.
func capacity(src []byte, parts []part) int {
	n := 0
	for _, p := range parts {
		n += p.capacity(src)
	}
	return n
}

// capacity bounds the transactions a part can hold: its line count, but never more than
// could fit in its bytes, so that a file of blank lines cannot make Parse reserve gigabytes.
// A part that ends with its last line's '\n' has no partial line to add.
func (p part) capacity(src []byte) int {
	lines := p.lines
	if p.end == len(src) && (p.end == p.start || src[p.end-1] != '\n') {
		lines++
	}
	return max(1, min(lines, (p.end-p.start)/minLineBytes+1))
}

// parseParts reads the parts at once, each into its own region of one slice, then closes the
// gaps left by blank and comment lines. The error reported is the first part's with one, so
// it is the error of the earliest bad line, as when reading line by line.
func parseParts(file string, src []byte, parts []part) ([]model.Transaction, error) {
	caps := make([]int, len(parts))
	total := 0
	for k, pt := range parts {
		caps[k] = pt.capacity(src)
		total += caps[k]
	}
	all := fresh.Slice[model.Transaction](total, runtime.GOMAXPROCS(0))
	got := make([][]model.Transaction, len(parts))
	errs := make([]*model.Error, len(parts))
	offs := make([]int, len(parts))
	for k := 1; k < len(parts); k++ {
		offs[k] = offs[k-1] + caps[k-1]
	}
	fanout.Share(runtime.GOMAXPROCS(0), len(parts), func(k int) {
		got[k], errs[k] = parsePart(file, src, parts[k], all[offs[k]:offs[k]:offs[k]+caps[k]])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return join(all, offs, got), nil
}

// join moves each part's transactions down to follow the previous part's, in all's storage;
// part k was read into the region of all that starts at offs[k]. A part that outgrew its
// region (it cannot, as capacity bounds the transactions a text can hold, but the check
// is cheap) was reallocated, and then the parts are joined in a new slice.
func join(all []model.Transaction, offs []int, got [][]model.Transaction) []model.Transaction {
	total := 0
	inPlace := true
	for k, g := range got {
		total += len(g)
		inPlace = inPlace && (len(g) == 0 || &g[0] == &all[offs[k]] && offs[k]+len(g) <= len(all) &&
			(k+1 == len(offs) || offs[k]+len(g) <= offs[k+1]))
	}
	if !inPlace {
		out := make([]model.Transaction, 0, total)
		for _, g := range got {
			out = append(out, g...)
		}
		return out
	}
	n := 0
	for _, g := range got {
		if len(g) > 0 && &g[0] != &all[n] { // a part right after a full region stays put
			copy(all[n:], g)
		}
		n += len(g)
	}
	clear(all[n:]) // the tail must not keep strings alive
	return all[:n:n]
}
