package fx

import (
	"strings"
	"testing"
)

func TestReadFilesLeavesOutListedFilesThatAreNotRates(t *testing.T) {
	oct := cachedXML("2026-10", "1.3250")
	months, warnings, err := ReadFiles([]File{
		{Name: "dir/2026-10.xml", Data: []byte(oct), Listed: true},
		{Name: "dir/secret.xml", Data: []byte("<key>hunter2</key>"), Listed: true},
	})
	if err != nil || len(months) != 1 || len(warnings) != 1 || strings.Contains(warnings[0], "secret") {
		t.Fatalf("%v %q %v", months, warnings, err)
	}
	_, _, err = ReadFiles([]File{{Name: "secret.xml", Data: []byte("<key>hunter2</key>")}})
	if err == nil || !strings.Contains(err.Error(), "secret.xml") || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "<key>") {
		t.Fatalf("a named file that is not a rate file: %v", err)
	}
	_, _, err = ReadFiles([]File{{Name: "a.xml", Data: []byte(oct)}, {Name: "b.xml", Data: []byte(cachedXML("2026-10", "1.3301"))}})
	if err == nil || !strings.Contains(err.Error(), "both give 2026-10") {
		t.Fatalf("a month twice with different rates: %v", err)
	}
}

// FuzzReadFiles checks that a file is read, left out or refused, never a panic, and that an
// error about a file that is not an HMRC monthly file never quotes it.
func FuzzReadFiles(f *testing.F) {
	f.Add([]byte(cachedXML("2026-10", "1.3250")), true)
	f.Add([]byte("Period,Country,Currency\n"), false)
	f.Add([]byte("<exchangeRateMonthList Period=\"x\">"), false)
	f.Fuzz(func(t *testing.T, data []byte, listed bool) {
		months, _, err := ReadFiles([]File{{Name: "f.xml", Data: data, Listed: listed}})
		if err == nil && len(months) > 1 {
			t.Fatalf("one file gave %d months", len(months))
		}
		if err != nil && !IsMonthlyXML(data) {
			secret := strings.TrimSpace(string(data))
			if len(secret) >= 8 && strings.Contains(err.Error(), secret) {
				t.Fatalf("the error quotes a file that is not a rate file: %v", err)
			}
		}
	})
}
