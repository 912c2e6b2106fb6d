package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/internal/samples"
	"github.com/cgt-tools/cgt/registry"
)

// sharedSamples is the folder of broker export samples beside the repository.
const sharedSamples = "../../shared/broker-samples"

// For every sample in ../shared/broker-samples, the ledger transactions.import writes as text
// reads back (transactions.parse) to the transactions the import gave, and report.calculate on
// that ledger gives the same figures as report.calculate on the export itself.
func TestEverySharedSampleRoundTripsThroughItsImportedLedger(t *testing.T) {
	reg := testRegistry(t)
	deps := &registry.Deps{ReadFile: os.ReadFile, ReadDir: registry.OSReadDir}
	dir := t.TempDir()
	for _, path := range samples.Files(t, sharedSamples) {
		base := filepath.Base(path)
		t.Run(samples.Name(path), func(t *testing.T) {
			res, warnings, err := transactionsImport(context.Background(), deps, TransactionsImportArgs{Path: []string{path}})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			var text bytes.Buffer
			if err := res.WriteText(&text, warnings); err != nil {
				t.Fatal(err)
			}
			ledger := filepath.Join(dir, base+".cgt")
			if err := os.WriteFile(ledger, text.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			parsed := execute(t, reg, "transactions.parse", map[string]any{"path": []string{ledger}})
			var got struct {
				Data struct {
					Transactions []map[string]any `json:"transactions"`
				} `json:"data"`
			}
			if err := json.Unmarshal(parsed, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Data.Transactions) != len(res.Transactions) {
				t.Fatalf("imported %d transactions; the ledger written reads back as %d:\n%s\n%s", len(res.Transactions), len(got.Data.Transactions), parsed, text.String())
			}
			for i, want := range res.Transactions {
				w := comparable(t, want)
				g := got.Data.Transactions[i]
				delete(g, "source")
				delete(w, "name") // a comment in the ledger
				if !jsonEqual(t, w, g) {
					t.Errorf("transaction %d: imported %v, read back %v", i, w, g)
				}
			}
			fromExport := reportWithoutSources(t, execute(t, reg, "report.calculate", map[string]any{"path": []string{path}}), path)
			fromLedger := reportWithoutSources(t, execute(t, reg, "report.calculate", map[string]any{"path": []string{ledger}}), ledger)
			if fromExport != fromLedger {
				t.Errorf("report.calculate differs:\nexport: %.600s\nledger: %.600s", fromExport, fromLedger)
			}
		})
	}
}

func execute(t *testing.T, reg *registry.Registry, command string, args map[string]any) []byte {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return envelope.MarshalIndent(reg.Execute(context.Background(), command, raw))
}

func comparable(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "source")
	return m
}

func jsonEqual(t *testing.T, a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

var fileLine = regexp.MustCompile(`[^" ]*(\.csv|\.cgt|\.xml|\.json)(:\d+)?`)

// reportWithoutSources is a report envelope with what names the file read taken out: the
// sources of figures, the file and line in an error, and the warnings (an import's warnings
// name rows of the export).
func reportWithoutSources(t *testing.T, env []byte, file string) string {
	var m map[string]any
	if err := json.Unmarshal(env, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "warnings")
	if d, ok := m["data"].(map[string]any); ok {
		delete(d, "security_names") // names are comments in the ledger, as for transactions
	}
	strip(m)
	b, _ := json.Marshal(m)
	return fileLine.ReplaceAllString(strings.ReplaceAll(string(b), file, "FILE.cgt"), "FILE")
}

func strip(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "file")
		delete(x, "line")
		for _, e := range x {
			strip(e)
		}
	case []any:
		for _, e := range x {
			strip(e)
		}
	}
}

// A JSON ledger written on one line (commas in its first line) is read as a ledger, not
// refused as an unrecognised export.
func TestJSONLedgerOnOneLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.json")
	src := `[{"date":"2024-04-01","action":"BUY","ticker":"AAPL","quantity":"10","price":{"amount":"150","currency":"USD"}},` +
		`{"date":"2024-05-01","action":"SELL","ticker":"AAPL","quantity":"5","price":{"amount":"170","currency":"USD"}}]`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env := execute(t, testRegistry(t), "report.calculate", map[string]any{"path": []string{path}})
	var got struct {
		OK   bool `json:"ok"`
		Data struct {
			TaxYears []struct {
				DisposalCount int `json:"disposal_count"`
			} `json:"tax_years"`
		} `json:"data"`
	}
	if err := json.Unmarshal(env, &got); err != nil || !got.OK || len(got.Data.TaxYears) != 1 || got.Data.TaxYears[0].DisposalCount != 1 {
		t.Fatalf("%s", env)
	}
}
