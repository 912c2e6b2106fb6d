package dsl

// Input is one ledger to read: its name (used in errors, sources and warnings) and its bytes.
type Input struct {
	File    string
	Content []byte
}
