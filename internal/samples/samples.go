// Package samples finds the broker export samples kept beside the repository
// (../shared/broker-samples), for the tests that run over all of them.
package samples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files lists the export samples under dir (one folder per broker), leaving out each folder's
// SOURCE.txt and the notes. When dir is absent the test is skipped, or fails when CI=true (CI
// runs with ../shared beside the repository); an empty dir fails.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI runs with ../shared beside the repository", dir)
		}
		t.Skipf("%s is absent: nothing to check", dir)
	}
	all, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	var files []string
	for _, path := range all {
		base := filepath.Base(path)
		if base == "SOURCE.txt" || strings.HasSuffix(base, ".md") {
			continue
		}
		files = append(files, path)
	}
	if len(files) == 0 {
		t.Fatalf("no samples found under %s", dir)
	}
	return files
}

// Name is how a test names a sample: its broker folder and file name.
func Name(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
}
