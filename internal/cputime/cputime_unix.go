//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks that report it
// beside wall time and tests that bound the work a call does.
package cputime

import (
	"syscall"
	"time"
)

// Used is the user plus system time the process has used, all threads; 0 if it cannot be read.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
