package dsl

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestParseReadsEveryKind(t *testing.T) {
	tests := []struct {
		name string
		line string
		want model.Transaction
	}{
		{"buy_with_currency_and_fees", "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD",
			model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("100"),
				Price: model.Amount{Value: dec("150.00"), Currency: "USD"}, Fees: model.Amount{Value: dec("5.00"), Currency: "USD"}}},
		{"sell_gbp_by_default", "2024-04-01 SELL VOD.L 10 @ 0.7215",
			model.Transaction{Action: model.Sell, Ticker: "VOD.L", Quantity: dec("10"),
				Price: model.Amount{Value: dec("0.7215"), Currency: "GBP"}, Fees: model.Amount{Currency: "GBP"}}},
		{"sell_for_nothing", "2024-04-01 SELL DUD 10 @ 0",
			model.Transaction{Action: model.Sell, Ticker: "DUD", Quantity: dec("10"),
				Price: model.Amount{Currency: "GBP"}, Fees: model.Amount{Currency: "GBP"}}},
		{"fees_in_another_currency", "2024-04-01 BUY BRK.B 1 @ 400 USD FEES 3 gbp",
			model.Transaction{Action: model.Buy, Ticker: "BRK.B", Quantity: dec("1"),
				Price: model.Amount{Value: dec("400"), Currency: "USD"}, Fees: model.Amount{Value: dec("3"), Currency: "GBP"}}},
		{"lower_case_everything", "2024-04-01 buy lon:vod 1.5 @ 2 eur fees 1",
			model.Transaction{Action: model.Buy, Ticker: "LON:VOD", Quantity: dec("1.5"),
				Price: model.Amount{Value: dec("2"), Currency: "EUR"}, Fees: model.Amount{Value: dec("1"), Currency: "GBP"}}},
		{"dividend_with_tax", "2024-04-01 DIVIDEND VOD.L TOTAL 12.50 TAX 1.00",
			model.Transaction{Action: model.Dividend, Ticker: "VOD.L",
				Total: model.Amount{Value: dec("12.50"), Currency: "GBP"}, Event: &model.Event{Tax: model.Amount{Value: dec("1.00"), Currency: "GBP"}}}},
		{"accumulation_zero", "2023-07-15 ACCUMULATION FUNDZERO 0 TOTAL 0 TAX 0",
			model.Transaction{Action: model.Accumulation, Ticker: "FUNDZERO", Quantity: dec("0"),
				Total: model.Amount{Currency: "GBP"}, Event: &model.Event{Tax: model.Amount{Currency: "GBP"}}}},
		{"capreturn_isin", "2019-05-31 CAPRETURN GB00B3TYHH97 40 TOTAL 149.75 USD FEES 0",
			model.Transaction{Action: model.CapReturn, Ticker: "GB00B3TYHH97", Quantity: dec("40"),
				Total: model.Amount{Value: dec("149.75"), Currency: "USD"}, Fees: model.Amount{Currency: "GBP"}}},
		{"split", "2024-06-10 SPLIT NVDA RATIO 10", model.Transaction{Action: model.Split, Ticker: "NVDA", Event: &model.Event{Ratio: dec("10")}}},
		{"fractional_split", "2024-06-10 split abc ratio 1.5", model.Transaction{Action: model.Split, Ticker: "ABC", Event: &model.Event{Ratio: dec("1.5")}}},
		{"unsplit", "2024-06-10 UNSPLIT XYZ RATIO 5", model.Transaction{Action: model.Unsplit, Ticker: "XYZ", Event: &model.Event{Ratio: dec("5")}}},
		{"tabs_and_spaces", "2024-04-01\t\tBUY   AAPL\t1  @\t2  ",
			model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("1"), Price: model.Amount{Value: dec("2"), Currency: "GBP"}}},
		{"trailing_comment", "2024-04-01 BUY AAPL 1 @ 2 USD # first fill",
			model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("1"), Price: model.Amount{Value: dec("2"), Currency: "USD"}}},
		{"comment_touching_value", "2024-04-01 BUY AAPL 1 @ 2#note",
			model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("1"), Price: model.Amount{Value: dec("2"), Currency: "GBP"}}},
		{"long_decimal", "2024-04-01 BUY AAPL 1234567890.123456789012 @ 2",
			model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("1234567890.123456789012"), Price: model.Amount{Value: dec("2"), Currency: "GBP"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("l.cgt", []byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Date = got[0].Date
			sameTransactions(t, got, []model.Transaction{tt.want})
			if got[0].Source != (model.Source{File: "l.cgt", Line: 1, Index: -1}) {
				t.Errorf("source = %+v", got[0].Source)
			}
		})
	}
}

