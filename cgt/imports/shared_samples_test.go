package imports

import (
	"os"
	"testing"

	"github.com/cgt-tools/cgt/internal/samples"
)

// sharedSamples is the folder of broker export samples beside the repository.
const sharedSamples = "../../../shared/broker-samples"

// Every export sample in ../shared/broker-samples, of every broker, is recognised from its
// content and read with every row accounted for. The samples stay outside the repository (the
// importers' own tests run on copies kept with their SOURCE notes); this test reads them where
// they are, skipping when they are absent and failing then in CI.
func TestEverySharedSampleIsRecognisedAndAccountedFor(t *testing.T) {
	for _, path := range samples.Files(t, sharedSamples) {
		t.Run(samples.Name(path), func(t *testing.T) {
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
			checkWritesData(t, imp.Transactions)
			t.Logf("%s: %d rows, %d imported, %d skipped, %d warnings", im.Name, r.Rows, r.Imported, len(r.Skipped), len(imp.Warnings))
		})
	}
}
