package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/cgt-tools/cgt/internal/webapp"
)

func main() {
	b, _ := os.ReadFile(os.Args[1])
	for i := 0; i < 2; i++ {
		t := time.Now()
		r := webapp.Run(webapp.Request{Command: "report.calculate", Args: json.RawMessage(`{"path":["x"],"detail":"disposals"}`), Render: []string{"json"}, Files: []webapp.File{{Name: "x", Content: b}}})
		t1 := time.Now()
		r2 := webapp.Run(webapp.Request{Command: "report.calculate", Args: json.RawMessage(`{"path":["x"]}`), Render: []string{"html"}, Files: []webapp.File{{Name: "x", Content: b}}})
		fmt.Println("figures", t1.Sub(t), len(r.Envelope), "page", time.Since(t1), len(r2.HTML))
	}
}
