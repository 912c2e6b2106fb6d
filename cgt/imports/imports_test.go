package imports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/golden"
)

// runSamples reads every sample in testdata/<dir>/ (SOURCE.txt gives their origin and
// licence), checks that it is detected by content as broker with every row accounted for,
// and compares the whole import with <sample>.golden.
func runSamples(t *testing.T, dir, broker string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
	n := 0
	for _, f := range files {
		base := filepath.Base(f)
		if base == "SOURCE.txt" || strings.HasSuffix(base, ".golden") {
			continue
		}
		n++
		t.Run(base, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			im := Detect(src)
			if im == nil || im.Name != broker {
				t.Fatalf("detected as %v, want %s", im, broker)
			}
			imp, err := Read(base, src, Options{})
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			checkAccounted(t, imp)
			compareGolden(t, f+".golden", describe(imp))
		})
	}
	if n == 0 {
		t.Fatalf("no samples in testdata/%s", dir)
	}
	if _, err := os.Stat(filepath.Join("testdata", dir, "SOURCE.txt")); err != nil {
		t.Errorf("testdata/%s has no SOURCE.txt beside its samples", dir)
	}
}

// checkAccounted asserts that every row has one outcome.
func checkAccounted(t *testing.T, imp *Import) {
	t.Helper()
	r := imp.Report
	if r.Imported+len(r.Skipped) != r.Rows {
		t.Errorf("rows %d != imported %d + skipped %d", r.Rows, r.Imported, len(r.Skipped))
	}
	for _, w := range imp.Warnings {
		if strings.Contains(w, "accounted for") {
			t.Error(w)
		}
	}
}

// describe renders an import for a golden file: the report, one line per transaction with
// every field set, and the warnings.
func describe(imp *Import) []byte {
	var b bytes.Buffer
	rep, _ := json.MarshalIndent(imp.Report, "", "  ")
	b.Write(rep)
	b.WriteString("\n\ntransactions:\n")
	for _, tx := range imp.Transactions {
		b.WriteString(txLine(tx) + "\n")
	}
	b.WriteString("\nwarnings:\n")
	for _, w := range imp.Warnings {
		b.WriteString(w + "\n")
	}
	return b.Bytes()
}

func txLine(t model.Transaction) string {
	parts := []string{t.Date.String(), string(t.Action), t.Ticker}
	if !t.Quantity.IsZero() {
		parts = append(parts, "qty="+scaled(t.Quantity))
	}
	for _, a := range []struct {
		k string
		v model.Amount
	}{{"price", t.Price}, {"total", t.Total}, {"fees", t.Fees}, {"tax", t.Tax()}, {"cost", t.Cost()}} {
		if !a.v.IsZero() {
			parts = append(parts, a.k+"="+scaled(a.v.Value)+" "+a.v.Currency)
		}
	}
	if !t.Ratio().IsZero() {
		parts = append(parts, "ratio="+scaled(t.Ratio()))
	}
	for _, kv := range [][2]string{{"account", t.Account}, {"isin", t.ISIN}, {"name", t.Name}, {"ref", t.BrokerRef}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(parts, " ") + fmt.Sprintf(" (row %d)", t.Source.Line)
}

// compareGolden is the project's golden check (internal/golden): a missing golden fails,
// UPDATE_GOLDEN=1 writes it.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Check(t, path, got)
}

// readString imports inline content with the named importer forced.
func readString(t *testing.T, broker, content string) *Import {
	t.Helper()
	imp, err := Read("test.csv", []byte(content), Options{Broker: broker})
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	checkAccounted(t, imp)
	return imp
}

func lines(imp *Import) []string {
	var out []string
	for _, tx := range imp.Transactions {
		out = append(out, txLine(tx))
	}
	return out
}

