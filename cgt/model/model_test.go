package model

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseDate(t *testing.T) {
	for s, ok := range map[string]bool{"2024-02-29": true, "2023-02-29": false, "2024-02-30": false, "2024-4-01": false, "24-04-01": false, "2024-13-01": false} {
		d, err := ParseDate(s)
		if (err == nil) != ok {
			t.Errorf("ParseDate(%s): err=%v", s, err)
		}
		if ok && d.String() != s {
			t.Errorf("round trip of %s gave %s", s, d)
		}
	}
	d, _ := ParseDate("2024-06-20")
	if d.AddDays(30).String() != "2024-07-20" || d.Year() != 2024 || d.Month() != 6 || d.Day() != 20 {
		t.Errorf("date arithmetic wrong: %s", d.AddDays(30))
	}
}

func TestMoneyRoundsHalfAwayFromZeroAndRefusesNull(t *testing.T) {
	for in, want := range map[string]string{"1.005": "1.01", "-1.005": "-1.01", "2.004": "2.00", "7": "7.00"} {
		if got := NewMoney(decimal.RequireFromString(in)).String(); got != want {
			t.Errorf("Money(%s) = %s, want %s", in, got, want)
		}
	}
	var m Money
	if err := json.Unmarshal([]byte("null"), &m); err == nil {
		t.Error("null money must be refused")
	}
	if err := json.Unmarshal([]byte(`"12.5"`), &m); err != nil || m.String() != "12.50" {
		t.Errorf("string money: %v %s", err, m)
	}
	var q Decimal
	if err := json.Unmarshal([]byte("null"), &q); err == nil {
		t.Error("null decimal must be refused")
	}
	if b, _ := json.Marshal(NewDecimal(decimal.RequireFromString("4.1565"))); string(b) != `"4.1565"` {
		t.Errorf("decimal keeps its exact scale: %s", b)
	}
}

// A trade has no event fields: the methods give zero values. SetEvent changes one copy of a
// transaction without touching the others, which share the fields it had, and an edit that
// leaves every field zero leaves none.
func TestEventFieldsAreZeroForATradeAndChangedOnACopy(t *testing.T) {
	trade := Transaction{Action: Buy, Ticker: "VOD"}
	if trade.Tax() != (Amount{}) || !trade.Ratio().IsZero() || trade.NewTicker() != "" || trade.Cost() != (Amount{}) ||
		trade.Cash() != (Amount{}) || trade.Value() != (Amount{}) || trade.AccountType() != "" || !trade.Event.IsZero() {
		t.Errorf("a trade's event fields are not zero: %+v", trade.Event)
	}
	tax := Amount{Value: NewDecimal(decimal.RequireFromString("1.50")), Currency: GBP}
	div := Transaction{Action: Dividend, Ticker: "VOD", Event: &Event{Tax: tax}}
	copied := div
	copied.SetEvent(func(e *Event) { e.Tax.Value = NewDecimal(decimal.RequireFromString("2.00")) })
	if div.Tax() != tax {
		t.Errorf("SetEvent on a copy changed the original's tax to %v", div.Tax().Value)
	}
	if got := copied.Tax().Value.String(); got != "2" {
		t.Errorf("the copy's tax is %s, want 2", got)
	}
	copied.SetEvent(func(e *Event) { *e = Event{} })
	if copied.Event != nil {
		t.Errorf("an edit that clears every field left %+v", copied.Event)
	}
}
