// Command cgt-fetch fetches one URL for `cgt fx.update`: it writes the HTTP status on the
// first line of standard output and the body after it. It lives beside cgt so that the
// command line, run for every other command, links no HTTP client.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/cgt-tools/cgt/internal/version"
	"github.com/cgt-tools/cgt/ratecache/httpfetch"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: cgt-fetch URL   (run by cgt fx.update)")
		os.Exit(2)
	}
	status, body, err := httpfetch.Fetcher(httpfetch.Timeout, "cgt/"+version.String())(context.Background(), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.WriteString(strconv.Itoa(status) + "\n")
	os.Stdout.Write(body)
}
