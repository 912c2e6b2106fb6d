package engine

import "github.com/cgt-tools/cgt/cgt/internal/fresh"

// TuneMemoryForOneReport tells the ledger reader and the engine that the process computes one
// report and exits, so they may take two process-wide measures for large ledgers (tens of
// thousands of lines and more): hold the garbage collector off for the fraction of a second
// in which they allocate an array of 16 MB or more, and, on Linux, map the memory the report
// will need in one call before reading the ledger, instead of one page fault per 4 KB page,
// and hold the collector to that memory (a soft limit, debug.SetMemoryLimit, unless GOMEMLIMIT
// sets one), the collector then running at that limit only rather than each time the heap
// doubles (GOGC=off, unless GOGC is given).
// Measured on a 2-core virtual machine, a million-line JSON report took 4.8–5.6 s without
// the second and 3.3–3.4 s with it (docs/performance.md, step 5). It is off by default
// because both are process-wide (the collector's setting, memory kept until the process
// ends); the command line's main turns it on, the servers do not.
func TuneMemoryForOneReport(on bool) { fresh.SetPause(on) }

// ReportComputed tells the engine, in a program that computes one report
// (TuneMemoryForOneReport), that the report is computed and is about to be written: the
// ledger's transactions are garbage by then, and one collection now costs a fraction of one
// made while they were live, and leaves room for the writing; the memory it frees goes back
// to the system, for the file the report is written to (fresh.Collect). Elsewhere, and for
// a small ledger, it does nothing.
func ReportComputed() { fresh.Collect() }
