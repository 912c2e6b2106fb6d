package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestFilterRefusesWhatMatchesNothing(t *testing.T) {
	txns := []model.Transaction{
		{Date: filterDay("2024-04-01"), Ticker: "AAPL"},
		{Date: filterDay("2024-06-20"), Ticker: "VOD.L"},
	}
	for _, c := range []struct {
		name string
		f    Filter
		code string
	}{
		{"no_filter", Filter{}, ""},
		{"known_ticker", Filter{Tickers: map[string]bool{"AAPL": true}}, ""},
		{"ticker_not_in_ledger", Filter{Tickers: map[string]bool{"APPL": true}}, model.CodeNotFound},
		{"dates_overlap", Filter{From: filterDay("2024-05-01"), HasFrom: true}, ""},
		{"dates_around_nothing", Filter{From: filterDay("2025-01-01"), HasFrom: true}, model.CodeInvalidArgument},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.f.Check(txns)
			var me *model.Error
			switch {
			case c.code == "" && err != nil:
				t.Fatalf("Check = %v, want nil", err)
			case c.code != "" && (!errors.As(err, &me) || me.Code != c.code):
				t.Fatalf("Check = %v, want %s", err, c.code)
			}
		})
	}
	err := Filter{Tickers: map[string]bool{"APPL": true}}.Check(txns)
	if me := (*model.Error)(nil); errors.As(err, &me) && me.Examples[0] != `{"ticker":"AAPL"}` {
		t.Errorf("the example is %q, want the nearest ticker", me.Examples[0])
	}
	// Two tickers written with a space are one ticker no ledger has: the error says to
	// separate them with commas (and a word that is no ticker gets the nearest instead).
	err = Filter{Tickers: map[string]bool{"AAPL VOD.L": true}}.Check(txns)
	var me *model.Error
	if !errors.As(err, &me) || !strings.Contains(me.Hint, "Separate tickers with commas: ticker=AAPL,VOD.L.") || me.Examples[0] != `{"ticker":["AAPL","VOD.L"]}` {
		t.Errorf("a list with a space: %+v", me)
	}
	err = Filter{Tickers: map[string]bool{"AAPL VODL": true}}.Check(txns)
	if !errors.As(err, &me) || strings.Contains(me.Hint, "Separate tickers") {
		t.Errorf("a list with a word that is no ticker: %+v", me)
	}
}

func filterDay(s string) model.Date {
	d, err := model.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}
