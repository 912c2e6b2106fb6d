package engine

import (
	"math/rand/v2"
	"testing"

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
