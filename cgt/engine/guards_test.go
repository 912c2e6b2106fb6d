package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
)

// Each typo ledger gets its warning (and only the warnings listed), its result still
// computed; a clean ledger gets none. A ledger here ends well after its last sale, unless it
// tests the open 30-day window, so that check stays quiet.
func TestGuardWarnings(t *testing.T) {
	tests := []struct {
		name   string
		ledger string
		want   [][]string // per warning, in order: the parts it contains
	}{
		{"clean_ledger_has_no_warnings", `
2024-01-10 BUY AAPL 100 @ 150.00 USD FEES 5 USD
2024-02-01 SPLIT AAPL RATIO 2
2024-03-01 SELL AAPL 50 @ 80.00 USD
2024-03-15 BUY VOD 1000 @ 0.72
2024-04-20 SELL VOD 500 @ 0.75
2024-05-01 ACCUMULATION VWRL 10 TOTAL 5
2024-04-01 BUY VWRL 10 @ 100
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`, nil},
		{"split_of_a_typo_ticker_suggests_the_held_one", `
2024-01-10 BUY AAPL 100 @ 150.00 USD
2024-02-01 SPLIT APPL RATIO 4
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`,
			[][]string{{"test.cgt line 2: SPLIT APPL on 2024-02-01", "no shares of APPL are held", "Did you mean AAPL?"}}},
		{"unsplit_of_a_typo_ticker_suggests_the_held_one", `
2024-01-10 BUY VWRL 100 @ 90
2024-02-01 UNSPLIT VWRK RATIO 10`,
			[][]string{{"line 2", "UNSPLIT VWRK", "Did you mean VWRL?"}}},
		{"split_before_the_first_purchase_changes_nothing", `
2024-01-10 SPLIT TSLA RATIO 3
2024-02-01 BUY TSLA 10 @ 200 USD`,
			[][]string{{"line 1", "SPLIT TSLA", "no shares of TSLA are held on that date, so it changes nothing."}}},
		{"sale_without_currency_of_shares_bought_in_dollars", `
2024-01-10 BUY AAPL 100 @ 150.00 USD
2024-03-01 SELL AAPL 50 @ 180.00
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`,
			[][]string{{"line 2", "SELL AAPL on 2024-03-01 has no currency, so it is read as pounds", "are in USD", "Did you mean @ 180.00 USD?"}}},
		{"sale_in_dollars_of_shares_bought_without_currency", `
2024-01-10 BUY AAPL 100 TOTAL 15000
2024-03-01 SELL AAPL 50 TOTAL 9000 USD
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`,
			[][]string{{"line 2", "is in USD", "have no currency", "write TOTAL 9000 GBP"}}},
		{"pounds_written_as_gbp_are_deliberate", `
2024-01-10 BUY AAPL 100 @ 150.00 USD
2024-03-01 SELL AAPL 50 @ 120.00 GBP
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`, nil},
		{"pence_written_as_pounds_among_pounds", `
2024-01-10 BUY VOD 1000 @ 0.72
2024-02-10 BUY VOD 1000 @ 71.80
2024-03-01 SELL VOD 500 @ 0.75
2024-09-01 DIVIDEND VOD TOTAL 10`,
			[][]string{{"line 2", "BUY VOD on 2024-02-10 at 71.80 GBP a share is about 100 times", "line 1: 0.72 GBP on 2024-01-10",
				"line 3: 0.75 GBP on 2024-03-01", "write 71.80 GBX (or 0.718, the pound figure)"}}},
		{"pence_written_as_pounds_in_the_total_form", `
2024-01-10 BUY VWRL 10 TOTAL 1000
2024-02-10 BUY VWRL 10 TOTAL 100000
2024-03-01 BUY VWRL 10 TOTAL 1010
2024-09-01 DIVIDEND VWRL TOTAL 10`,
			[][]string{{"line 2", "at 10000 GBP a share is about 100 times", "line 1: 100 GBP", "line 3: 101 GBP"}}},
		{"pounds_among_pence_written_as_pounds", `
2024-01-10 BUY VOD 1000 @ 72
2024-02-10 BUY VOD 1000 @ 0.71
2024-03-01 BUY VOD 500 @ 73
2024-09-01 DIVIDEND VOD TOTAL 10`,
			[][]string{{"line 2", "about a hundredth of the price of the trades beside it", "write 72 GBX"}}},
		{"a_hundredfold_step_names_both_trades", `
2024-01-10 BUY VOD 1000 @ 0.72
2024-02-10 SELL VOD 500 @ 74
2024-09-01 DIVIDEND VOD TOTAL 10`,
			[][]string{{"line 2", "changes about a hundredfold from line 1: 0.72 GBP on 2024-01-10 to line 2: 74 GBP on 2024-02-10",
				"missing consolidation", "write 74 GBX"}}},
		{"cents_written_as_dollars", `
2024-01-10 BUY AAPL 100 @ 150 USD
2024-02-10 BUY AAPL 100 @ 15000 USD
2024-03-01 BUY AAPL 100 @ 152 USD
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`,
			[][]string{{"line 2", "15000 USD a share is about 100 times", "cents) written as whole USD?", "If 15000 is in hundredths of USD (cents), write 150 USD"}}},
		{"a_recorded_consolidation_explains_the_jump", `
2024-01-10 BUY VOD 10000 @ 0.72
2024-02-01 UNSPLIT VOD RATIO 100
2024-02-10 SELL VOD 50 @ 74
2024-09-01 DIVIDEND VOD TOTAL 10`, nil},
		{"a_price_in_pence_years_after_the_purchase_warns", `
2019-06-03 BUY XYZ 100 @ 86.10
2024-09-12 SELL XYZ 100 @ 8845
2024-12-01 DIVIDEND XYZ TOTAL 10`,
			[][]string{{"line 2: SELL XYZ on 2024-09-12", "hundredfold", "If 8845 is in pence, write 8845 GBX (or 88.45, the pound figure)"}}},
		{"a_consolidation_years_between_explains_a_hundredfold_price", `
2018-01-10 BUY XYZ 1000 @ 0.50
2021-03-01 UNSPLIT XYZ RATIO 100
2024-09-12 SELL XYZ 10 @ 61.20
2024-12-01 DIVIDEND XYZ TOTAL 10`, nil},
		{"a_negligible_value_claim_starts_the_prices_afresh", `
2018-01-10 BUY BUST 1000 @ 2.50
2024-11-20 NEGLIGIBLE BUST
2025-02-01 SELL BUST 1000 @ 0.02
2025-04-01 DIVIDEND BUST TOTAL 1`, [][]string{{"NEGLIGIBLE BUST on 2024-11-20: the deemed sale gives a loss of £2500.00, counted in 2024/25"}}},
		{"a_tenfold_move_is_left_alone", `
2024-01-10 BUY MEME 1000 @ 0.50
2024-02-10 SELL MEME 500 @ 5
2024-09-01 DIVIDEND MEME TOTAL 10`, nil},
		{"a_sale_near_the_end_with_its_window_open", `
2024-01-10 BUY ABC 100 @ 10
2024-06-01 SELL ABC 50 @ 12
2024-06-10 DIVIDEND ABC TOTAL 1`,
			[][]string{{"line 2", "line 2: SELL ABC on 2024-06-01 is less than 30 days before the ledger's last date (2024-06-10)",
				"a purchase of ABC up to 2024-07-01", "TCGA92 s106A(5)"}}},
		{"a_sale_near_the_end_matched_in_full_in_30_days_is_settled", `
2024-01-10 BUY ABC 100 @ 10
2024-06-01 SELL ABC 50 @ 12
2024-06-10 BUY ABC 50 @ 11`, nil},
		{"accumulation_on_more_units_than_held", `
2024-01-10 BUY VWRL 100 @ 90
2024-03-31 ACCUMULATION VWRL 120 TOTAL 12.00
2024-09-01 DIVIDEND VWRL TOTAL 10`,
			[][]string{{"line 2", "ACCUMULATION VWRL on 2024-03-31 is for 120 units, but 100 are held", "£12.00"}}},
		{"warnings_come_in_ledger_order", `
2024-01-10 BUY AAPL 100 @ 150.00 USD
2024-02-01 SPLIT APPL RATIO 4
2024-03-01 SELL AAPL 50 @ 180.00
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`,
			[][]string{{"line 2", "Did you mean AAPL?"}, {"line 3", "Did you mean @ 180.00 USD?"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustRun(t, tc.ledger, Options{Rates: fx.Embedded()})
			if len(rep.Warnings) != len(tc.want) {
				t.Fatalf("got %d warnings, want %d:\n%s", len(rep.Warnings), len(tc.want), strings.Join(rep.Warnings, "\n"))
			}
			for i, parts := range tc.want {
				for _, p := range parts {
					if !strings.Contains(rep.Warnings[i], p) {
						t.Errorf("warning %d %q does not contain %q", i, rep.Warnings[i], p)
					}
				}
			}
		})
	}
}

// A warning leaves the figures as they would be without it.
func TestGuardWarningsDoNotChangeTheResult(t *testing.T) {
	rep := mustRun(t, `
2024-01-10 BUY AAPL 100 @ 150.00 USD
2024-02-01 SPLIT APPL RATIO 4
2024-03-01 SELL AAPL 50 @ 180.00
2024-09-01 DIVIDEND AAPL TOTAL 10 USD`, Options{Rates: fx.Embedded()})
	d := disposals(rep)
	if len(d) != 1 || d[0].Quantity.String() != "50" || d[0].Proceeds.String() != "9000.00" {
		t.Fatalf("disposals %+v", d)
	}
}

// A line about a ticker the ledger never held before its date is an error whose hint names
// the held tickers nearest to it; one about a ticker held before keeps its hint as it was.
func TestGuardErrorsSuggestHeldTickers(t *testing.T) {
	tests := []struct {
		name    string
		ledger  string
		line    int
		hint    string   // the hint starts with this
		suggest []string // context did_you_mean
	}{
		{"sale_of_a_typo_ticker", `
2024-01-10 BUY AAPL 100 @ 150
2024-01-11 BUY MSFT 100 @ 300
2024-03-01 SELL APPL 50 @ 180`, 3, "APPL is not held before 2024-03-01: did you mean AAPL? ", []string{"AAPL"}},
		{"sale_of_a_ticker_without_its_exchange_suffix", `
2024-01-10 BUY VWRL.L 100 @ 90
2024-03-01 SELL VWRL 50 @ 95`, 2, "VWRL is not held before 2024-03-01: did you mean VWRL.L? ", []string{"VWRL.L"}},
		{"nearest_first", `
2024-01-10 BUY ABCD 1 @ 1
2024-01-10 BUY ABCE 1 @ 1
2024-01-10 BUY ABDC 1 @ 1
2024-01-10 BUY ABC 1 @ 1
2024-03-01 SELL ABCF 1 @ 1`, 5, "ABCF is not held before 2024-03-01: did you mean ABC, ABCD or ABCE? ", []string{"ABC", "ABCD", "ABCE"}},
		{"sale_of_an_unknown_ticker_names_the_few_held", `
2024-01-10 BUY MSFT 100 @ 300
2024-03-01 SELL ZZZZ 50 @ 180`, 2, "ZZZZ is not held before 2024-03-01; the ledger holds MSFT. ", nil},
		{"accumulation_of_a_typo_ticker", `
2024-01-10 BUY VWRL 100 @ 90
2024-03-31 ACCUMULATION VWLR 100 TOTAL 12`, 2, "VWLR is not held before 2024-03-31: did you mean VWRL? ", []string{"VWRL"}},
		{"takeover_of_a_typo_ticker", `
2024-01-10 BUY OLDCO 100 @ 9
2024-03-31 TAKEOVER OLDC NEWCO 50`, 2, "OLDC is not held before 2024-03-31: did you mean OLDCO? ", []string{"OLDCO"}},
		{"capreturn_of_a_typo_ticker", `
2024-01-10 BUY VWRL 100 @ 90
2024-03-31 CAPRETURN VWLR 100 TOTAL 12`, 2, "VWLR is not held before 2024-03-31: did you mean VWRL? ", []string{"VWRL"}},
		{"rights_of_a_typo_ticker", `
2024-01-10 BUY BARC 100 @ 2
2024-03-31 RIGHTS BRAC 20 @ 1.50`, 2, "BRAC is not held before 2024-03-31: did you mean BARC? ", []string{"BARC"}},
		{"eri_of_a_typo_ticker", `
2024-01-10 BUY VUSA 100 @ 60
2024-12-31 ERI VUAS 100 TOTAL 12.34`, 2, "VUAS is not held before 2024-12-31: did you mean VUSA? ", []string{"VUSA"}},
		{"spouseout_of_a_typo_ticker", `
2024-01-10 BUY LLOY 100 @ 0.5
2024-03-31 SPOUSEOUT LOLY 100`, 2, "LOLY is not held before 2024-03-31: did you mean LLOY? ", []string{"LLOY"}},
		{"sale_before_the_purchase_it_meant", `
2024-03-01 SELL ABC 5 @ 2
2024-03-10 BUY ABC 5 @ 1`, 1, "ABC is not held before 2024-03-01. ", nil},
		{"sale_of_a_ticker_sold_out_keeps_its_hint", `
2024-01-10 BUY ABC 5 @ 1
2024-01-11 BUY ABD 5 @ 1
2024-02-10 SELL ABC 5 @ 2
2024-03-10 SELL ABC 5 @ 2`, 4, "check for a missing BUY", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, tc.ledger, Options{})
			me := wantError(t, err, model.CodeValidation, tc.line)
			if !strings.HasPrefix(me.Hint, tc.hint) {
				t.Errorf("hint %q does not start with %q", me.Hint, tc.hint)
			}
			got, _ := me.Context["did_you_mean"].([]string)
			if !slices.Equal(got, tc.suggest) {
				t.Errorf("did_you_mean %v, want %v", got, tc.suggest)
			}
		})
	}
}

