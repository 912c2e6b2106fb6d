package engine

import "strconv"

// String writes the reference as it is cited: file:line, or file[index] for a JSON array
// (input or transactions without a file).
func (s SourceRef) String() string {
	switch {
	case s.Line > 0:
		file := s.File
		if file == "" {
			file = "input"
		}
		return file + ":" + strconv.Itoa(s.Line)
	case s.Index != nil:
		file := s.File
		if file == "" {
			file = "transactions"
		}
		return file + "[" + strconv.Itoa(*s.Index) + "]"
	}
	return s.File
}
