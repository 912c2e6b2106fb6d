//go:build !js

package commands

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/ratecache"
	"github.com/cgt-tools/cgt/ratecache/httpfetch"
	"github.com/cgt-tools/cgt/registry"
)

// sharedMonthly is ../shared/hmrc-rates/monthly, or a skip (a failure under CI=true).
func sharedMonthly(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "hmrc-rates", "monthly")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("HMRC's monthly files are needed at %s: %v", dir, err)
		}
		t.Skipf("HMRC's monthly files are not at %s: skipping", dir)
	}
	return dir
}

// tableUntil is a table of the shared HMRC files from 2026-01 to last, with no bundled layer,
// so the months after last are what fx.update fetches.
func tableUntil(t *testing.T, dir, last string) *fx.Table {
	t.Helper()
	tab := fx.NewTable()
	for _, p := range []string{"2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06", "2026-07", "2026-08"} {
		if p > last {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, p+".xml"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := fx.ReadMonthly(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		if err := tab.Merge(m.Period, m.Rates); err != nil {
			t.Fatal(err)
		}
	}
	return tab
}

// hmrcServer serves dir's YYYY-MM.xml files as HMRC names them (monthly_xml_YYYY-MM.xml),
// with override answering first when it returns true; it counts the requests.
func hmrcServer(t *testing.T, dir string, override func(w http.ResponseWriter, period string) bool) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		name := strings.TrimPrefix(r.URL.Path, "/files/")
		period, ok := strings.CutPrefix(strings.TrimSuffix(name, ".xml"), "monthly_xml_")
		if !ok {
			http.NotFound(w, r)
			return
		}
		if override != nil && override(w, period) {
			return
		}
		data, err := os.ReadFile(filepath.Join(dir, period+".xml"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// updateDeps are a command line's dependencies with the rates until last and a fresh cache.
func updateDeps(t *testing.T, dir, last string, timeout time.Duration) (*registry.Deps, ratecache.Dir) {
	cache := ratecache.New(filepath.Join(t.TempDir(), "rates"))
	return &registry.Deps{
		ReadFile:   os.ReadFile,
		ReadDir:    registry.OSReadDir,
		Today:      func() model.Date { return model.NewDate(2026, 9, 15) },
		Rates:      tableUntil(t, dir, last),
		RatesCache: cache,
		Fetch:      httpfetch.Fetcher(timeout, "cgt-test"),
	}, cache
}

func runUpdate(t *testing.T, deps *registry.Deps, baseURL string) envelope.Result {
	t.Helper()
	reg, err := NewRegistry(deps)
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"base_url": baseURL})
	return reg.Execute(context.Background(), "fx.update", args)
}

func cacheFiles(t *testing.T, c ratecache.Dir) []string {
	t.Helper()
	names, err := c.List()
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestFXUpdateFetchesEachMissingMonthThenStopsAtTheFirstNotPublished(t *testing.T) {
	dir := sharedMonthly(t)
	srv, requests := hmrcServer(t, dir, func(w http.ResponseWriter, period string) bool {
		if period >= "2026-08" { // not published yet, as far as this server knows
			http.NotFound(w, nil)
			return true
		}
		return false
	})
	deps, cache := updateDeps(t, dir, "2026-05", 5*time.Second)
	env := runUpdate(t, deps, srv.URL+"/files")
	if !env.OK {
		t.Fatalf("fx.update failed: %+v", env.Error)
	}
	res := env.Data.(FXUpdateResult)
	if res.From != "2026-05" || res.Newest != "2026-07" || res.NotYet != "2026-08" || len(res.Fetched) != 2 {
		t.Fatalf("result %+v", res)
	}
	if got := requests.Load(); got != 3 {
		t.Errorf("%d requests, want 3 (2026-06, 2026-07, then 2026-08's 404)", got)
	}
	want := []string{"2026-06.fetched-2026-09-15.xml", "2026-07.fetched-2026-09-15.xml"}
	if got := cacheFiles(t, cache); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("cache holds %v, want %v", got, want)
	}
	// Every command then reads the cache after the rates it had, citing the fetch.
	deps.Rates = fx.WithCache(tableUntil(t, dir, "2026-05"), cache)
	reg, err := NewRegistry(deps)
	if err != nil {
		t.Fatal(err)
	}
	rate := reg.Execute(context.Background(), "fx.rate", json.RawMessage(`{"currency":"USD","year":2026,"month":7}`))
	if !rate.OK {
		t.Fatalf("fx.rate after the update: %+v", rate.Error)
	}
	if src := rate.Data.(FXRateResult).Source; !strings.Contains(src, "2026-07") || !strings.Contains(src, "fetched 2026-09-15") {
		t.Errorf("source %q does not cite the fetch", src)
	}
	// A second run asks only for the month still missing.
	deps.Rates = fx.WithCache(tableUntil(t, dir, "2026-05"), cache)
	again := runUpdate(t, deps, srv.URL+"/files/")
	if !again.OK || again.Data.(FXUpdateResult).From != "2026-07" || len(again.Warnings) != 1 {
		t.Errorf("second run: %+v", again)
	}
}

func TestFXUpdateFailuresWriteNothing(t *testing.T) {
	dir := sharedMonthly(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	cases := []struct {
		name     string
		override func(w http.ResponseWriter, period string) bool
		code     envelope.Code
		message  string
	}{
		{"server_error", func(w http.ResponseWriter, period string) bool {
			if period == "2026-07" {
				w.WriteHeader(http.StatusInternalServerError)
				return true
			}
			return false
		}, envelope.IOError, "HTTP 500"},
		{"malformed_xml", func(w http.ResponseWriter, period string) bool {
			if period == "2026-07" {
				w.Write([]byte(`<exchangeRateMonthList Period="01/Jul/2026 to 31/Jul/2026"><exchangeRate><currencyCode>USD</currencyCode>`))
				return true
			}
			return false
		}, envelope.ParseError, "not well-formed"},
		{"wrong_month_inside", func(w http.ResponseWriter, period string) bool {
			if period == "2026-07" {
				data, _ := os.ReadFile(filepath.Join(dir, "2026-06.xml"))
				w.Write(data)
				return true
			}
			return false
		}, envelope.ParseError, "holds the rates of 2026-06"},
		{"html_page", func(w http.ResponseWriter, period string) bool {
			w.Write([]byte("<!DOCTYPE html><html><body>Sorry</body></html>"))
			return true
		}, envelope.ParseError, "2026-06"},
		{"timeout", func(w http.ResponseWriter, period string) bool {
			if period == "2026-07" {
				select {
				case <-release:
				case <-time.After(5 * time.Second):
				}
				return true
			}
			return false
		}, envelope.IOError, "cannot fetch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := hmrcServer(t, dir, tc.override)
			deps, cache := updateDeps(t, dir, "2026-05", 300*time.Millisecond)
			env := runUpdate(t, deps, srv.URL+"/files/")
			if env.OK || env.Error.Code != tc.code || !strings.Contains(env.Error.Message, tc.message) {
				t.Fatalf("want %s mentioning %q, got %+v", tc.code, tc.message, env.Error)
			}
			if env.Error.Hint == "" || !strings.Contains(env.Error.Hint, "Nothing was written") {
				t.Errorf("hint %q", env.Error.Hint)
			}
			if got := cacheFiles(t, cache); len(got) != 0 {
				t.Errorf("the cache holds %v after a failure", got)
			}
		})
	}
}

func TestFXUpdateUnreachable(t *testing.T) {
	dir := sharedMonthly(t)
	srv, _ := hmrcServer(t, dir, nil)
	url := srv.URL
	srv.Close()
	deps, cache := updateDeps(t, dir, "2026-05", time.Second)
	env := runUpdate(t, deps, url)
	if env.OK || env.Error.Code != envelope.IOError || !strings.Contains(env.Error.Message, "2026-06") {
		t.Fatalf("got %+v", env.Error)
	}
	if len(cacheFiles(t, cache)) != 0 {
		t.Error("the cache was written")
	}
}

func TestFXUpdateArguments(t *testing.T) {
	deps := &registry.Deps{RatesCache: ratecache.New(t.TempDir()), Fetch: func(context.Context, string) (int, []byte, error) {
		t.Fatal("no request may be made")
		return 0, nil, nil
	}}
	for _, bad := range []string{"ftp://example.com/", "not a url", "http:///files/", "https://example.com/?month=1"} {
		env := runUpdate(t, deps, bad)
		if env.OK || env.Error.Code != envelope.InvalidArgument {
			t.Errorf("base_url %q: %+v", bad, env.Error)
		}
	}
	// A front end without the network (a server, the browser) cannot run it.
	env := runUpdate(t, &registry.Deps{}, "")
	if env.OK || env.Error.Code != envelope.PermissionDenied {
		t.Errorf("without Fetch: %+v", env.Error)
	}
}

// TestNoOtherCommandUsesTheNetwork runs every golden case of every other command with a
// network that fails the test when used.
func TestNoOtherCommandUsesTheNetwork(t *testing.T) {
	var used atomic.Int64
	reg, err := NewRegistry(&registry.Deps{ReadFile: os.ReadFile, ReadDir: registry.OSReadDir,
		RatesCache: ratecache.New(t.TempDir()),
		Fetch: func(context.Context, string) (int, []byte, error) {
			used.Add(1)
			return http.StatusNotFound, nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := filepath.Glob(filepath.Join("testdata", "*", "*.args.json"))
	ran := 0
	for _, argsPath := range cases {
		command := filepath.Base(filepath.Dir(argsPath))
		if command == "fx.update" {
			continue
		}
		args, err := os.ReadFile(argsPath)
		if err != nil {
			t.Fatal(err)
		}
		reg.Execute(context.Background(), command, json.RawMessage(args))
		ran++
	}
	if ran == 0 || used.Load() != 0 {
		t.Errorf("%d cases ran, %d network requests; want none", ran, used.Load())
	}
}
