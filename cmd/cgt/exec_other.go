//go:build !unix

package main

// execProgram is nil where a process cannot be replaced: the sibling runs as a child.
var execProgram func(path string, argv, env []string) error
