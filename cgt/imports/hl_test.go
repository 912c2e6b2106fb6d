package imports

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestHLSamples(t *testing.T) { runSamples(t, "hl", "hl") }

// hlHead is the preamble and header as HL writes them: Windows-1252, £ as byte 0xA3.
const hlHead = "Transaction Summary, , , ,\r\nClient Name:,Anonymous User, , ,\r\nClient Number:,1234567, , ,\r\n" +
	"Valuation as at,09-08-2026 16:40, , ,\r\n\r\nTrade date,Settle date,Reference,Description,Unit cost (p),Quantity,Value (\xa3),\r\n"

func TestHLRowMeanings(t *testing.T) {
	cases := []struct{ name, rows, want, skip string }{
		{"buy_value_is_the_sterling_paid",
			`"24/01/2026","26/01/2026","B302087054","Vanguard FTSE Developed World UCITS ETF 4563 @  3287.199","3,287.199","4,563","-150,006.84"` + "\r\n",
			"2026-01-24 BUY VANGUARD.FTSE.DEVELOPED.WOR-EF0A qty=4563 total=150006.84 GBP name=Vanguard FTSE Developed World UCITS ETF ref=B302087054 (row 7)", ""},
		{"sell_on_trade_date_not_settle_date_grossed_up_from_its_unit_cost",
			`"25/02/2026","27/02/2026","S302087055","Lloyds Banking Group plc Ordinary 25p 1000 @ 45.00","45.00","1,000","438.05"` + "\r\n",
			"2026-02-25 SELL LLOYDS.BANKING.GROUP.PLC.OR-F163 qty=1000 total=450.00 GBP fees=11.95 GBP name=Lloyds Banking Group plc Ordinary 25p ref=S302087055 (row 7)", ""},
		{"fund_units_are_fractional_and_symbol_in_brackets_is_the_ticker",
			`"02/03/2026","04/03/2026","B1","iShares Core FTSE 100 UCITS ETF (ISF) 12.3456 @ 812.40","812.40","12.3456","-100.30"` + "\r\n",
			"2026-03-02 BUY ISF qty=12.3456 total=100.30 GBP name=iShares Core FTSE 100 UCITS ETF (ISF) ref=B1 (row 7)", ""},
		{"cash_rows_are_skipped_with_type",
			`"04/04/2026","04/04/2026","MANAGE FEE","HL Fund & Share Account To A/C 01C0450818220","n/a","n/a","-4.05"` + "\r\n" +
				`"09/03/2026","09/03/2026","INTEREST","Interest From 10/02/2026 TO 09/03/2026","n/a","n/a","3.87"` + "\r\n" +
				`"24/01/2026","24/01/2026","FPC","HL Fund & Share Account Receipt Pay By Bank","n/a","n/a","50,000.00"` + "\r\n" +
				`"25/01/2026","25/01/2026","FPD","Payment to client","n/a","n/a","-100.00"` + "\r\n" +
				`"26/01/2026","26/01/2026","Transfer","Transfer from Income Account","n/a","n/a","12.00"` + "\r\n",
			"", "fee,interest,deposit,withdrawal,transfer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := readString(t, "hl", hlHead+c.rows)
			if got := strings.Join(lines(imp), "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if got := rowSkipTypes(imp); got != c.skip {
				t.Errorf("skipped %s, want %s", got, c.skip)
			}
		})
	}
}

func TestHLUnknownReferenceWarns(t *testing.T) {
	imp := readString(t, "hl", hlHead+`"01/03/2026","01/03/2026","ABC123","Something","n/a","n/a","5.00"`+"\r\n")
	if len(imp.Warnings) != 1 || !strings.Contains(imp.Warnings[0], "test.csv row 7") {
		t.Errorf("warnings %q", imp.Warnings)
	}
}

func TestFundNameTickers(t *testing.T) {
	cases := []struct{ name, want string }{
		{"Foo ETF Distributing (FOO)", "FOO"},
		{"Bar ETF \u2013 Accumulating (BAR)", "BAR"},
		{"Emerging Markets Stock Index Fund - Accumulation", "EMERGING.MARKETS.STOCK.INDE-1378"},
		{"U.S. Equity Index Fund - Accumulation", "U.S.EQUITY.INDEX.FUND.ACCUM-4CF4"},
		{"LifeStrategy 60% Equity Fund (Accumulation)", "LIFESTRATEGY.60.EQUITY.FUND-6929"},
		{"L&G International Index Trust C Class Accumulation", "LG.INTERNATIONAL.INDEX.TRUS-43F2"},
		{"L&G International Index Trust C Class Income", "LG.INTERNATIONAL.INDEX.TRUS-4CBE"},
	}
	for _, c := range cases {
		if got := tickerFromFundName(c.name); got != c.want || len(got) > 32 {
			t.Errorf("tickerFromFundName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHLErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"non_number_in_number_column", hlHead + `"24/01/2026","26/01/2026","B1","X 1 @ 2","2","one","-2.00"` + "\r\n", `column "Quantity": "one" is not a number`},
		{"bad_date", hlHead + `"2026-01-24","26/01/2026","B1","X 1 @ 2","2","1","-2.00"` + "\r\n", `column "Trade date"`},
		{"truncated_row", hlHead + `"24/01/2026","26/01/2026","B1"` + "\r\n", "cut short"},
		{"semicolons", "Trade date;Settle date;Reference;Description;Unit cost (p);Quantity;Value\r\n", "semicolons"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("t.csv", []byte(c.src), Options{Broker: "hl"})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.csv") {
				t.Fatalf("err = %v, want it to name the file and mention %s", err, c.want)
			}
		})
	}
}

func FuzzHL(f *testing.F) {
	f.Add([]byte(hlHead + `"24/01/2026","26/01/2026","B302087054","Vanguard FTSE Developed World UCITS ETF 4563 @  3287.199","3,287.199","4,563","-150,006.84"` + "\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzRead(t, "hl", src) })
}

// An HL sale's value is net of the dealing charge: grossed up from its own unit cost and
// quantity, the charge is the sale's fees, as a broker that itemises it gives them.
func TestHLSaleIsGrossedUp(t *testing.T) {
	for _, c := range []struct {
		unit, qty, net, gross, charge string
		ok                            bool
	}{
		{"4500.000", "1000", "44988.05", "45000", "11.95", true},
		{"3287.199", "4563", "149983.92", "149994.89", "10.97", true},
		{"100", "10", "10.50", "10.50", "0", false},     // more than the gross: not a charge
		{"100", "10", "5.00", "5.00", "0", false},       // half the gross: not a charge
		{"1234.5678", "3", "37.04", "37.04", "0", true}, // funds: no charge
	} {
		d := decimal.RequireFromString
		gross, charge, ok := hlGross(d(c.unit), d(c.qty), d(c.net))
		if ok != c.ok || !gross.Equal(d(c.gross)) || !charge.Equal(d(c.charge)) {
			t.Errorf("%s × %s, net %s: gross %s charge %s ok %v; want %s %s %v", c.unit, c.qty, c.net, gross, charge, ok, c.gross, c.charge, c.ok)
		}
	}
}