func TestNearTickers(t *testing.T) {
	held := func(names ...string) []heldTicker {
		out := make([]heldTicker, len(names))
		for i, n := range names {
			out[i] = heldTicker{name: n}
		}
		return out
	}
	tests := []struct {
		name  string
		typed string
		held  []heldTicker
		want  []string
	}{
		{"swapped_letters_are_one_edit", "APPL", held("AAPL", "MSFT"), []string{"AAPL"}},
		{"transposition", "AAPL", held("APAL"), []string{"APAL"}},
		{"one_letter_missing", "VOD", held("VODL", "BARC"), []string{"VODL"}},
		{"exchange_suffix_shares_the_prefix", "VWRL", held("VWRL.L"), []string{"VWRL.L"}},
		{"longer_names_allow_two_edits", "GOOGLE", held("GOOGL", "GOGGLE2"), []string{"GOOGL", "GOGGLE2"}},
		{"the_name_itself_is_not_a_suggestion", "ABC", held("ABC"), []string{}},
		{"nothing_near", "ZZZZ", held("AAPL", "MSFT"), []string{}},
		{"two_letter_prefix_is_not_enough", "BATS", held("BARC"), []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := nearTickers(tc.typed, tc.held); !slices.Equal(got, tc.want) {
				t.Errorf("nearTickers(%q) = %v, want %v", tc.typed, got, tc.want)
			}
		})
	}
}

