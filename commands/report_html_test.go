package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/internal/golden"
)

// htmlReport writes the HTML report of a ledger file and returns the page.
func htmlReport(t *testing.T, args string) []byte {
	t.Helper()
	res := testRegistry(t).Execute(context.Background(), "report.calculate", json.RawMessage(args))
	if !res.OK {
		t.Fatalf("%+v", res.Error)
	}
	var b bytes.Buffer
	if err := res.Data.(ReportResult).WriteHTML(&b, res.Warnings); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The page is one document with nothing to fetch: charts inline, every year's net gain and the
// box numbers on it, and the user's own text (here a file name) escaped.
func TestHTMLReportIsSelfContained(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../examples/portfolio.cgt")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, `<img src=x onerror=alert(1)>.cgt`)
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"path": []string{name}, "taxable_income": 60000})
	page := string(htmlReport(t, string(args)))
	if strings.Contains(page, "<img src=x") {
		t.Error("a file name reached the page unescaped")
	}
	if n := strings.Count(page, "<svg"); n < 2 {
		t.Errorf("%d SVG charts, want at least 2", n)
	}
	if regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//`).MatchString(page) || strings.Contains(page, "@import") {
		t.Error("the page loads something from the network")
	}
	for _, want := range []string{"box 24 · 30231", "box 51", "£11,551.39", "-£54.90", "Tax due", "£1,699.29", "HMRC rate for 2024-06"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	golden.Check(t, "testdata/report.calculate/html/portfolio_with_income.golden.html",
		htmlReport(t, `{"path":["../examples/portfolio.cgt"],"taxable_income":60000}`))
}

// The page renders in a real browser (headless Chromium): a screenshot and a PDF are made, and
// the browser reports no script error and no refused load. CI installs Chromium. Without the
// zygote (the process Chromium forks its renderers from), which once failed to fork at launch
// on a loaded machine and crashed the browser before it opened the page.
func TestHTMLReportRendersInChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed; .ci/run installs Debian's chromium")
		}
		t.Skip("chromium is not installed")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, htmlReport(t, `{"path":["../examples/portfolio.cgt"],"taxable_income":60000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []struct{ flag, file string }{{"--screenshot=", "report.png"}, {"--print-to-pdf=", "report.pdf"}} {
		path := filepath.Join(dir, out.file)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--no-zygote", "--disable-gpu", "--no-first-run",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0",
			"--window-size=420,900", out.flag+path, "file://"+page)
		logs, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("chromium %s: %v\n%s", out.flag, err, logs)
		}
		if st, err := os.Stat(path); err != nil || st.Size() < 1000 {
			t.Errorf("%s was not written (%v)", out.file, err)
		}
		for _, bad := range []string{"Uncaught", "Refused to", "net::ERR"} {
			if bytes.Contains(logs, []byte(bad)) {
				t.Errorf("chromium reports %q while rendering the report:\n%s", bad, logs)
			}
		}
	}
}

// The report states what it rests on before any figure: warnings first, then the income and
// band used, the losses brought forward and, for 2024/25, the box 51 adjustment with the gains
// on each side of 30 October 2024 and the words for box 54; printed, every working shows.
func TestHTMLReportStatesItsAssumptionsFirst(t *testing.T) {
	page := string(htmlReport(t, `{"path":["../examples/portfolio.cgt"],"taxable_income":60000,"losses_brought_forward":"100"}`))
	at := func(s string) int {
		t.Helper()
		i := strings.Index(page, s)
		if i < 0 {
			t.Fatalf("the page lacks %q", s)
		}
		return i
	}
	details := at("<h2>Tax year")
	for _, first := range []string{"<h2>Check these first</h2>", "<h2>What this report assumes</h2>",
		"taxable income £60,000.00; basic rate band £37,700.00", "Losses of £100.00 brought forward",
		"gains before 30 October 2024 £9,506.84", "gains from 30 October 2024 £2,044.55", "box 54 (any other information)",
		"<blockquote>Box 51: adjustment of £"} {
		if i := at(first); i > details {
			t.Errorf("%q comes after the first tax year's figures", first)
		}
	}
	if at("<h2>Check these first</h2>") > at("<h2>What this report assumes</h2>") {
		t.Error("the warnings do not come first")
	}
	for _, rule := range []string{"details::details-content{content-visibility:visible", "h2,h3,h4{break-after:avoid", "thead{display:table-header-group}"} {
		at(rule)
	}
	noIncome := string(htmlReport(t, `{"path":["../examples/portfolio.cgt"]}`))
	if !strings.Contains(noIncome, "no taxable income given, so the tax due is not worked out, nor box 51.") ||
		!strings.Contains(noIncome, "The adjustment depends on your income") {
		t.Error("without income the report does not say that the tax and box 51 are not worked out")
	}
}
