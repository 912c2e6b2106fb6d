package sources

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

// TestPropertyDuplicateSourceChangesNothing: a ledger whose lines carry REFs (an imported
// ledger) combined with a copy of itself from a second source — whole, or shuffled, or only part of it (an overlapping export) — gives the
// same report as the ledger alone.
func TestPropertyDuplicateSourceChangesNothing(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		var buf bytes.Buffer
		if err := ledgergen.Write(&buf, ledgergen.Options{Lines: 500, Tickers: 4, Events: true, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		text := withRefs(buf.String())
		want := report(t, []Source{ledger(t, "a.cgt", text)})
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		rng := rand.New(rand.NewPCG(seed, 7))
		shuffled := append([]string(nil), lines...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		part := lines[rng.IntN(len(lines)/2) : len(lines)/2+rng.IntN(len(lines)/2)]
		copies := map[string]string{
			"whole":    text,
			"shuffled": strings.Join(shuffled, "\n") + "\n",
			"part":     strings.Join(part, "\n") + "\n",
		}
		for name, cp := range copies {
			for _, order := range [][2]string{{"a.cgt", "copy.cgt"}, {"copy.cgt", "a.cgt"}} {
				srcs := map[string]Source{"a.cgt": ledger(t, "a.cgt", text), "copy.cgt": ledger(t, "copy.cgt", cp)}
				got := report(t, []Source{srcs[order[0]], srcs[order[1]]})
				if got != want && order[0] == "a.cgt" {
					t.Fatalf("seed %d, copy %s: the report changed with a second source", seed, name)
				}
				if order[0] == "copy.cgt" && strings.ReplaceAll(got, "copy.cgt", "a.cgt") != want && name == "whole" {
					t.Fatalf("seed %d, copy %s first: the figures changed with a second source", seed, name)
				}
			}
		}
	}
}

// withRefs gives every line a REF of its own, as an imported ledger has: ledger lines are
// matched only by REF.
func withRefs(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "#") && l != "" {
			lines[i] = l + " REF L" + strconv.Itoa(i)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// report is the figures of a report on the sources (their warnings left out).
func report(t *testing.T, srcs []Source) string {
	t.Helper()
	txns, _ := Combine(srcs)
	rep, err := engine.Calculate(txns, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal([]any{rep.TaxYears, rep.Holdings, rep.Pools, rep.Excluded, rep.LossesCarriedForward})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPropertyOrderOfSourcesChangesNothing: a ledger cut into overlapping sources — lines
// with REFs given twice, hand lines without one, a copy of a part — gives the same figures in
// every order of the sources.
func TestPropertyOrderOfSourcesChangesNothing(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		var buf bytes.Buffer
		if err := ledgergen.Write(&buf, ledgergen.Options{Lines: 200, Tickers: 3, Events: true, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(withRefs(buf.String()), "\n"), "\n")
		rng := rand.New(rand.NewPCG(seed, 11))
		texts := make([]string, 4)
		for _, l := range lines {
			k := rng.IntN(3)
			if strings.Contains(l, " SPLIT ") {
				k = 0 // two sources' splits days apart would be one event (a rule of its own)
			}
			texts[k] += l + "\n"
			if rng.IntN(4) == 0 { // given again by the fourth source, with its REF
				texts[3] += l + "\n"
			}
		}
		names := []string{"a.cgt", "b.cgt", "c.cgt", "d.cgt"}
		var want string
		permutations(len(texts), func(order []int) {
			srcs := make([]Source, len(order))
			for i, o := range order {
				srcs[i] = ledger(t, names[o], texts[o])
			}
			got := report(t, srcs)
			if want == "" {
				want = got
			} else if got != want {
				t.Fatalf("seed %d, order %v: the figures changed with the order of the sources", seed, order)
			}
		})
	}
}