func TestParseSkipsBlankAndCommentLinesAndCountsThem(t *testing.T) {
	src := "\ufeff# header\r\n\r\n   \t\r\n2024-04-01 BUY A 1 @ 2\r\n# done\n2024-04-02 SELL A 1 @ 3"
	got, err := Parse("x.cgt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Source.Line != 4 || got[1].Source.Line != 6 {
		t.Fatalf("got %+v", got)
	}
	if got[1].Date.String() != "2024-04-02" {
		t.Errorf("date = %s", got[1].Date)
	}
}

func TestParseKeepsFileOrderNotDateOrder(t *testing.T) {
	got, err := Parse("", []byte("2024-05-01 SELL A 1 @ 3\n2024-04-01 BUY A 1 @ 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Action != model.Sell || got[1].Action != model.Buy {
		t.Fatalf("order changed: %+v", got)
	}
}

func TestParseEmptyInputHasNoTransactions(t *testing.T) {
	for _, src := range []string{"", "\n\n", "# nothing\n"} {
		got, err := Parse("", []byte(src))
		if err != nil || len(got) != 0 {
			t.Errorf("%q: got %v, %v", src, got, err)
		}
	}
}

func TestParseDateMatchesModel(t *testing.T) {
	for d := model.NewDate(1999, time.December, 25); d < model.NewDate(2031, time.March, 3); d += 37 {
		got, problem := parseDate([]byte(d.String()))
		if problem != dateOK || got != d {
			t.Fatalf("%s: got %v %v", d, got, problem)
		}
		if s := string(appendDate(nil, d)); s != d.String() {
			t.Fatalf("appendDate(%s) = %s", d, s)
		}
	}
	for _, s := range []string{"2000-02-29", "2024-02-29", "0001-01-01", "9999-12-31"} {
		want, err := model.ParseDate(s)
		got, problem := parseDate([]byte(s))
		if err != nil || problem != dateOK || got != want {
			t.Errorf("%s: got %v %v want %v %v", s, got, problem, want, err)
		}
	}
	for _, s := range []string{"2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00"} {
		if _, problem := parseDate([]byte(s)); problem != dateNotReal {
			t.Errorf("%s accepted", s)
		}
	}
}

func TestParseEveryFixtureLedger(t *testing.T) {
	total := 0
	for name, src := range fixtureLedgers(t) {
		txns, err := Parse(name, src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		lines := 0
		for _, l := range strings.Split(string(src), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				lines++
			}
		}
		if len(txns) != lines {
			t.Errorf("%s: %d transactions from %d lines", name, len(txns), lines)
		}
		total += len(txns)
	}
	if total == 0 {
		t.Fatal("no transactions read from the fixtures")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		code  string
		line  int
		col   int
		value string
		msg   string // a fragment the message must contain
	}{
		{"unknown_kind_suggests_nearest", "2024-01-01 BYU AAPL 1 @ 2", model.CodeParse, 1, 12, "BYU", `unknown transaction kind "BYU"`},
		{"unknown_kind_synonym", "2024-01-01 SOLD AAPL 1 @ 2", model.CodeParse, 1, 12, "SOLD", "unknown transaction kind"},
		{"kind_after_ticker", "2024-01-01 AAPL BUY 1 @ 2", model.CodeParse, 1, 12, "AAPL", "the kind BUY follows it"},
		{"missing_kind", "2024-01-01", model.CodeParse, 1, 11, "2024-01-01", "expected a transaction kind"},
		{"bad_date_form", "20/06/2024 BUY A 1 @ 2", model.CodeParse, 1, 1, "20/06/2024", "expected a date YYYY-MM-DD"},
		{"no_date", "BUY A 1 @ 2", model.CodeParse, 1, 1, "BUY", "instead of a date"},
		{"date_not_real", "2024-02-30 BUY A 1 @ 2", model.CodeValidation, 1, 1, "2024-02-30", "not a real calendar date"},
		{"missing_at", "2024-01-01 BUY AAPL 100 150.00", model.CodeParse, 1, 25, "150.00", `expected '@' after quantity, found "150.00"`},
		{"missing_price", "2024-01-01 BUY AAPL 100 @", model.CodeParse, 1, 26, "2024-01-01 BUY AAPL 100 @", "expected the price, found end of line"},
		{"missing_ticker", "2024-01-01 BUY @ 2", model.CodeParse, 1, 16, "@", "expected a ticker after BUY"},
		{"missing_quantity", "2024-01-01 BUY AAPL @ 2", model.CodeParse, 1, 21, "@", "expected the quantity"},
		{"bad_ticker_character", "2024-01-01 BUY AA$PL 1 @ 2", model.CodeParse, 1, 18, "AA$PL", "not allowed"},
		{"ticker_too_long", "2024-01-01 BUY " + strings.Repeat("A", 40) + " 1 @ 2", model.CodeParse, 1, 48, strings.Repeat("A", 40), "longer than 32"},
		{"unknown_currency", "2024-01-01 BUY AAPL 1 @ 2 XYZ", model.CodeValidation, 1, 27, "XYZ", `unknown currency "XYZ"`},
		{"testing_currency_rejected", "2024-01-01 BUY AAPL 1 @ 2 XTS", model.CodeValidation, 1, 27, "XTS", "unknown currency"},
		{"fee_typo", "2024-01-01 BUY AAPL 1 @ 2 FEE 1", model.CodeValidation, 1, 27, "FEE", "unknown currency"},
		{"negative_quantity", "2024-01-01 BUY AAPL -10 @ 2", model.CodeValidation, 1, 21, "-10", "amounts must be positive: quantity is -10"},
		{"zero_quantity", "2024-01-01 SELL AAPL 0 @ 2", model.CodeValidation, 1, 22, "0", "amounts must be positive"},
		{"zero_buy_price", "2024-01-01 BUY AAPL 1 @ 0.00", model.CodeValidation, 1, 25, "0.00", "amounts must be positive: price is 0.00"},
		{"negative_fees", "2024-01-01 BUY AAPL 1 @ 2 FEES -1", model.CodeValidation, 1, 32, "-1", "fees cannot be negative"},
		{"zero_dividend", "2024-01-01 DIVIDEND VOD TOTAL 0", model.CodeValidation, 1, 31, "0", "amounts must be positive"},
		{"negative_accumulation", "2024-01-01 ACCUMULATION F -1 TOTAL 0", model.CodeValidation, 1, 27, "-1", "cannot be negative"},
		{"zero_capreturn", "2024-01-01 CAPRETURN F 1 TOTAL 0", model.CodeValidation, 1, 32, "0", "amounts must be positive"},
		{"zero_ratio", "2024-01-01 SPLIT A RATIO 0", model.CodeValidation, 1, 26, "0", "ratio must be greater than zero"},
		{"pair_ratio", "2024-01-01 SPLIT A RATIO 2:1", model.CodeParse, 1, 26, "2:1", "ratio is one number"},
		{"fractional_consolidation", "2024-01-01 UNSPLIT A RATIO 2.5", model.CodeValidation, 1, 28, "2.5", "must be a whole number"},
		{"missing_ratio_keyword", "2024-01-01 SPLIT A 2", model.CodeParse, 1, 20, "2", "expected 'RATIO'"},
		{"missing_ticker_before_ratio", "2024-01-01 SPLIT RATIO 2", model.CodeParse, 1, 24, "2", "expected 'RATIO'"},
		{"dividend_with_quantity", "2024-01-01 DIVIDEND VOD 100 TOTAL 5", model.CodeParse, 1, 25, "100", "expected 'TOTAL'"},
		{"tax_on_a_trade", "2024-01-01 BUY A 1 @ 2 TAX 1", model.CodeParse, 1, 24, "TAX", "takes FEES, not TAX"},
		{"fees_on_a_dividend", "2024-01-01 DIVIDEND A TOTAL 2 FEES 1", model.CodeParse, 1, 31, "FEES", "takes TAX, not FEES"},
		{"trailing_garbage", "2024-01-01 SPLIT A RATIO 2 please", model.CodeParse, 1, 28, "please", `unexpected "please"`},
		{"thousands_separator", "2024-01-01 BUY A 1,000 @ 2", model.CodeParse, 1, 18, "1,000", "thousands separators"},
		{"exponent", "2024-01-01 BUY A 1e3 @ 2", model.CodeParse, 1, 18, "1e3", "exponents"},
		{"plus_sign", "2024-01-01 BUY A +1 @ 2", model.CodeParse, 1, 18, "+1", "no sign"},
		{"bare_point", "2024-01-01 BUY A .5 @ 2", model.CodeParse, 1, 18, ".5", "digits on both sides"},
		{"currency_glued", "2024-01-01 BUY A 1 @ 2USD", model.CodeParse, 1, 22, "2USD", "currency or unit is attached"},
		{"symbol_glued", "2024-01-01 BUY A 1 @ £2", model.CodeParse, 1, 22, "£2", "currency or unit is attached"},
		{"error_on_a_later_line", "2024-01-01 BUY A 1 @ 2\n\n# c\n2024-01-02 SELL A 1 @ x\n", model.CodeParse, 4, 23, "x", "not a plain decimal"},
		{"control_character", "2024-01-01 BUY A\x01 1 @ 2", model.CodeParse, 1, 17, `\x01`, "control character"},
		{"nul_bytes", "2024-01-01 BUY A 1 @ 2\n\x00\x00\x00\x00", model.CodeParse, 2, 1, `\x00`, "not a text ledger"},
		{"invalid_utf8", "2024-01-01 BUY A 1 @ 2 # caf\xe9", model.CodeParse, 1, 29, `\xe9`, "not UTF-8"},
		{"utf16", "\xff\xfe2\x000\x002\x004\x00", model.CodeParse, 1, 1, `\xff`, "not a text ledger"},
		{"column_counts_characters", "2024-01-01 BUY A 1 @ 2 # é\n2024-01-01 BUY é 1 @ 2", model.CodeParse, 2, 16, "é", "not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("led.cgt", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			e := asModelError(t, err)
			if e.Code != tt.code || e.Line != tt.line || e.Column != tt.col || e.Value != tt.value {
				t.Errorf("got code=%s line=%d col=%d value=%q, want %s %d %d %q (%s)", e.Code, e.Line, e.Column, e.Value, tt.code, tt.line, tt.col, tt.value, e.Message)
			}
			if !strings.Contains(e.Message, tt.msg) {
				t.Errorf("message %q lacks %q", e.Message, tt.msg)
			}
			if e.Value == "" {
				t.Error("no value")
			}
			checkAdvice(t, e)
		})
	}
}

