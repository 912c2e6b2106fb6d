//go:build !linux

package fresh

import "unsafe"

// mapForWriting is Linux's madvise(MADV_POPULATE_WRITE); elsewhere the caller touches the
// pages itself.
func mapForWriting(unsafe.Pointer, uintptr) bool { return false }
