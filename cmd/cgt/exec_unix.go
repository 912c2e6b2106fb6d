//go:build unix

package main

import "syscall"

// execProgram replaces this process with a sibling program (cgt mcp, serve, tool, gen).
var execProgram = syscall.Exec
