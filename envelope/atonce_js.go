package envelope

import "reflect"

// elementsAtOnce leaves every array to the one-by-one loop: the browser module runs on one
// thread (see atonce.go).
func (s *streamer) elementsAtOnce(reflect.Value, int, int) bool { return false }
