package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestFindDisposalsByDayAndTicker(t *testing.T) {
	rep := mustCalc(t, Options{},
		tx("2024-04-01", model.Buy, "AAA", q("10"), at("10"), fees("1")),
		tx("2024-04-01", model.Buy, "BBB", q("10"), at("10")),
		tx("2024-06-20", model.Sell, "AAA", q("4"), at("15"), fees("1")),
		tx("2024-07-01", model.Sell, "AAA", q("1"), at("15")),
		tx("2024-07-01", model.Sell, "BBB", q("1"), at("15")),
	)
	for _, c := range []struct {
		name, date, ticker, code, want string
	}{
		{"the_days_one_disposal", "2024-06-20", "", "", "AAA"},
		{"ticker_given", "2024-07-01", "BBB", "", "BBB"},
		{"several_that_day", "2024-07-01", "", model.CodeInvalidArgument, "2 securities were disposed of"},
		{"none_that_day", "2024-07-02", "", model.CodeNotFound, "no disposal on 2024-07-02"},
		{"not_that_ticker", "2024-06-20", "BBB", model.CodeNotFound, "no disposal of BBB on 2024-06-20"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, _ := model.ParseDate(c.date)
			found, err := rep.FindDisposals(d, c.ticker)
			var me *model.Error
			switch {
			case c.code == "" && (err != nil || found[0].Ticker != c.want):
				t.Fatalf("FindDisposals = %v, %v; want %s", found, err, c.want)
			case c.code != "" && (!errors.As(err, &me) || me.Code != c.code || !strings.Contains(me.Message, c.want)):
				t.Fatalf("FindDisposals error = %v, want %s %q", err, c.code, c.want)
			}
		})
	}
}

// The explanation ends with the allowable cost as the sum of its parts as shown.
func TestExplainEndsWithTheAllowableCostAndGain(t *testing.T) {
	rep := mustCalc(t, Options{},
		tx("2024-04-01", model.Buy, "AAA", q("10"), at("10"), fees("1")),
		tx("2024-06-20", model.Sell, "AAA", q("4"), at("15"), fees("1")),
	)
	d, _ := model.ParseDate("2024-06-20")
	found, err := rep.FindDisposals(d, "AAA")
	if err != nil {
		t.Fatal(err)
	}
	lines := Explain("2024/25", found[0])
	if !strings.HasPrefix(lines[0], "Disposal of 4 AAA on 2024-06-20 (tax year 2024/25)") {
		t.Errorf("first line %q", lines[0])
	}
	if last := lines[len(lines)-1]; last != "Allowable cost £41.40 (identified cost £40.40 + sale fees £1.00), gain £18.60." {
		t.Errorf("last line %q", last)
	}
}
