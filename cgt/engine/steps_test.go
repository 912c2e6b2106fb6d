package engine

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/internal/wide/widetest"
	"github.com/cgt-tools/cgt/cgt/model"
)

func TestIsOne(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"1", true}, {"1.0", true}, {"1.000000", true},
		{"", false}, {"0", false}, {"10", false}, {"1.01", false}, {"-1", false},
		{"0.1", false}, {"1.", true}, {"11", false}, {"100", false},
	} {
		if got := isOne([]byte(c.s)); got != c.want {
			t.Errorf("isOne(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// "1 share" is written for every representation of one, as the numeric comparison did.
func TestSharesOfOne(t *testing.T) {
	for _, s := range []string{"1", "1.0", "1.00000000"} {
		if got := shares(model.DecimalFromString(s)); got != "1 share" {
			t.Errorf("shares(%s) = %q", s, got)
		}
	}
	if got := shares(model.DecimalFromString("1.5")); got != "1.5 shares" {
		t.Errorf("shares(1.5) = %q", got)
	}
}

// The figures a row remembers are what formatting each value afresh gives, however many
// values pass through (more than its slots), in whatever order, with repeats.
func TestFiguresMatchFreshFormatting(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var f figures
	pool := make([]model.Money, 40)
	qty := make([]model.Decimal, 40)
	for i := range pool {
		pool[i] = model.NewMoney(widetest.Decimal(rng, -12, 3))
		qty[i] = model.NewDecimal(widetest.Decimal(rng, -12, 3))
	}
	for round := range 20000 {
		if round%50 == 0 {
			f.forget()
		}
		m, d := pool[rng.IntN(len(pool))], qty[rng.IntN(len(qty))]
		if got, want := string(f.moneyDigits(m)), string(m.AppendString(nil)); got != want {
			t.Fatalf("round %d: money %s remembered as %q", round, want, got)
		}
		if got, want := string(f.qtyDigits(d)), string(d.AppendString(nil)); got != want {
			t.Fatalf("round %d: quantity %s remembered as %q", round, want, got)
		}
	}
}

// Every equation the steps show adds up as written: "gain = £P − £F − £C = £G" with the
// figures shown, and "N shares × £T ÷ M shares = £R" rounded to the penny.
func TestStepsAddUpAsWritten(t *testing.T) {
	var reps []*Report
	for _, seed := range []uint64{1, 2, 3, 4} {
		rep, err := Calculate(generateLedger(genOptions{n: 400, tickers: 5, events: true, seed: seed}), Options{})
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	if _, err := os.Stat(fixtureDir); err == nil {
		for _, name := range []string{"RealisticMultiYear", "SyntheticComplex"} {
			if _, err := os.Stat(filepath.Join(fixtureDir, name+".cgt")); err == nil {
				reps = append(reps, calculateFixture(t, name))
			}
		}
	}
	amount := func(s string) decimal.Decimal {
		s = strings.NewReplacer("£", "", ",", "", " shares", "", " share", "", "−", "-").Replace(strings.TrimSpace(s))
		d, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatalf("%q is not a figure", s)
		}
		return d
	}
	lines := 0
	for _, rep := range reps {
		for _, ty := range rep.TaxYears {
			for _, d := range ty.Disposals {
				for _, m := range d.Matches {
					for _, l := range m.Explain() {
						l, _, _ = strings.Cut(l, " (")
						head, rest, ok := strings.Cut(l, " = ")
						if !ok || !strings.Contains(rest, " = ") {
							continue
						}
						expr, result, _ := strings.Cut(rest, " = ")
						want := amount(result)
						var got decimal.Decimal
						if head == "gain" {
							terms := strings.Split(expr, " − ")
							got = amount(terms[0])
							for _, x := range terms[1:] {
								got = got.Sub(amount(x))
							}
						} else {
							a, b, _ := strings.Cut(expr, " × ")
							b, c, _ := strings.Cut(b, " ÷ ")
							got = amount(a).Mul(amount(b)).DivRound(amount(c), 2)
						}
						lines++
						if !got.Equal(want) {
							t.Errorf("%s %s: %q: the figures shown make %s", d.Ticker, d.Date, l, got)
						}
					}
				}
			}
		}
	}
	if lines == 0 {
		t.Fatal("no equations checked")
	}
}

// A loss is the same whole pounds in every SA108 box and year, rounded up: £54.90 is 55 in
// box 27 and box 47, and 55 in the next year's box 45 when it is used then.
func TestSA108LossBoxesRoundUpAlike(t *testing.T) {
	rep, err := Calculate(parseLedger(t, `2024-05-01 BUY X 10 @ 10.00
2024-06-03 SELL X 10 @ 4.51
2025-05-01 BUY Y 100 @ 10.00
2025-06-02 SELL Y 100 @ 41.00
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	box := func(ty TaxYear, n string) string {
		for _, b := range ty.SA108.Boxes {
			if b.Box == n {
				return b.Value
			}
		}
		return ""
	}
	y1, y2 := rep.TaxYears[0], rep.TaxYears[1]
	if box(y1, "27") != "55" || box(y1, "47") != "55" || box(y2, "45") != "55" || box(y2, "47") != "0" {
		t.Errorf("boxes 27 %s, 47 %s, next year's 45 %s and 47 %s; want 55, 55, 55, 0",
			box(y1, "27"), box(y1, "47"), box(y2, "45"), box(y2, "47"))
	}
}
