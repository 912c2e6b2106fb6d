// Package version says which cgt this is: the release it was built as, or, for a build from a
// source tree, the release it leads to and the commit.
package version

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// Release is the version this source tree releases as; the published contract (tools.json,
// openapi.json), the MCP bundle manifest and server.json carry it.
const Release = "0.1.0"

// stamped is set by a release build: go build -ldflags "-X github.com/cgt-tools/cgt/internal/version.stamped=0.1.0".
var stamped string

// pseudo matches a Go pseudo-version's timestamp and commit (v0.0.0-20261126161000-7b23921abcde).
var pseudo = regexp.MustCompile(`-(0\.)?\d{14}-[0-9a-f]{12}`)

// String is the version to print: the stamped one; else the module version of a
// `go install ...@vX.Y.Z`; else Release with "-dev" and the commit the binary was built from
// (".dirty" when the tree had changes), as Go records it in the binary.
func String() string {
	if stamped != "" {
		return stamped
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Release + "-dev"
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" && !pseudo.MatchString(v) && !strings.Contains(v, "+dirty") {
		return strings.TrimPrefix(v, "v")
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return Release + "-dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := Release + "-dev+" + rev
	if dirty {
		v += ".dirty"
	}
	return v
}
