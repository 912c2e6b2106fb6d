package imports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedSamples is the folder of broker export samples beside the repository.
const sharedSamples = "../../../shared/broker-samples"

// Every export sample in ../shared/broker-samples, of every broker, is recognised from its
// content and read with every row accounted for. The samples stay outside the repository (the
// importers' own tests run on copies kept with their SOURCE notes); this test reads them where
// they are, skipping when they are absent and failing then in CI.
func TestEverySharedSampleIsRecognisedAndAccountedFor(t *testing.T) {
	if _, err := os.Stat(sharedSamples); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI runs with ../shared beside the repository", sharedSamples)
		}
		t.Skipf("%s is absent: nothing to check", sharedSamples)
	}
	files, _ := filepath.Glob(filepath.Join(sharedSamples, "*", "*"))
	n := 0
	for _, path := range files {
		base := filepath.Base(path)
		if base == "SOURCE.txt" || strings.HasSuffix(base, ".md") {
			continue
		}
		n++
		t.Run(filepath.Base(filepath.Dir(path))+"/"+base, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			im := Detect(src)
			if im == nil {
				t.Fatalf("not recognised by any importer")
			}
			imp, err := Read(path, src, Options{})
			if err != nil {
				t.Fatalf("%s: %v", im.Name, err)
			}
			r := imp.Report
			if r.Rows == 0 || r.Imported+len(r.Skipped) != r.Rows {
				t.Errorf("%s: %d rows, %d imported + %d skipped", im.Name, r.Rows, r.Imported, len(r.Skipped))
			}
			t.Logf("%s: %d rows, %d imported, %d skipped, %d warnings", im.Name, r.Rows, r.Imported, len(r.Skipped), len(imp.Warnings))
		})
	}
	if n == 0 {
		t.Fatalf("no samples found under %s", sharedSamples)
	}
}
