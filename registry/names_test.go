package registry

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// The hand-written name checks accept exactly what the documented patterns accept.
func TestNameChecksMatchPatterns(t *testing.T) {
	cmdRe := regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$`)
	mcpRe := regexp.MustCompile(mcpNamePattern)
	names := []string{"", ".", "a.b", "fx.rate", "fx_rate", "Fx.rate", "fx.Rate", "1x.rate", "fx.1rate", "fx.rate.x",
		"fx.", ".rate", "a_1.b_2", "fx-rate", "fx rate", "é.b", strings.Repeat("a", 64), strings.Repeat("a", 65)}
	r := rand.New(rand.NewSource(1))
	const alphabet = "az09_.A-é"
	for i := 0; i < 5000; i++ {
		b := make([]rune, r.Intn(8))
		for j := range b {
			b[j] = []rune(alphabet)[r.Intn(len([]rune(alphabet)))]
		}
		names = append(names, string(b))
	}
	for _, n := range names {
		if got, want := isCommandName(n), cmdRe.MatchString(n); got != want {
			t.Errorf("isCommandName(%q) = %v, pattern says %v", n, got, want)
		}
		if got, want := isMCPName(n), mcpRe.MatchString(n); got != want {
			t.Errorf("isMCPName(%q) = %v, pattern says %v", n, got, want)
		}
	}
}
