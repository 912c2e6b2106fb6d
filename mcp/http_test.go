package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHTTPGuardRefusesWhatDoesNotNameThisServer(t *testing.T) {
	const token = "s3cret-token-of-enough-length"
	reached := false
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached = true })
	g := newHTTPGuard(next, token, allowedHosts("127.0.0.1", "8765"))
	bearer := "Bearer " + token
	cases := []struct {
		name   string
		host   string
		origin []string
		auth   string
		length int64
		want   int
	}{
		{"right token and loopback address", "127.0.0.1:8765", nil, bearer, 0, http.StatusOK},
		{"localhost", "localhost:8765", nil, bearer, 0, http.StatusOK},
		{"localhost in capitals", "LOCALHOST:8765", nil, bearer, 0, http.StatusOK},
		{"IPv6 loopback", "[::1]:8765", nil, bearer, 0, http.StatusOK},
		{"scheme in any case", "127.0.0.1:8765", nil, "bearer " + token, 0, http.StatusOK},
		{"origin of this server", "127.0.0.1:8765", []string{"http://localhost:8765"}, bearer, 0, http.StatusOK},
		{"https origin of this server", "127.0.0.1:8765", []string{"https://127.0.0.1:8765"}, bearer, 0, http.StatusOK},
		{"no token", "127.0.0.1:8765", nil, "", 0, http.StatusUnauthorized},
		{"wrong token", "127.0.0.1:8765", nil, "Bearer s3cret-token-of-enough-lengtH", 0, http.StatusUnauthorized},
		{"token prefix", "127.0.0.1:8765", nil, "Bearer s3cret", 0, http.StatusUnauthorized},
		{"token with more after it", "127.0.0.1:8765", nil, bearer + "x", 0, http.StatusUnauthorized},
		{"basic scheme", "127.0.0.1:8765", nil, "Basic " + token, 0, http.StatusUnauthorized},
		{"token without scheme", "127.0.0.1:8765", nil, token, 0, http.StatusUnauthorized},
		{"rebound name", "rebind.example:8765", nil, bearer, 0, http.StatusForbidden},
		{"rebound name without token", "rebind.example:8765", nil, "", 0, http.StatusForbidden},
		{"loopback on another port", "127.0.0.1:8766", nil, bearer, 0, http.StatusForbidden},
		{"host without port", "localhost", nil, bearer, 0, http.StatusForbidden},
		{"another loopback address", "127.0.0.2:8765", nil, bearer, 0, http.StatusForbidden},
		{"empty host", "", nil, bearer, 0, http.StatusForbidden},
		{"foreign origin", "127.0.0.1:8765", []string{"http://evil.example"}, bearer, 0, http.StatusForbidden},
		{"origin on another port", "127.0.0.1:8765", []string{"http://localhost:3000"}, bearer, 0, http.StatusForbidden},
		{"origin without port", "127.0.0.1:8765", []string{"http://localhost"}, bearer, 0, http.StatusForbidden},
		{"null origin", "127.0.0.1:8765", []string{"null"}, bearer, 0, http.StatusForbidden},
		{"file origin", "127.0.0.1:8765", []string{"file://"}, bearer, 0, http.StatusForbidden},
		{"origin with a path", "127.0.0.1:8765", []string{"http://localhost:8765/x"}, bearer, 0, http.StatusForbidden},
		{"origin with user", "127.0.0.1:8765", []string{"http://evil@localhost:8765"}, bearer, 0, http.StatusForbidden},
		{"two origins", "127.0.0.1:8765", []string{"http://localhost:8765", "http://evil.example"}, bearer, 0, http.StatusForbidden},
		{"empty origin", "127.0.0.1:8765", []string{""}, bearer, 0, http.StatusForbidden},
		{"foreign origin without token", "127.0.0.1:8765", []string{"http://evil.example"}, "", 0, http.StatusForbidden},
		{"body over the limit", "127.0.0.1:8765", nil, bearer, MaxMessageSize + 1, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reached = false
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
			r.Host = c.host
			for _, o := range c.origin {
				r.Header.Add("Origin", o)
			}
			if c.auth != "" {
				r.Header.Set("Authorization", c.auth)
			}
			if c.length > 0 {
				r.ContentLength = c.length
			}
			w := httptest.NewRecorder()
			g.ServeHTTP(w, r)
			if w.Code != c.want || reached != (c.want == http.StatusOK) {
				t.Fatalf("status %d (reached the endpoint: %v), want %d: %s", w.Code, reached, c.want, w.Body)
			}
			if c.want == http.StatusUnauthorized && !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without a Bearer challenge: %v", w.Header())
			}
			if strings.Contains(w.Body.String(), token) {
				t.Errorf("the refusal shows the token: %s", w.Body)
			}
		})
	}
}

func TestHTTPGuardAllowsTheListeningHost(t *testing.T) {
	g := newHTTPGuard(http.NotFoundHandler(), "0123456789abcdef", allowedHosts("192.168.1.20", "9000"))
	for host, want := range map[string]int{"192.168.1.20:9000": 404, "localhost:9000": 404, "192.168.1.21:9000": 403} {
		r := httptest.NewRequest(http.MethodGet, "/mcp", nil)
		r.Host = host
		r.Header.Set("Authorization", "Bearer 0123456789abcdef")
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %s: status %d, want %d", host, w.Code, want)
		}
	}
}

func TestListenAddress(t *testing.T) {
	cases := []struct {
		addr, host, port string
		ok               bool
	}{
		{":0", "127.0.0.1", "0", true},
		{":8765", "127.0.0.1", "8765", true},
		{"localhost:8765", "localhost", "8765", true},
		{"[::1]:0", "::1", "0", true},
		{"0.0.0.0:80", "0.0.0.0", "80", true},
		{"8765", "", "", false},
		{"127.0.0.1", "", "", false},
		{":http", "", "", false},
		{":70000", "", "", false},
		{":-1", "", "", false},
	}
	for _, c := range cases {
		host, port, err := listenAddress(c.addr)
		if (err == nil) != c.ok || host != c.host || port != c.port {
			t.Errorf("listenAddress(%q) = %q, %q, %v", c.addr, host, port, err)
		}
	}
}

func TestTokens(t *testing.T) {
	a, err := newToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newToken()
	if len(a) < 32 || a == b || checkToken(a) != nil {
		t.Errorf("generated tokens %q and %q", a, b)
	}
	for tok, ok := range map[string]bool{"0123456789abcdef": true, "short": false, "with a space in it!": false, "tab\tseparated-token": false, "ünïcödé-töken-long": false} {
		if (checkToken(tok) == nil) != ok {
			t.Errorf("checkToken(%q) = %v", tok, checkToken(tok))
		}
	}
}

func TestHTTPFlags(t *testing.T) {
	cases := []struct {
		args []string
		ok   bool
	}{
		{[]string{"--http", ":0"}, true},
		{[]string{"--http", "127.0.0.1:8765", "--token", "0123456789abcdef"}, true},
		{[]string{"--http", ":0", "--catalog", "tools.json", "--exec", "prog"}, true},
		{[]string{"--token", "0123456789abcdef"}, false},
		{[]string{"--http", ":0", "--token", "short"}, false},
		{[]string{"--http", "8765"}, false},
	}
	for _, c := range cases {
		if _, err := parseFlags(c.args, nil); (err == nil) != c.ok {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}
