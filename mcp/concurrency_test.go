package mcp_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// The stdio server handles requests concurrently: calls made at once from many goroutines
// each get exactly the answer the same call gets alone.
func TestConcurrentCallsGetTheirOwnAnswers(t *testing.T) {
	c := newClient(t)
	ledger := func(i int) string {
		return fmt.Sprintf("2024-04-01 BUY T%d 100 @ 10\n2024-06-20 SELL T%d %d @ 12", i, i, 10+i)
	}
	const n = 16
	alone := make([][]byte, n)
	for i := range n {
		alone[i] = call(t, c, "calculate_report", map[string]any{"cgt_content": ledger(i), "detail": "full"}).Data
	}
	together := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			together[i] = call(t, c, "calculate_report", map[string]any{"cgt_content": ledger(i), "detail": "full"}).Data
		}()
	}
	wg.Wait()
	for i := range n {
		if !bytes.Equal(alone[i], together[i]) || !bytes.Contains(alone[i], []byte(fmt.Sprintf(`"T%d"`, i))) {
			t.Errorf("call %d: concurrent answer differs from its answer alone (or names another ledger's ticker):\n%s\n%s", i, alone[i], together[i])
		}
	}
}
