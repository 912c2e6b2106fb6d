// Package bare is the floor tool-cli's throughput is compared with: a bare net/http JSON-RPC
// handler that decodes a callTool request and answers a fixed tool result. The in-process
// benchmark (BenchmarkPlainHTTPJSON) and the program loaded with wrk (barerpc) serve this one
// handler, so both ratios compare against the same work.
package bare

import (
	"encoding/json"
	"net/http"
)

// Handle decodes a JSON-RPC callTool request and encodes a fixed answer.
func Handle(w http.ResponseWriter, r *http.Request) {
	var req struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  struct {
			Server    string          `json:"server"`
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": req.ID,
		"result": map[string]any{"content": []map[string]string{{"type": "text", "text": "ok"}}},
	})
}
