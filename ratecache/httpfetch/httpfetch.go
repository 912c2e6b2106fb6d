// Package httpfetch is the HTTP GET behind cgt fx.update (run by the cgt-fetch program and
// by tests): one request, its status and a bounded body, within a timeout.
package httpfetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxBody bounds a fetched file; HMRC's monthly files are about 40 KB.
const maxBody = 4 << 20

// Timeout bounds each request of fx.update, connection to last byte.
const Timeout = 30 * time.Second

// Fetcher returns the GET that fx.update uses: one request, the status and at most 4 MiB of
// body (more is an error), within timeout.
func Fetcher(timeout time.Duration, userAgent string) func(ctx context.Context, url string) (int, []byte, error) {
	client := &http.Client{Timeout: timeout}
	return func(ctx context.Context, url string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("User-Agent", userAgent)
		req.Header.Set("Accept", "application/xml, text/xml")
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
		if err != nil {
			return resp.StatusCode, nil, err
		}
		if len(body) > maxBody {
			return resp.StatusCode, nil, fmt.Errorf("the response is larger than %d MiB; a monthly rate file is about 40 KB", maxBody>>20)
		}
		return resp.StatusCode, body, nil
	}
}
