//go:build unix

package regular

import "syscall"

// nonBlock opens without waiting: a FIFO that slipped past the check opens at once.
const nonBlock = syscall.O_NONBLOCK
