// Command barerpc is the floor tool-cli's throughput is compared with (make bench-toolcli,
// docs/performance.md): a bare net/http JSON-RPC handler that decodes a callTool request and
// answers a fixed tool result, on 127.0.0.1:PORT. Load it with the same wrk script as
// `cgt serve`.
package main

import (
	"flag"
	"log"
	"net/http"
	"strconv"

	"github.com/cgt-tools/cgt/toolcli/internal/bare"
)

func main() {
	port := flag.Int("port", 7180, "port on 127.0.0.1")
	flag.Parse()
	log.Fatal(http.ListenAndServe("127.0.0.1:"+strconv.Itoa(*port), http.HandlerFunc(bare.Handle)))
}
