package envelope

import "reflect"

// plainStrings sends every list of strings to encoding/json in the browser module (see
// strings.go).
func plainStrings(reflect.Type) bool { return false }

func (s *streamer) appendStrings(b []byte, _ reflect.Value, _ int) []byte { return b }