func TestUnrecognisedFileListsFormatsAndQuotesNothing(t *testing.T) {
	cases := map[string]string{
		"notes.csv":    "Foo,Bar,SECRET\n1,2,3\n",
		"conf.json":    `{"SECRET_TOKEN": "x"}`,
		"config.xml":   "<SECRETROOT><a>1</a></SECRETROOT>",
		"accounts.csv": "bob,SECRET,admin\n",
	}
	for name, text := range cases {
		_, err := Read(name, []byte(text), Options{})
		me, ok := err.(*model.Error)
		if !ok || me.Code != model.CodeParse {
			t.Fatalf("%s: err = %v", name, err)
		}
		if !strings.Contains(me.Message, name) || !strings.Contains(me.Hint, "trading212") {
			t.Errorf("%s: error %q does not name the file and the known formats", name, me.Message)
		}
		if all := fmt.Sprintf("%s %s %v %v", me.Message, me.Value, me.Context, me.Examples); strings.Contains(all, "SECRET") {
			t.Errorf("%s: the error quotes the file: %s", name, all)
		}
	}
}

func TestUnknownBrokerName(t *testing.T) {
	_, err := Read("x.csv", []byte("a"), Options{Broker: "trading213"})
	if me, ok := err.(*model.Error); !ok || me.Code != model.CodeInvalidArgument {
		t.Fatalf("err = %v", err)
	}
}

func TestLedgerIsNotDetected(t *testing.T) {
	for _, src := range []string{"2024-04-01 BUY AAPL 100 @ 150.00 USD\n", "# comment\n", `[{"date":"2024-04-01"}]`, ""} {
		if im := Detect([]byte(src)); im != nil {
			t.Errorf("%q detected as %s", src, im.Name)
		}
	}
}

func TestParseNumber(t *testing.T) {
	cases := []struct {
		in    string
		style numberStyle
		want  string
		ok    bool
	}{
		{"12.50", plainNumber, "12.5", true},
		{"-0.0000000001", plainNumber, "-0.0000000001", true},
		{".9232", plainNumber, "0.9232", true},
		{"1,234.56", plainNumber, "", false},
		{"1,234.56", moneyNumber, "1234.56", true},
		{"-$1,234.56", moneyNumber, "-1234.56", true},
		{"$-3", moneyNumber, "-3", true},
		{"(12.50)", moneyNumber, "-12.5", true},
		{"£1,000", moneyNumber, "1000", true},
		{"12,34", moneyNumber, "", false},
		{"1e5", plainNumber, "", false},
		{"abc", moneyNumber, "", false},
		{"123456789012345678901234.5", plainNumber, "123456789012345678901234.5", true},
	}
	for _, c := range cases {
		got, ok := parseNumber(c.in, c.style)
		if ok != c.ok || (ok && got.String() != c.want) {
			t.Errorf("parseNumber(%q) = %s, %v; want %s, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// scaled writes a decimal at the scale it was read with (12.50 stays 12.50).
func scaled(d model.Decimal) string {
	e := d.Exact()
	if e.Exponent() < 0 {
		return e.StringFixed(-e.Exponent())
	}
	return e.String()
}

func TestFromWindows1252(t *testing.T) {
	in := []byte{'P', 'r', 'i', 'c', 'e', ' ', 0xA3, '5', ' ', 0x80, '3', ' ', 0x93, 'x', 0x94, ' ', 0x81, ' ', 0xE9}
	want := "Price £5 €3 “x” \uFFFD é"
	if got := string(fromWindows1252(in)); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Every importer names its broker and its page in the documentation site, from which the
// README's list of formats and the brokers overview are generated.
func TestEveryImporterHasItsPage(t *testing.T) {
	for _, im := range All() {
		if im.Name == "" || im.Title == "" || im.Broker == "" || im.Page == "" || im.Signature == "" {
			t.Errorf("%s: name, title, broker, page and signature are all needed: %+v", im.Name, im)
			continue
		}
		if _, err := os.Stat("../../docs-site/src/content/docs/guides/brokers/" + im.Page + ".md"); err != nil {
			t.Errorf("%s: no page %s.md in the documentation site's brokers guide", im.Name, im.Page)
		}
	}
}
