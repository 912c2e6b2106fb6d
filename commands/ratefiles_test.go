package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
)

// hmrcOctober is a made-up month in the shape of HMRC's file (not HMRC's figures).
const hmrcOctober = `<?xml version="1.0" encoding="UTF-8"?>
<exchangeRateMonthList Period="01/Oct/2026 to 31/Oct/2026">
  <exchangeRate><countryName>USA</countryName><countryCode>US</countryCode><currencyName>Dollar</currencyName><currencyCode>USD</currencyCode><rateNew>1.3250</rateNew></exchangeRate>
</exchangeRateMonthList>
`

// TestRatesFolderRevealsOnlyRateFiles: a folder given as rates may hold anything; what is
// not an HMRC monthly file is counted, never named or quoted.
func TestRatesFolderRevealsOnlyRateFiles(t *testing.T) {
	secrets := map[string]string{
		"api-key.env":  "API_KEY=sk-live-123456",
		"id_rsa.xml":   "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n",
		"settings.xml": `<settings><password>hunter2</password></settings>`,
	}
	leaked := func(t *testing.T, out []byte) {
		t.Helper()
		for name, content := range secrets {
			for _, s := range []string{name, strings.SplitN(content, "\n", 2)[0], "hunter2", "sk-live"} {
				if strings.Contains(string(out), s) {
					t.Errorf("the answer reveals %q:\n%s", s, out)
				}
			}
		}
	}
	write := func(dir string, files map[string]string) {
		for n, c := range files {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	reg := testRegistry(t)

	mixed := t.TempDir()
	write(mixed, secrets)
	write(mixed, map[string]string{"2026-10.xml": hmrcOctober})
	args, _ := json.Marshal(map[string]any{"currency": "USD", "year": 2026, "month": 10, "rates": []string{mixed}})
	res := reg.Execute(context.Background(), "fx.rate", args)
	out := envelope.MarshalIndent(res)
	if !res.OK || !strings.Contains(string(out), `"rate": "1.3250"`) || !strings.Contains(string(out), "2 file(s) in the rates folders given are not HMRC monthly rate files") {
		t.Errorf("a folder with a rate file among others:\n%s", out)
	}
	leaked(t, out)

	junk := t.TempDir()
	write(junk, secrets)
	args, _ = json.Marshal(map[string]any{"currency": "USD", "year": 2026, "month": 10, "rates": []string{junk}})
	res = reg.Execute(context.Background(), "fx.rate", args)
	out = envelope.MarshalIndent(res)
	if res.OK || res.Error.Code != envelope.InvalidArgument {
		t.Errorf("a folder without rate files:\n%s", out)
	}
	leaked(t, out)

	onlyOther := t.TempDir()
	write(onlyOther, map[string]string{"api-key.env": secrets["api-key.env"]})
	args, _ = json.Marshal(map[string]any{"currency": "USD", "year": 2026, "month": 10, "rates": []string{onlyOther}})
	out = envelope.MarshalIndent(reg.Execute(context.Background(), "fx.rate", args))
	leaked(t, out)

	// A file named on its own that is not a rate file is named (the user named it), never quoted.
	args, _ = json.Marshal(map[string]any{"currency": "USD", "year": 2026, "month": 10, "rates": []string{filepath.Join(junk, "settings.xml")}})
	res = reg.Execute(context.Background(), "fx.rate", args)
	out = envelope.MarshalIndent(res)
	if res.OK || !strings.Contains(res.Error.Message, "settings.xml") || strings.Contains(string(out), "hunter2") || strings.Contains(string(out), "<settings>") {
		t.Errorf("a named file that is not a rate file:\n%s", out)
	}
}
