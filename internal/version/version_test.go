package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "7b23921abcdef0123456789"}, {Key: "vcs.modified", Value: "false"}}
	dirty := []debug.BuildSetting{{Key: "vcs.revision", Value: "7b23921abcdef0123456789"}, {Key: "vcs.modified", Value: "true"}}
	cases := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"go install at a tag", "v0.2.0", nil, "0.2.0"},
		{"go install of a pre-release", "v0.2.0-rc.1", nil, "0.2.0-rc.1"},
		{"go build in a clean checkout", "v0.0.0-20261126161000-7b23921abcde", rev, Release + "-dev+7b23921abcde"},
		{"go build after a tag", "v0.1.1-0.20261126161000-7b23921abcde", rev, Release + "-dev+7b23921abcde"},
		{"go build with changes", "v0.0.0-20261126161000-7b23921abcde+dirty", dirty, Release + "-dev+7b23921abcde.dirty"},
		{"no version control", "(devel)", nil, Release + "-dev"},
		{"test binary", "", nil, Release + "-dev"},
	}
	for _, c := range cases {
		bi := &debug.BuildInfo{Main: debug.Module{Version: c.version}, Settings: c.settings}
		if got := fromBuildInfo(bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestStampedWins(t *testing.T) {
	defer func(was string) { stamped = was }(stamped)
	stamped = "9.9.9"
	if String() != "9.9.9" {
		t.Errorf("String() = %q", String())
	}
}
