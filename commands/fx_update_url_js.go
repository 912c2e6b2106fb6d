//go:build js

package commands

import "strings"

// isFolderURL is a plain reading of the command line's check (fx_update_url.go), without
// net/url: the browser module never fetches (fx.update refuses there before base_url is read),
// and net/url with net/netip is 13 KB of the module gzipped. It accepts an http(s) URL with a
// host and no query or fragment.
func isFolderURL(s string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(s), "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(strings.ToLower(s), "http://"); !ok {
			return false
		}
	}
	host, _, _ := strings.Cut(rest, "/")
	return host != "" && !strings.ContainsAny(s, "?# \t\n")
}
