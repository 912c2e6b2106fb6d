package imports

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr the first time it is used, not when the program starts: every
// command of the command line links the importers, and most runs read no export.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
