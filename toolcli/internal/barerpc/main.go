// Command barerpc is the floor tool-cli's throughput is compared with (make bench-toolcli,
// docs/performance.md): a bare net/http JSON-RPC handler that decodes a callTool request and
// answers a fixed tool result, on 127.0.0.1:PORT. Load it with the same wrk script as
// `cgt serve`.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"strconv"
)

func main() {
	port := flag.Int("port", 7180, "port on 127.0.0.1")
	flag.Parse()
	log.Fatal(http.ListenAndServe("127.0.0.1:"+strconv.Itoa(*port), http.HandlerFunc(handle)))
}

// handle is the bare handler of toolcli's BenchmarkPlainHTTPJSON: decode the request, encode
// an answer.
func handle(w http.ResponseWriter, r *http.Request) {
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
