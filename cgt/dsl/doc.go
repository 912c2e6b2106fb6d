// Package dsl reads and writes ledgers: the line-based ledger language (docs/dsl-syntax.md), the
// JSON transaction form, and the canonical text form that Format writes. It does no I/O: callers
// pass the bytes they read, and every failure is a *model.Error carrying the file, line, column,
// the offending value, a hint and a valid example.
package dsl
