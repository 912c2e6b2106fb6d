package engine

// NearTickers are the names closest to name, as the engine's own "did you mean" finds them:
// within one edit (two for names of six letters or more), or sharing a prefix of at least
// three letters and half the shorter name (VWRL and VWRL.L); nearest first, at most three.
func NearTickers(name string, names []string) []string {
	held := make([]heldTicker, len(names))
	for i, n := range names {
		held[i] = heldTicker{name: n}
	}
	return nearTickers(name, held)
}
