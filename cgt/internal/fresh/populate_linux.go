//go:build linux

package fresh

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapForWriting maps the whole pages among the n bytes at p, ready for writing, with one
// madvise(MADV_POPULATE_WRITE) call: the kernel fills in the page table in one pass instead
// of taking a fault on each 4 KB page when the program first touches it. Pages already mapped
// are left as they are, so the memory's contents never change. It reports false when the
// kernel cannot (before Linux 5.14), and the caller then touches the pages itself.
func mapForWriting(p unsafe.Pointer, n uintptr) bool {
	skip := (pageSize - uintptr(p)%pageSize) % pageSize
	if n <= skip {
		return true
	}
	whole := (n - skip) &^ (pageSize - 1)
	if whole == 0 {
		return true
	}
	return unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, skip)), whole), unix.MADV_POPULATE_WRITE) == nil
}
