//go:build linux

package fresh

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// After mapForWriting every whole page of the range is resident, without the program having
// touched one: mincore reports what the kernel mapped.
func TestMapForWritingMapsEveryPage(t *testing.T) {
	const pages = 64
	mem, err := unix.Mmap(-1, 0, pages*int(pageSize), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	resident := func() int {
		vec := make([]byte, pages)
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0])))
		if errno != 0 {
			t.Fatal(errno)
		}
		n := 0
		for _, v := range vec {
			n += int(v & 1)
		}
		return n
	}
	if n := resident(); n != 0 {
		t.Fatalf("%d pages resident before", n)
	}
	if !mapForWriting(unsafe.Pointer(&mem[0]), uintptr(len(mem))) {
		t.Skip("this kernel cannot map in bulk (Linux before 5.14); Slice and Reserve fall back to touching pages")
	}
	if n := resident(); n != pages {
		t.Errorf("%d of %d pages resident after mapForWriting", n, pages)
	}
}
