package registry

import (
	"context"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
)

// FuzzCommandLine feeds the argv binder and the run behind it (aliases, coercion, defaults,
// validation, binding to the struct) arbitrary words: never a panic, and every failure is a
// usage or validation error with a message, never an internal one.
func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{
		"AAPL", "AAPL\x00a.cgt\x00b.cgt", "ticker=VOD\x00month=4", "--ticker\x00VOD", "--symbol=VOD",
		"--verbose\x00X", "--json\x00{\"ticker\":\"T\",\"month\":2}", "file=a\x00file=b", "month=13",
		"month=1.5", "year=2024/25\x00X", "currency=usd\x00X", "date=2024-02-30\x00X", "--", "=", "--=",
		"--json\x00[1]", "X\x00--output\x00compact", "X\x00max_records=-1", "X\x00fields=nope",
	} {
		f.Add(s)
	}
	r := echoRegistry(f)
	c, _ := r.Lookup("test.echo")
	f.Fuzz(func(t *testing.T, words string) {
		argv := strings.Split(words, "\x00")
		args, err := BindCLI(c, argv, strings.NewReader(""))
		if err != nil {
			if err.Code != envelope.UsageError || err.Message == "" {
				t.Fatalf("%q: bind error %s %q", argv, err.Code, err.Message)
			}
			return
		}
		for _, v := range args { // the test command's own failure hooks, under any name
			if s, _ := v.(string); s == "PANIC" || s == "FAIL" {
				return
			}
		}
		res := r.ExecuteArgs(context.Background(), c, args)
		if !res.OK && (res.Error == nil || res.Error.Code == envelope.InternalError || res.Error.Message == "") {
			t.Fatalf("%q: %+v", argv, res.Error)
		}
	})
}
