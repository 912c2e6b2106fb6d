package webapp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/commands"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

func example(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../../examples/portfolio.cgt")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The page's result is the registry's: the same envelope as running the command directly
// (here, report.calculate as the CLI runs it on the file), and the HTML report beside it.
func TestRunIsTheRegistrysResult(t *testing.T) {
	src := example(t)
	args := `{"path":["portfolio.cgt"],"taxable_income":"60000","year":"2024"}`
	got := Run(Request{Command: "report.calculate", Args: json.RawMessage(args), Render: []string{"json", "html", "text"},
		Files: []File{{Name: "portfolio.cgt", Content: src}}})

	reg, err := commands.NewRegistry(&registry.Deps{ReadFile: func(string) ([]byte, error) { return src, nil }})
	if err != nil {
		t.Fatal(err)
	}
	want := envelope.MarshalCompact(reg.Execute(context.Background(), "report.calculate", json.RawMessage(args)))
	if !bytes.Equal(got.Envelope, want) {
		t.Errorf("envelope differs from the registry's:\n%s\n%s", got.Envelope, want)
	}
	if !strings.Contains(got.HTML, "<h2>Tax year 2024/25</h2>") || !strings.Contains(got.HTML, "Content-Security-Policy") {
		t.Errorf("no HTML report: %.200q", got.HTML)
	}
	if !strings.Contains(got.Text, "2024/25") {
		t.Errorf("no text rendering: %.200q", got.Text)
	}

	// Without "json", the envelope says how it went and carries the warnings, not the data.
	page := Run(Request{Command: "report.calculate", Args: json.RawMessage(`{"path":["portfolio.cgt"]}`), Render: []string{"html"},
		Files: []File{{Name: "portfolio.cgt", Content: src}}})
	var env map[string]any
	if err := json.Unmarshal(page.Envelope, &env); err != nil || env["ok"] != true || env["data"] != nil || len(env["warnings"].([]any)) == 0 {
		t.Errorf("envelope without json: %s (%v)", page.Envelope, err)
	}
	if page.HTML == "" {
		t.Error("no HTML")
	}
}

// A file the request does not carry is an error in the envelope, naming it; so is an unknown
// command and arguments that are not an object. Nothing panics.
func TestRunErrorsAreEnvelopes(t *testing.T) {
	for _, tc := range []struct {
		name, command, args, code string
	}{
		{"missing file", "report.calculate", `{"path":["gone.cgt"]}`, "io_error"},
		{"unknown command", "report.nothing", `{}`, "usage_error"},
		{"not an object", "report.calculate", `[1]`, "usage_error"},
		{"bad ledger", "report.calculate", `{"path":["bad.cgt"]}`, "parse_error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Run(Request{Command: tc.command, Args: json.RawMessage(tc.args), Render: []string{"html"},
				Files: []File{{Name: "bad.cgt", Content: []byte("2024-01-01 BUY\n")}}})
			var env struct {
				OK    bool `json:"ok"`
				Error struct {
					Code string `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(r.Envelope, &env); err != nil {
				t.Fatalf("%v: %s", err, r.Envelope)
			}
			if env.OK || env.Error.Code != tc.code || r.HTML != "" {
				t.Errorf("got ok=%v code=%q html=%d, want code %q: %s", env.OK, env.Error.Code, len(r.HTML), tc.code, r.Envelope)
			}
		})
	}
}

// An imported ledger's text is transactions.import's text output: ledger lines.
func TestRunImportText(t *testing.T) {
	b, err := os.ReadFile("../../../cgt/imports/testdata/trading212/kapji_2024_transactions.csv")
	if err != nil {
		t.Fatal(err)
	}
	r := Run(Request{Command: "transactions.import", Args: json.RawMessage(`{"path":["t212.csv"]}`), Render: []string{"text"},
		Files: []File{{Name: "t212.csv", Content: b}}})
	if !strings.Contains(r.Text, "# Ledger imported by cgt transactions.import") || !strings.Contains(r.Text, " BUY ") {
		t.Errorf("not a ledger: %.300q", r.Text)
	}
}

// A command the module does not register (the browser build leaves out those the page does
// not run) is refused with the commands it has and a pointer to the command line.
func TestRunRefusesACommandNotInTheBrowserApp(t *testing.T) {
	r := Run(Request{Command: "no.such", Render: []string{"json"}})
	var env struct {
		OK    bool
		Error struct{ Code, Message, Hint string }
	}
	if err := json.Unmarshal(r.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	if env.OK || env.Error.Message != `"no.such" is not in the browser app` || !strings.Contains(env.Error.Hint, "report.calculate") ||
		!strings.Contains(env.Error.Hint, "cgt no.such") {
		t.Errorf("got %s", r.Envelope)
	}
}

func TestCommandsListsTheRegistry(t *testing.T) {
	names := Commands()
	if len(names) < 8 || !strings.Contains(strings.Join(names, " "), "report.calculate") {
		t.Errorf("Commands() = %v", names)
	}
}

// The page passes the HMRC rate files a person chose by name in rates, as the CLI does with
// paths: they are read from the request's files, and their month's rate is the one used.
func TestRunRatesFromTheRequestsFiles(t *testing.T) {
	ledger := []byte("2024-06-03 BUY AAPL 10 @ 100.00 USD\n2024-06-20 SELL AAPL 10 @ 150.00 USD\n")
	rates := []byte(`<?xml version="1.0"?>
<exchangeRateMonthList Period="01/Jun/2024 to 30/Jun/2024"><exchangeRate><countryName>USA</countryName><countryCode>US</countryCode><currencyName>Dollar</currencyName><currencyCode>USD</currencyCode><rateNew>1.2500</rateNew></exchangeRate></exchangeRateMonthList>`)
	files := []File{{Name: "p.cgt", Content: ledger}, {Name: "june\n2024.xml", Content: rates}}
	gains := func(args string) string {
		r := Run(Request{Command: "report.calculate", Args: json.RawMessage(args), Render: []string{"json"}, Files: files})
		var env struct {
			OK   bool `json:"ok"`
			Data struct {
				TaxYears []struct {
					Gains string `json:"gains"`
				} `json:"tax_years"`
			} `json:"data"`
		}
		if err := json.Unmarshal(r.Envelope, &env); err != nil || !env.OK || len(env.Data.TaxYears) == 0 {
			t.Fatalf("%s: %v %s", args, err, r.Envelope)
		}
		return env.Data.TaxYears[0].Gains
	}
	// 10 × 50 USD at 1.25 USD to the pound.
	if got := gains(`{"path":["p.cgt"],"rates":["june\n2024.xml"]}`); got != "400.00" {
		t.Errorf("gain with the rate file = %s, want 400.00", got)
	}
	if got := gains(`{"path":["p.cgt"]}`); got == "400.00" {
		t.Errorf("gain without the rate file = %s: the test's rate is the bundled one", got)
	}
}