func TestHundredfold(t *testing.T) {
	for _, tc := range []struct {
		x, y string
		want int
	}{
		{"100", "1", 1}, {"1", "100", -1}, {"34", "1", 1}, {"33", "1", 0}, {"300", "1", 1}, {"301", "1", 0},
		{"10", "1", 0}, {"1", "1", 0}, {"0.7180", "71.80", -1},
	} {
		x, y := numOfDecimal(model.DecimalFromString(tc.x)), numOfDecimal(model.DecimalFromString(tc.y))
		if got := hundredfold(x, y); got != tc.want {
			t.Errorf("hundredfold(%s, %s) = %d, want %d", tc.x, tc.y, got, tc.want)
		}
	}
}

// The acceptance fixtures are real ledgers without typos: none of them gets a warning from
// the checks other than the open 30-day window of a sale near its last date (most of them end
// with a sale, and the check cannot know that no purchase followed).
func TestAcceptanceFixturesGetNoTypoWarnings(t *testing.T) {
	for _, name := range fixtureCases(t) {
		rep := calculateFixture(t, name)
		for _, w := range rep.Warnings {
			if !strings.Contains(w, "less than 30 days before the ledger's last date") {
				t.Errorf("%s: %s", name, w)
			}
		}
	}
}

// A ledger with many prices off their neighbours lists the first ones and counts the rest.
func TestPriceWarningsAreCapped(t *testing.T) {
	var b strings.Builder
	d := model.NewDate(2024, 1, 1)
	for i := range 51 { // pounds, pence written as pounds, pounds, ...: 25 prices off both neighbours
		price := "0.70"
		if i%2 == 1 {
			price = "71"
		}
		b.WriteString(d.AddDays(i).String() + " BUY VOD 10 @ " + price + "\n")
	}
	b.WriteString("2024-12-01 DIVIDEND VOD TOTAL 1\n")
	rep := mustRun(t, b.String(), Options{})
	if len(rep.Warnings) != maxPriceWarnings+1 {
		t.Fatalf("got %d warnings, want %d:\n%s", len(rep.Warnings), maxPriceWarnings+1, strings.Join(rep.Warnings, "\n"))
	}
	if last := rep.Warnings[maxPriceWarnings]; !strings.HasPrefix(last, "5 more trades whose price is about 100 times") {
		t.Errorf("last warning %q does not count the rest", last)
	}
	if !strings.HasPrefix(rep.Warnings[0], "test.cgt line 2: BUY VOD on 2024-01-02 at 71 GBP a share is about 100 times") {
		t.Errorf("first warning %q", rep.Warnings[0])
	}
}

// The pending-match warning speaks of windows still open today: with today known, a sale
// whose 30 days ran out before it is history the ledger records; one still inside them warns.
func TestPendingMatchWarningKnowsToday(t *testing.T) {
	ledger := "2024-01-10 BUY ABC 100 @ 10\n2024-06-01 SELL ABC 50 @ 12\n2024-06-10 DIVIDEND ABC TOTAL 1"
	for _, tc := range []struct {
		name  string
		today model.Date
		warns bool
	}{
		{"today_unknown_the_ledger_end_stands_in", 0, true},
		{"today_inside_the_window", model.NewDate(2024, 6, 20), true},
		{"today_on_the_last_day_of_the_window", model.NewDate(2024, 7, 1), true},
		{"today_after_the_window", model.NewDate(2024, 7, 2), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustRun(t, ledger, Options{Today: tc.today})
			got := strings.Contains(strings.Join(rep.Warnings, "\n"), "less than 30 days before")
			if got != tc.warns {
				t.Errorf("warning given = %v, want %v: %q", got, tc.warns, rep.Warnings)
			}
		})
	}
}