// checkAdvice checks that an error says what to do and gives examples that themselves parse.
func checkAdvice(t *testing.T, e *model.Error) {
	t.Helper()
	if e.File != "led.cgt" || e.Hint == "" || len(e.Examples) == 0 {
		t.Errorf("file=%q hint=%q examples=%v", e.File, e.Hint, e.Examples)
	}
	for _, ex := range e.Examples {
		if _, err := Parse("example", []byte(ex)); err != nil {
			t.Errorf("example %q does not parse: %v", ex, err)
		}
	}
}

func TestParseHintsNameTheFix(t *testing.T) {
	tests := []struct{ src, hint string }{
		{"2024-01-01 BYU AAPL 1 @ 2", "did you mean BUY?"},
		{"2024-01-01 SOLD AAPL 1 @ 2", "did you mean SELL?"},
		{"2024-01-01 DIVIDENT A TOTAL 1", "did you mean DIVIDEND?"},
		{"2024-01-01 CONSOLIDATION A RATIO 2", "did you mean UNSPLIT?"},
		{"2024-01-01 BUY A 1 @ 2 FEE 1", "did you mean FEES?"},
		{"2024-01-01 BUY A 1,000 @ 2", "write 1000"},
		{"2024-01-01 BUY A 5. @ 2", "write 5"},
		{"2023-02-29 BUY A 1 @ 2", "2023-02 has 28 days"},
		{"2024-01-01 SPLIT RATIO 2", "the ticker seems to be missing"},
		{"2024-01-01 SELL A -5 @ 2", "SELL already means a disposal"},
	}
	for _, tt := range tests {
		_, err := Parse("", []byte(tt.src))
		if err == nil {
			t.Fatalf("%q: no error", tt.src)
		}
		if e := asModelError(t, err); !strings.Contains(e.Hint, tt.hint) {
			t.Errorf("%q: hint %q lacks %q", tt.src, e.Hint, tt.hint)
		}
	}
}

