package sources

import (
	"bytes"
	"testing"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/internal/ledgergen"
)

// BenchmarkCombineOneLedger is what combining costs a command given one large ledger.
func BenchmarkCombineOneLedger(b *testing.B) {
	var buf bytes.Buffer
	if err := ledgergen.Write(&buf, ledgergen.Options{Lines: 1_000_000, Tickers: 1000, Events: true, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	txns, err := dsl.Parse("big.cgt", buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		Combine([]Source{{File: "big.cgt", Transactions: txns}})
	}
}

// BenchmarkCombineTwoHalves is two large ledgers combined: every row looked up once.
func BenchmarkCombineTwoHalves(b *testing.B) {
	var buf bytes.Buffer
	if err := ledgergen.Write(&buf, ledgergen.Options{Lines: 1_000_000, Tickers: 1000, Events: true, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	txns, err := dsl.Parse("big.cgt", buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	half := len(txns) / 2
	b.ResetTimer()
	for range b.N {
		Combine([]Source{{File: "a.cgt", Transactions: txns[:half:half]}, {File: "b.cgt", Transactions: txns[half:]}})
	}
}
