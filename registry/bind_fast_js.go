//go:build js

package registry

// plainObject leaves every arguments object to encoding/json in the browser module, which
// reads one per action of the person using the page: the fast path of the servers
// (bind_fast.go) would cost the module more than it saves there.
func plainObject([]byte) (map[string]any, bool) { return nil, false }