func TestParseRejectsHugeLineQuickly(t *testing.T) {
	// The bound is on work (allocations), not on time: a loaded machine makes timing flaky.
	src := bytes.Repeat([]byte("A"), 10<<20)
	allocs := testing.AllocsPerRun(1, func() {
		_, err := Parse("big.cgt", src)
		e := asModelError(t, err)
		if e.Line != 1 || e.Code != model.CodeParse || !strings.Contains(e.Message, "64 KiB") || len(e.Value) > 80 {
			t.Errorf("got %+v", e)
		}
	})
	if allocs > 20 {
		t.Errorf("%v allocations", allocs)
	}
	// A huge line after good lines is reported on its own line number.
	src = append([]byte("2024-01-01 BUY A 1 @ 2\n"), src...)
	e := asModelError(t, func() error { _, err := Parse("big.cgt", src); return err }())
	if e.Line != 2 {
		t.Errorf("line = %d", e.Line)
	}
}

func TestParseAcceptsLineAtTheLimit(t *testing.T) {
	line := "2024-01-01 BUY A 1 @ 2 #"
	line += strings.Repeat("x", MaxLineBytes-len(line))
	if _, err := Parse("", []byte(line+"\n"+line)); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("", []byte(line+"x")); err == nil {
		t.Fatal("line over the limit accepted")
	}
}

