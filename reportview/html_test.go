package reportview

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/records"
)

// pounds writes what records.Pounds writes, without parsing the amount again.
func TestPoundsAsRecordsPounds(t *testing.T) {
	for _, s := range []string{"0.00", "5.10", "-54.90", "999.99", "1000.00", "-1234567.89", "12345678901234.01", "0.5", "-0.00", "100"} {
		m := model.NewMoney(decimal.RequireFromString(s))
		if got, want := pounds(m), esc(records.Pounds(m.String())); got != want {
			t.Errorf("pounds(%s) = %q, want %q", s, got, want)
		}
	}
}

// A pool of thousands of events is drawn with at most one step per unit of the chart's width,
// from its first state to its last.
func TestPoolChartBoundsItsPoints(t *testing.T) {
	p := engine.PoolHistory{Ticker: "BIG"}
	for i := 0; i < 5000; i++ {
		p.Events = append(p.Events, engine.PoolEvent{Date: model.Date(19000 + i),
			Quantity: model.NewDecimal(decimal.NewFromInt(int64(i + 1))), Cost: model.NewMoney(decimal.NewFromInt(int64(10 * (i + 1))))})
	}
	svg := poolChart(p)
	paths := strings.Count(svg, " L") + strings.Count(svg, " M")
	if paths > 4*maxChartPoints+8 {
		t.Errorf("%d path commands for 5000 events, want at most %d", paths, 4*maxChartPoints+8)
	}
	for _, want := range []string{fmt.Sprint(p.Events[0].Date), fmt.Sprint(p.Events[4999].Date), "shares (up to 5,000)", "cost (up to £50,000.00)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}

func TestEscEscapesOnlyWhatItMust(t *testing.T) {
	for in, want := range map[string]string{"2024-06-20": "2024-06-20", `<b a="x">&'`: "&lt;b a=&#34;x&#34;&gt;&amp;&#39;"} {
		if got := esc(in); got != want {
			t.Errorf("esc(%q) = %q, want %q", in, got, want)
		}
	}
}

// esc writes what html.EscapeString writes.
func TestEscAsHTMLEscapeString(t *testing.T) {
	for _, in := range []string{"", "plain", "<<>>", "a&b", `"'"`, "&amp;", "€ < £ & ſ", "\xff<\xfe", "<script>alert('x')</script>"} {
		if got, want := esc(in), html.EscapeString(in); got != want {
			t.Errorf("esc(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for in, want := range map[string]string{"0": "0", "999": "999", "1000": "1,000", "1234567.89": "1,234,567.89", "-123456": "-123,456", "-12": "-12"} {
		if got := thousands(in); got != want {
			t.Errorf("thousands(%q) = %q, want %q", in, got, want)
		}
	}
}
