package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/cgt-tools/cgt/internal/webapp"
)

func both(b []byte) (time.Duration, time.Duration) {
	t := time.Now()
	webapp.Run(webapp.Request{Command: "report.calculate", Args: json.RawMessage(`{"path":["x"],"detail":"disposals"}`), Render: []string{"json"}, Files: []webapp.File{{Name: "x", Content: b}}})
	t1 := time.Now()
	webapp.Run(webapp.Request{Command: "report.calculate", Args: json.RawMessage(`{"path":["x"]}`), Render: []string{"html"}, Files: []webapp.File{{Name: "x", Content: b}}})
	webapp.Run(webapp.Request{Command: "transactions.import", Args: json.RawMessage(`{"path":["x"]}`), Files: []webapp.File{{Name: "x", Content: b}}})
	return t1.Sub(t), time.Since(t1)
}

func main() {
	b, _ := os.ReadFile(os.Args[1])
	if len(os.Args) > 2 {
		ex, _ := os.ReadFile(os.Args[2])
		t := time.Now()
		both(ex)
		fmt.Println("warm-up", time.Since(t))
	}
	for i := 0; i < 2; i++ {
		f, p := both(b)
		fmt.Println("figures", f, "page", p)
	}
}
