package dsl

// row is one entry of a small lookup table.
type row[K comparable, V any] struct {
	key K
	val V
}

// tableMap builds a map from rows. The tables are kept as rows, which the compiler lays
// out as data, rather than as map literals: a literal of 25 entries or fewer compiles to one
// assignment after another, some 250 bytes of code each in the browser module.
func tableMap[K comparable, V any](rows []row[K, V]) map[K]V {
	m := make(map[K]V, len(rows))
	for _, r := range rows {
		m[r.key] = r.val
	}
	return m
}
