//go:build !unix

// Package cputime reads the CPU time the process has used, for benchmarks that report it
// beside wall time and tests that bound the work a call does.
package cputime

import "time"

var started = time.Now()

// Used is, where the process's CPU time cannot be read (WebAssembly, Windows), the time since
// the program started: a bound on one thread's CPU time.
func Used() time.Duration { return time.Since(started) }
