package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/catalog"
)

type sdkHTTPSummary struct {
	Server struct {
		Name string `json:"name"`
	} `json:"server"`
	Tools []string `json:"tools"`
	Calls []struct {
		Name    string  `json:"name"`
		MS      float64 `json:"ms"`
		IsError bool    `json:"isError"`
		Code    *string `json:"code"`
		Text    string  `json:"text"`
	} `json:"calls"`
	LatencyMS struct {
		N      int     `json:"n"`
		Median float64 `json:"median"`
		P95    float64 `json:"p95"`
	} `json:"latencyMs"`
	Refusals map[string]any `json:"refusals"`
}

var (
	urlLine   = regexp.MustCompile(`Streamable HTTP at (http://\S+/mcp)`)
	tokenLine = regexp.MustCompile(`Bearer TOKEN\): (\S+)`)
)

// startHTTPServer runs cgt-mcp --http on a free port and returns the URL and the token it
// printed, and a function that stops it with SIGTERM and returns its exit error.
func startHTTPServer(t *testing.T, args ...string) (url, token string, stop func() error) {
	t.Helper()
	cmd := exec.Command(serverBinary, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	found := make(chan [2]string, 1)
	go func() {
		var u, tok string
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := urlLine.FindStringSubmatch(sc.Text()); m != nil {
				u = m[1]
			}
			if m := tokenLine.FindStringSubmatch(sc.Text()); m != nil {
				tok = m[1]
			}
			if u != "" && tok != "" {
				found <- [2]string{u, tok}
				u = ""
			}
		}
	}()
	go func() { done <- cmd.Wait() }()
	select {
	case f := <-found:
		url, token = f[0], f[1]
	case err := <-done:
		t.Fatalf("cgt mcp --http exited before listening: %v", err)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("cgt mcp --http printed no URL and token within 30s")
	}
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		if runtime.GOOS == "windows" {
			cmd.Process.Kill()
			return <-done
		}
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			return <-done
		}
	}
	t.Cleanup(func() { stop() })
	return url, token, stop
}

// The official SDK's Streamable HTTP client: the same tools as over stdio, a report from a file
// under --root, a path outside it refused, and the token, Host and Origin refusals.
func TestOfficialSDKClientOverHTTP(t *testing.T) {
	if _, err := os.Stat(filepath.Join(sdkClientDir, "node_modules")); err != nil {
		skipOrFail(t, "%s/node_modules is missing: run npm ci --prefix mcp/testdata/sdkclient", sdkClientDir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed")
	}
	url, token, stop := startHTTPServer(t, "--root", filepath.Join(repoRoot(t), "examples"))
	calls := []sdkCall{
		{"calculate_report", map[string]any{"path": "portfolio.cgt", "year": "2024/25"}},
		{"calculate_report", map[string]any{"path": "../go.mod"}},
		{"calculate_report", map[string]any{"path": filepath.Join(repoRoot(t), "README.md")}},
	}
	callsJSON, _ := json.Marshal(calls)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(sdkClientDir, "http.mjs"), url, token, string(callsJSON), "5")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sdk client over HTTP: %v\n%s", err, errOut.String())
	}
	var sum sdkHTTPSummary
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	t.Logf("over HTTP: %d tools, calls %v ms, latency of %d calls: median %.2f ms, p95 %.2f ms, refusals %v",
		len(sum.Tools), []float64{sum.Calls[0].MS, sum.Calls[1].MS, sum.Calls[2].MS}, sum.LatencyMS.N, sum.LatencyMS.Median, sum.LatencyMS.P95, sum.Refusals)

	if sum.Server.Name != "cgt" || len(sum.Tools) != servedCount(catalog.Own(testRegistry(t))) {
		t.Errorf("server %q listed %d tools, want %d", sum.Server.Name, len(sum.Tools), servedCount(catalog.Own(testRegistry(t))))
	}
	if c := sum.Calls[0]; c.IsError || !strings.Contains(c.Text, "2024/25") {
		t.Errorf("calculate_report of a file under --root: isError=%v %s", c.IsError, c.Text)
	}
	for _, c := range sum.Calls[1:] {
		if !c.IsError || c.Code == nil || *c.Code != "permission_denied" {
			t.Errorf("a path outside --root: isError=%v code=%v %s", c.IsError, c.Code, c.Text)
		}
	}
	want := map[string]any{"noToken": 401.0, "wrongToken": 401.0, "badHost": 403.0, "badOrigin": 403.0, "goodHost": "connected"}
	for k, v := range want {
		if sum.Refusals[k] != v {
			t.Errorf("refusal %s: %v, want %v", k, sum.Refusals[k], v)
		}
	}
	if runtime.GOOS != "windows" {
		if err := stop(); err != nil {
			t.Errorf("after SIGTERM: %v, want exit status 0", err)
		}
	}
}
