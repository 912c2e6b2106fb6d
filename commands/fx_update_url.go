//go:build !js

package commands

import "net/url"

// isFolderURL reports whether s is an http(s) URL with a host and no query or fragment.
func isFolderURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.RawQuery == "" && u.Fragment == ""
}
