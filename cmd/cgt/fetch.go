package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/cli"
)

// siblingFetch is fx.update's network: it runs the cgt-fetch program (next to cgt, or on PATH)
// for one URL and reads its answer, the HTTP status on the first line and the body after it.
// The HTTP client lives there so that cgt, started for every command, links none.
func siblingFetch(ctx context.Context, url string) (int, []byte, error) {
	path, err := cli.FindSibling("cgt-fetch")
	if err != nil {
		return 0, nil, errors.New("the cgt-fetch program, which fetches for cgt fx.update, is not installed next to cgt or on PATH " +
			"(install every cgt program: go install github.com/cgt-tools/cgt/cmd/...@latest, or make build)")
	}
	cmd := exec.CommandContext(ctx, path, url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return 0, nil, errors.New(msg)
		}
		return 0, nil, err
	}
	line, body, ok := bytes.Cut(out, []byte("\n"))
	status, perr := strconv.Atoi(string(line))
	if !ok || perr != nil {
		return 0, nil, fmt.Errorf("cgt-fetch (%s) answered without an HTTP status line", path)
	}
	return status, body, nil
}
