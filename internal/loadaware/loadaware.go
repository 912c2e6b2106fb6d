// Package loadaware scales the time bounds of tests with how busy the machine is, so a test
// that asserts "within a second" checks the behaviour (the work stops, the call is refused at
// once) rather than the machine: on a machine running twice as many runnable tasks as it has
// CPUs, a second becomes two.
package loadaware

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Bound is d scaled by the machine's load: d times the one-minute load average per CPU, never
// less than d. Where the load cannot be read (not Linux), it is d.
func Bound(d time.Duration) time.Duration {
	f := perCPU()
	if f <= 1 {
		return d
	}
	return time.Duration(float64(d) * f)
}

// perCPU is the one-minute load average over the number of CPUs, 0 when unknown.
func perCPU() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), " ")
	load, err := strconv.ParseFloat(first, 64)
	if err != nil {
		return 0
	}
	return load / float64(runtime.NumCPU())
}
