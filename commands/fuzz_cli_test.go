package commands

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// FuzzCommandLines runs every command on arbitrary command-line words, inline ledgers
// included (files read as missing): a failure is always a coded error with a message, never
// internal_error, which is what a recovered panic or an unexpected fault becomes.
func FuzzCommandLines(f *testing.F) {
	seeds := []struct {
		cmd  uint8
		argv string
	}{
		{0, "cgt_content=2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD"},
		{3, "cgt_content=2024-04-01 BUY AAPL 100 @ 150.00\n2024-06-20 SELL AAPL 50 @ 180.00\x00year=2024\x00taxable_income=60000"},
		{3, "cgt_content=2024-04-01 BUY A 10 @ 1\n2024-04-02 SPLIT A 2:1\n2024-05-01 SELL A 25 @ 2\x00detail=full"},
		{4, "cgt_content=2024-04-01 BUY A 10 @ 1\n2024-04-01 SELL A 5 @ 2\x00ticker=A"},
		{5, "cgt_content=2023-01-05 BUY VWRL 10 @ 80 GBX\x00--output\x00compact"},
		{6, "USD\x002024\x003"},
		{7, "2024/25"},
		{1, "cgt_content=[{\"date\":\"2024-01-01\",\"action\":\"BUY\",\"ticker\":\"A\",\"quantity\":\"1\",\"price\":\"1\"}]"},
		{2, "a.csv\x00broker=trading212"},
	}
	for _, s := range seeds {
		f.Add(s.cmd, s.argv)
	}
	missing := func(string) ([]byte, error) { return nil, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist} }
	reg, err := NewRegistry(&registry.Deps{ReadFile: missing, ReadDir: func(string) ([]string, error) { return nil, fs.ErrNotExist }})
	if err != nil {
		f.Fatal(err)
	}
	cmds := All()
	f.Fuzz(func(t *testing.T, which uint8, words string) {
		c := cmds[int(which)%len(cmds)]
		argv := strings.Split(words, "\x00")
		args, berr := registry.BindCLI(c, argv, strings.NewReader(""))
		if berr != nil {
			return
		}
		res := reg.ExecuteArgs(context.Background(), c, args)
		if res.OK {
			return
		}
		if res.Error == nil || res.Error.Code == envelope.InternalError || res.Error.Message == "" {
			t.Fatalf("%s %q: %+v", c.Meta().Name, argv, res.Error)
		}
	})
}