func TestParseBinaryGarbageGivesOneError(t *testing.T) {
	garbage := make([]byte, 1<<16)
	for i := range garbage {
		garbage[i] = byte(i*7 + i/3)
	}
	_, err := Parse("blob.bin", garbage)
	e := asModelError(t, err)
	if e.Code != model.CodeParse || e.Line != 1 || !strings.Contains(e.Message, "not a text ledger") {
		t.Fatalf("got %+v", e)
	}
}

func TestParseReadsCROnlyLineEnds(t *testing.T) {
	txns, err := Parse("cr.cgt", []byte("2024-04-01 BUY AAPL 10 @ 150 USD\r2024-05-01 SELL AAPL 5 @ 170 USD\r"))
	if err != nil || len(txns) != 2 || txns[1].Source.Line != 2 {
		t.Fatalf("got %v, %v", txns, err)
	}
}

// A file that is not a ledger (a .env, a private key, a CSV of passwords) is named with its
// line, and none of its text is quoted; a ledger with a mistake on its first line is quoted.
func TestErrorsQuoteNothingOfAFileThatIsNotALedger(t *testing.T) {
	secret := "SECRET-7f3a"
	notLedgers := map[string]string{
		".env":       "# settings\nOPENAI_API_KEY=sk-live-" + secret + "\nDB_PASSWORD=x\n",
		"id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1" + secret + "\n-----END OPENSSH PRIVATE KEY-----\n",
		"creds.csv":  "bob," + secret + ",admin\n",
		"token":      secret + "\n",
		"long":       strings.Repeat(secret, MaxLineBytes/len(secret)+1) + "\n",
		"config.ini": "\n\n[server]\npassword = " + secret + "\n",
	}
	for name, text := range notLedgers {
		_, err := Parse(name, []byte(text))
		var me *model.Error
		if !errors.As(err, &me) {
			t.Fatalf("%s: got %v, want an error", name, err)
		}
		all := fmt.Sprintf("%s %s %s %v %v", me.Message, me.Hint, me.Value, me.Context, me.Examples)
		if strings.Contains(all, secret) || strings.Contains(all, "BEGIN") || strings.Contains(all, "OPENAI") || strings.Contains(all, "server") {
			t.Errorf("%s: the error quotes the file: %q", name, all)
		}
		if me.File != name || me.Line <= 0 {
			t.Errorf("%s: error names %s:%d", name, me.File, me.Line)
		}
	}
	ledgers := map[string]string{
		"typo.cgt":  "2024-13-01 BUY A 1 @ 2\n",
		"words.cgt": "BUY VOD.L 10 @ 1.20\n",
		"uk.cgt":    "20/06/2024 BUY A 1 @ 2\n",
		"later.cgt": "2024-01-01 BUY A 1 @ 2\nOOPS A 1\n",
	}
	for name, text := range ledgers {
		_, err := Parse(name, []byte(text))
		var me *model.Error
		if !errors.As(err, &me) || me.Value == "" {
			t.Errorf("%s: %v, want an error quoting the line at fault", name, err)
		}
	}
}

func TestJSONFileThatIsNotALedgerIsNotQuoted(t *testing.T) {
	for _, text := range []string{`["sk-live-SECRET"]`, `[{"token": "SECRET"}]`, `[["SECRET"]]`} {
		_, err := ParseAuto("keys.json", []byte(text))
		var me *model.Error
		if !errors.As(err, &me) || strings.Contains(fmt.Sprintf("%s %s %v", me.Message, me.Value, me.Context), "SECRET") {
			t.Errorf("%s: %v", text, err)
		}
	}
	_, err := ParseAuto("ledger.json", []byte(`[{"date": "2024-01-01", "action": "BYU"}]`))
	var me *model.Error
	if !errors.As(err, &me) || !strings.Contains(me.Message+me.Value, "BYU") {
		t.Errorf("a JSON ledger's mistake is not quoted: %v", err)
	}
}
