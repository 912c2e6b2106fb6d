package toolcli

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/internal/jsontext"
)

// requestKeys and paramKeys are the members readFast sets, in the order of its bit mask.
var (
	requestKeys = []string{"jsonrpc", "id", "method", "params"}
	paramKeys   = []string{"server", "tool", "arguments", "includeOutputSchema"}
)

// readFast reads the common request, a plain JSON object, without reflection: the result is
// what json.Unmarshal into a wellFormed gives. ok is false whenever it might not be (a
// member written twice, a key that only matches ignoring case, an escaped or non-ASCII
// key, a jsonrpc or method that is not a plain string, params that are not an object), and
// the request is then decoded the general way.
func readFast(body []byte) (w wellFormed, ok bool) {
	ok = knownMembers(body, requestKeys, func(i int, value []byte) (read bool) {
		switch i {
		case 0:
			w.JSONRPC, read = jsontext.PlainString(value)
		case 1:
			w.ID, read = bytes.Clone(value), true
		case 2:
			w.Method, read = jsontext.PlainString(value)
		case 3:
			w.Params, read = readParams(value)
		}
		return read
	})
	return w, ok
}

func readParams(value []byte) (p params, ok bool) {
	ok = knownMembers(value, paramKeys, func(i int, value []byte) bool {
		raw := bytes.Clone(value)
		switch i {
		case 0:
			p.Server = raw
		case 1:
			p.Tool = raw
		case 2:
			p.Arguments = raw
		case 3:
			p.IncludeOutputSchema = raw
		}
		return true
	})
	return p, ok
}

// knownMembers reads data as an object and gives set each member whose key is keys[i],
// ignoring the members encoding/json ignores too. It is false when data is not such an
// object, when set is, and when a key leaves the reading to encoding/json (memberIndex).
func knownMembers(data []byte, keys []string, set func(i int, value []byte) bool) bool {
	var seen uint8
	return jsontext.Object(data, func(key, value []byte) bool {
		i, known := memberIndex(key, keys, &seen)
		if !known {
			return i < 0
		}
		return set(i, value)
	})
}

// memberIndex finds key among keys, marking it in seen. known is false with i < 0 for a key
// encoding/json ignores too (so the fast read goes on), and false with i >= 0 for one the
// fast read leaves to encoding/json: written twice, matching only ignoring case (as
// encoding/json matches), or not ASCII (whose case folding is encoding/json's to decide).
func memberIndex(key []byte, keys []string, seen *uint8) (i int, known bool) {
	if !isASCII(key) {
		return 0, false
	}
	for i, k := range keys {
		switch {
		case string(key) == k:
			if *seen&(1<<i) != 0 {
				return i, false
			}
			*seen |= 1 << i
			return i, true
		case strings.EqualFold(string(key), k):
			return i, false
		}
	}
	return -1, false
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
