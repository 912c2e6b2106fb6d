package imports

import (
	"strings"
	"testing"
)

func TestInvestEngineSamples(t *testing.T) { runSamples(t, "investengine", "investengine") }

const investEngineHead = "Security / ISIN,Transaction Type,Quantity,Share Price,Total Trade Value,Trade Date/Time,Settlement Date,Broker\r\n"

func TestInvestEngineRowMeanings(t *testing.T) {
	checkRows(t, "investengine", investEngineHead, []rowCase{
		{"buy_is_the_sterling_paid_on_the_trade_date",
			"Vanguard FTSE All-World / ISIN IE00BK5BQT80,Buy,2.699055,£110.79,£299.04,23/12/24 15:18:12,27/12/24,None\r\n",
			[]string{"2024-12-23 BUY IE00BK5BQT80 qty=2.699055 total=299.04 GBP isin=IE00BK5BQT80 name=Vanguard FTSE All-World (row 2)"}, nil},
		{"sell_with_thousands_separator",
			"Vanguard FTSE All-World / ISIN IE00BK5BQT80,Sell,10.696127,£102.22,\"£1,093.41\",30/04/25 14:13:11,02/05/25,None",
			[]string{"2025-04-30 SELL IE00BK5BQT80 qty=10.696127 total=1093.41 GBP isin=IE00BK5BQT80 name=Vanguard FTSE All-World (row 2)"}, nil},
		{"unknown_type_is_a_warning",
			"Vanguard FTSE All-World / ISIN IE00BK5BQT80,Transfer In,3,£100,£300,30/04/25 14:13:11,02/05/25,None\r\n",
			nil, []string{"unknown"}},
	})
}

func TestInvestEngineErrors(t *testing.T) {
	checkErrors(t, "investengine", []errCase{
		{"non_number_in_quantity", investEngineHead + "X / ISIN IE00BK5BQT80,Buy,two,£1,£2,23/12/24 15:18:12,27/12/24,None\n", []string{`"Quantity"`, "two"}},
		{"bad_date", investEngineHead + "X / ISIN IE00BK5BQT80,Buy,2,£1,£2,2024-12-23,27/12/24,None\n", []string{`"Trade Date/Time"`, "2024-12-23"}},
		{"truncated_row", investEngineHead + "X / ISIN IE00BK5BQT80,Buy\n", []string{"cut short"}},
		{"semicolons", strings.ReplaceAll(investEngineHead, ",", ";") + "x\n", []string{"semicolons"}},
	})
}

func FuzzInvestEngine(f *testing.F) {
	f.Add([]byte(investEngineHead + "Vanguard FTSE All-World / ISIN IE00BK5BQT80,Buy,2.699055,£110.79,£299.04,23/12/24 15:18:12,27/12/24,None\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "investengine", src) })
}
