package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

// encodingJSON is the reference the hand-written writers must reproduce: encoding/json with
// the envelope writer's settings, indented from level or compact.
func encodingJSON(t *testing.T, v any, level int, indent bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent(strings.Repeat("  ", level), "  ")
	}
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	// Go 1.27's encoding/json writes a byte of invalid UTF-8 as a literal U+FFFD, 1.26's as
	// \ufffd (the writers' choice): the same JSON string.
	return strings.ReplaceAll(strings.TrimSuffix(buf.String(), "\n"), "\uFFFD", `\ufffd`)
}

// encodeReports are reports with every kind of row: generated ledgers with every event, with
// splits and capital returns, and with trades in US dollars (original lines with their FX
// rate); file names with characters JSON escapes.
func encodeReports(t *testing.T) []*Report {
	var out []*Report
	for i, g := range eventLedgers()[:10] {
		for j := range g.txns {
			if j%7 == 0 {
				g.txns[j].Source.File = []string{"a<b>&c.cgt", "tab\there.cgt", "ok.cgt", "line\u2028sep.cgt", "bad\xffutf8.cgt"}[(i+j)%5]
			}
		}
		out = append(out, calculateOrFail(t, g.txns))
	}
	for seed := uint64(1); seed <= 5; seed++ {
		out = append(out, calculateOrFail(t, generateLedger(genOptions{n: 600, tickers: 4, events: true, seed: seed})))
		var src bytes.Buffer
		if err := ledgergen.Write(&src, ledgergen.Options{Lines: 2000, Tickers: 20, USDPercent: 30, Events: true, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		txns, err := dsl.Parse("gen & <usd>.cgt", src.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, calculateOrFail(t, txns))
	}
	return out
}

func calculateOrFail(t *testing.T, txns []model.Transaction) *Report {
	t.Helper()
	rep, err := Calculate(txns, Options{Rates: fx.Embedded()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	type appender interface {
		AppendJSON(b []byte, level int, indent bool) []byte
	}
	check := func(t *testing.T, what string, v appender) {
		t.Helper()
		for _, c := range []struct {
			level  int
			indent bool
		}{{0, false}, {0, true}, {3, true}, {14, true}, {16, true}} { // 14, 16: keys written whole, and past the levels they are kept for
			want := encodingJSON(t, v, c.level, c.indent)
			if got := string(v.AppendJSON([]byte("x"), c.level, c.indent)); got != "x"+want {
				t.Fatalf("%s (level %d, indent %v):\ngot  %s\nwant %s", what, c.level, c.indent, got[1:], want)
			}
		}
	}
	var rows, withSteps, original int
	for _, rep := range encodeReports(t) {
		for _, d := range allDisposals(rep) {
			check(t, "disposal", &d)
			rows++
			for k := range d.Matches {
				check(t, "match", &d.Matches[k])
			}
			if len(d.Original) > 0 {
				original++
			}
			// a match whose steps were set (WriteSteps) writes them as they are
			if len(d.Matches) > 0 {
				d.Matches = append([]Match(nil), d.Matches...)
				d.Matches[0].Steps = append(d.Matches[0].Explain(), "<&> \x01 \"quoted\"")
				check(t, "disposal with steps set", &d)
				withSteps++
			}
		}
		for _, p := range rep.Pools {
			for k := range p.Events {
				check(t, "pool event", &p.Events[k])
			}
		}
		for k := range rep.Holdings {
			check(t, "holding", &rep.Holdings[k])
		}
		for k := range rep.Excluded {
			check(t, "excluded", &rep.Excluded[k])
		}
	}
	if rows < 1000 || withSteps == 0 || original == 0 {
		t.Fatalf("too few rows compared: %d disposals, %d with steps set, %d with original lines", rows, withSteps, original)
	}
	// empty and nil lists, an empty source
	check(t, "empty disposal", &Disposal{})
	check(t, "disposal with empty lists", &Disposal{Rules: []string{}, Sources: []SourceRef{}, Matches: []Match{}, Adjustments: []Adjustment{}, Original: []TradeLine{}})
	check(t, "bare match", &Match{})
}

// TestMatchJSONIsNotHTMLEscaped pins that a match is written like every other value of the
// report: a ledger named "M&G <x>.cgt" reads the same inside a match's sources as elsewhere.
func TestMatchJSONIsNotHTMLEscaped(t *testing.T) {
	m := Match{Rule: "same_day", Sources: []SourceRef{{File: "M&G <x>.cgt", Line: 2}}}
	// encodingJSON is the envelope's encoder: it keeps MarshalJSON's bytes as they are
	for _, got := range [][]byte{m.AppendJSON(nil, 0, false), []byte(encodingJSON(t, m, 0, false))} {
		if !bytes.Contains(got, []byte(`"file":"M&G <x>.cgt"`)) {
			t.Errorf("match JSON escapes the file name: %s", got)
		}
	}
}

// TestMembersAreNamed: every memberKey has a name of its own, so a key added to the list
// without one cannot write "": into a report.
func TestMembersAreNamed(t *testing.T) {
	seen := map[string]bool{}
	for k := range memberKeys {
		name := members[k].name
		if name == "" || seen[name] {
			t.Errorf("member %d: name %q (empty or given twice)", k, name)
		}
		seen[name] = true
	}
}
