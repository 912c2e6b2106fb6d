package imports

import (
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestSlashOrderOf(t *testing.T) {
	for _, c := range []struct {
		src  string
		want slashOrder
	}{
		{"20240315 2024-03-04", slashOrder{}},
		{`"03/04/2024"`, slashOrder{unsure: "03/04/2024"}},
		{`"03/04/2024","15/04/2024"`, slashOrder{dayFirst: true}},
		{`"15/04/2024;101500","03/04/2024"`, slashOrder{dayFirst: true}},
		{`"03/04/2024","04/15/2024"`, slashOrder{}},          // month first, settled
		{`"15/04/2024","04/15/2024"`, slashOrder{}},          // both ways: month first, and the other fails
		{`tradeDate="1/2/24"`, slashOrder{unsure: "1/2/24"}}, // dd/MM/yy or MM/dd/yy
		{`"12/12/2024","01/01/24"`, slashOrder{}},            // the same either way
		{`"2024/03/04"`, slashOrder{}},                       // not a day or month first
		{`"113/04/2024","03/104/2024","03/04/202","03/04/20245"`, slashOrder{}},
		{`"03/04/2024/5","1/3/4"`, slashOrder{}},                                     // no date ends there
		{`"00/13/2024","13/00/2024","32/13/2024"`, slashOrder{}},                     // no day or month zero; 32/13 is not a date
		{"13/04/2024", slashOrder{dayFirst: true}},                                   // at the start and end of the text
		{`"45/03/2024","03/45/2024","03/04/2024"`, slashOrder{unsure: "03/04/2024"}}, // no day 45 either way
	} {
		if got := slashOrderOf([]byte(c.src)); got != c.want {
			t.Errorf("slashOrderOf(%s) = %+v, want %+v", c.src, got, c.want)
		}
	}
}

func TestDayFirstLayouts(t *testing.T) {
	for _, pair := range [][2][]string{{ibkrDates, ibkrDatesDayFirst}, {ibkrDayLayouts, ibkrDayLayoutsDayFirst}} {
		if slices.Equal(pair[0], pair[1]) {
			t.Errorf("%q has no month-first slash layout to turn day first", pair[0])
		}
		for _, l := range pair[1] {
			if strings.HasPrefix(l, "01/02/") {
				t.Errorf("%q is still month first", l)
			}
		}
	}
}

const flexSlashHead = `"ClientAccountID","AssetClass","Symbol","ISIN","Buy/Sell","TradeDate","Quantity","TradePrice","CurrencyPrimary","IBCommission","IBCommissionCurrency","TradeID"` + "\r\n"

func flexSlashRow(date, side, qty, id string) string {
	return `"U1","STK","AAPL","US0378331005","` + side + `","` + date + `","` + qty + `","100","USD","-1","USD","` + id + `"` + "\r\n"
}

// A Flex Query set to dd/MM/yyyy: its dates are read day first, whatever the order of its
// rows, once one of them has a day after the 12th.
func TestIBKRFlexDayFirstDates(t *testing.T) {
	rows := []string{
		flexSlashRow("03/04/2024", "BUY", "10", "T1"),
		flexSlashRow("15/04/2024", "SELL", "-4", "T2"),
		flexSlashRow("05/06/2024;101500", "SELL", "-1", "T3"),
	}
	want := []string{"2024-04-03 BUY", "2024-04-15 SELL", "2024-06-05 SELL"}
	r := rand.New(rand.NewSource(1))
	for range 6 {
		r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		imp := readString(t, "ibkr-flex", flexSlashHead+strings.Join(rows, ""))
		var got []string
		for _, tx := range imp.Transactions {
			got = append(got, tx.Date.String()+" "+string(tx.Action))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || len(imp.Warnings) != 0 {
			t.Fatalf("rows %q: got %q, warnings %q; want %q", rows, got, imp.Warnings, want)
		}
	}
}

// MM/dd/yyyy, settled by a day after the 12th, is read as before, without a warning; when
// no date settles it, month first with a warning that says how to make the file certain.
func TestIBKRFlexMonthFirstDates(t *testing.T) {
	imp := readString(t, "ibkr-flex", flexSlashHead+flexSlashRow("03/04/2024", "BUY", "10", "T1")+flexSlashRow("04/15/2024", "SELL", "-4", "T2"))
	if len(imp.Transactions) != 2 || imp.Transactions[0].Date.String() != "2024-03-04" || len(imp.Warnings) != 0 {
		t.Fatalf("transactions %+v, warnings %q", imp.Transactions, imp.Warnings)
	}
	imp = readString(t, "ibkr-flex", flexSlashHead+flexSlashRow("03/04/2024", "BUY", "10", "T1"))
	if len(imp.Transactions) != 1 || imp.Transactions[0].Date.String() != "2024-03-04" {
		t.Fatalf("transactions %+v", imp.Transactions)
	}
	if len(imp.Warnings) != 1 || !strings.Contains(imp.Warnings[0], "03/04/2024") || !strings.Contains(imp.Warnings[0], "yyyy-MM-dd") {
		t.Fatalf("warnings %q", imp.Warnings)
	}
}

// Dates that can only be read one way each, but not the same way, are an error at the row
// that does not fit, not a silent mix.
func TestIBKRFlexMixedDateOrdersFail(t *testing.T) {
	src := flexSlashHead + flexSlashRow("04/15/2024", "BUY", "10", "T1") + flexSlashRow("15/04/2024", "SELL", "-4", "T2")
	_, err := Read("flex.csv", []byte(src), Options{Broker: "ibkr-flex"})
	if err == nil || !strings.Contains(err.Error(), "15/04/2024") {
		t.Fatalf("err = %v", err)
	}
}

// The XML form: attributes hold the dates, with the time after a separator; one element a
// line, as IBKR writes them.
func TestIBKRFlexXMLDayFirstDates(t *testing.T) {
	src := `<FlexQueryResponse queryName="q" type="AF"><FlexStatements count="1"><FlexStatement accountId="U1"><Trades>` + "\n" +
		`<Trade assetCategory="STK" symbol="AAPL" isin="US0378331005" buySell="BUY" tradeDate="03/04/2024" dateTime="03/04/2024;093000" quantity="10" tradePrice="100" currency="USD" ibCommission="-1" ibCommissionCurrency="USD" tradeID="T1" levelOfDetail="EXECUTION"/>` + "\n" +
		`<Trade assetCategory="STK" symbol="AAPL" isin="US0378331005" buySell="SELL" tradeDate="20/04/2024" dateTime="20/04/2024;093000" quantity="-4" tradePrice="110" currency="USD" ibCommission="-1" ibCommissionCurrency="USD" tradeID="T2" levelOfDetail="EXECUTION"/>` + "\n" +
		`</Trades></FlexStatement></FlexStatements></FlexQueryResponse>`
	imp := readString(t, "ibkr-flex", src)
	if len(imp.Transactions) != 2 || imp.Transactions[0].Date.String() != "2024-04-03" || imp.Transactions[1].Date.String() != "2024-04-20" {
		t.Fatalf("transactions %+v, warnings %q", imp.Transactions, imp.Warnings)
	}
}

// statementSlashRows are rows of an Activity Statement, a Transaction History and the exports
// written with yyyy-MM-dd dates (Trading 212, Freetrade, Revolut) whose dates a spreadsheet
// rewrote with slashes: a purchase on date a and a sale (or a second purchase) on date b.
var statementSlashRows = []struct {
	broker, head string
	rows         func(a, b string) []string
}{
	{"ibkr-history", ibkrHistHead, func(a, b string) []string {
		return []string{
			"Transaction History,Data," + a + ",U1,ISHARES NASDAQ 100 USD ACC,Buy,CNX1,4.0,1000.0,-4000.0,-3.0,-4003.0\r\n",
			"Transaction History,Data," + b + ",U1,ISHARES NASDAQ 100 USD ACC,Sell,CNX1,-2.0,1001.00,2002.0,-3.0,1999.0\r\n",
		}
	}},
	{"ibkr-activity", ibkrActHead + "Dividends,Header,Currency,Date,Description,Amount\n", func(a, b string) []string {
		return []string{
			"Dividends,Data,USD," + a + ",AAPL(US0378331005) Cash Dividend USD 0.25 per Share (Ordinary Dividend),2.5\n",
			"Dividends,Data,USD," + b + ",MSFT(US5949181045) Cash Dividend USD 0.75 per Share (Ordinary Dividend),7.5\n",
		}
	}},
	{"trading212", t212SlashHead, func(a, b string) []string {
		return []string{
			"Market buy," + a + ",US0000000002,FOO,\"Foo Company\",24.0000000000,124.01,USD,1.25229,,\"GBP\",2381.35,\"GBP\",,,,,EOF1,4.71,\"GBP\",\n",
			"Market sell," + b + ",US0000000002,FOO,\"Foo Company\",4.0000000000,130.00,USD,1.25,,\"GBP\",416.00,\"GBP\",,,,,EOF2,0.62,\"GBP\",\n",
		}
	}},
	{"freetrade", freetradeSlashHead, func(a, b string) []string {
		return []string{
			"Tesla,ORDER," + a + ",GBP,5.59,BUY,TSLA,US88160R1014,678.77225238,0.00,0.00819126,Drivewealth,AMN1,MARKET,USD,7.50,915.61000000,1.34403451,1.35011000,45,0.03,,,,,,,,\n",
			"Tesla,ORDER," + b + ",GBP,5.59,BUY,TSLA,US88160R1014,678.77225238,0.00,0.00819126,Drivewealth,AMN2,MARKET,USD,7.50,915.61000000,1.34403451,1.35011000,45,0.03,,,,,,,,\n",
		}
	}},
	{"revolut", "Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency,FX Rate\n", func(a, b string) []string {
		return []string{
			a + ",O,BUY - MARKET,1.63453043,$52.07,$85.11,USD,1.0665\n",
			b + ",O,SELL - MARKET,0.5,$53.00,$26.50,USD,1.1241\n",
		}
	}},
}

var (
	t212SlashHead = "Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total)," +
		"Withholding tax,Currency (Withholding tax),Transaction fee,Notes,ID,Currency conversion fee,Currency (Currency conversion fee),Currency (Transaction fee)\n"
	freetradeSlashHead = "Title,Type,Timestamp,Account Currency,Total Amount,Buy / Sell,Ticker,ISIN,Price per Share in Account Currency,Stamp Duty,Quantity,Venue," +
		"Order ID,Order Type,Instrument Currency,Total Shares Amount,Price per Share,FX Rate,Base FX Rate,FX Fee (BPS),FX Fee Amount,Dividend Ex Date," +
		"Dividend Pay Date,Dividend Eligible Quantity,Dividend Amount Per Share,Dividend Gross Distribution Amount,Dividend Net Distribution Amount,Dividend Withheld Tax Percentage,Dividend Withheld Tax Amount\n"
)

// The statements' slash dates are settled as a Flex Query's are, whatever the order of the
// rows; when nothing settles them they are read day first, with a warning.
func TestStatementSlashDates(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       []string
		warn       []string // what the one warning says besides one of the dates; none when nil
	}{
		{"day_first_settled", "03/04/2025", "15/04/2025", []string{"2025-04-03", "2025-04-15"}, nil},
		{"month_first_settled", "03/04/2025", "04/15/2025", []string{"2025-03-04", "2025-04-15"}, nil},
		{"unsettled_reads_day_first", "03/04/2025", "05/06/2025", []string{"2025-04-03", "2025-06-05"},
			[]string{"day first", "yyyy-MM-dd", "without opening it in a spreadsheet"}},
		{"iso_dates_as_before", "2025-03-04", "2025-04-15", []string{"2025-03-04", "2025-04-15"}, nil},
		{"date_times_of_one_digit_unsettled", "3/4/2025 9:15", "5/6/2025 10:00", []string{"2025-04-03", "2025-06-05"},
			[]string{"day first", "yyyy-MM-dd"}},
		{"date_times_of_one_digit_month_first", "3/4/2025 9:15", "4/15/2025 14:02", []string{"2025-03-04", "2025-04-15"}, nil},
	}
	r := rand.New(rand.NewSource(1))
	for _, s := range statementSlashRows {
		for _, c := range cases {
			t.Run(s.broker+"/"+c.name, func(t *testing.T) {
				rows := s.rows(c.a, c.b)
				for range 4 {
					r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
					imp := readString(t, s.broker, s.head+strings.Join(rows, ""))
					var got []string
					for _, tx := range imp.Transactions {
						got = append(got, tx.Date.String())
					}
					slices.Sort(got)
					if !slices.Equal(got, c.want) {
						t.Fatalf("rows %q: dates %q, want %q", rows, got, c.want)
					}
					if c.warn == nil {
						if len(imp.Warnings) != 0 {
							t.Fatalf("rows %q: warnings %q", rows, imp.Warnings)
						}
						continue
					}
					if len(imp.Warnings) != 1 {
						t.Fatalf("rows %q: warnings %q, want one", rows, imp.Warnings)
					}
					if day := func(s string) string { return strings.Fields(s)[0] }; !strings.Contains(imp.Warnings[0], day(c.a)) && !strings.Contains(imp.Warnings[0], day(c.b)) {
						t.Errorf("warning %q names neither date", imp.Warnings[0])
					}
					for _, w := range c.warn {
						if !strings.Contains(imp.Warnings[0], w) {
							t.Errorf("warning %q does not say %q", imp.Warnings[0], w)
						}
					}
				}
			})
		}
	}
}

// A statement whose slash dates can only be read one way each, but not the same way, fails
// at the row that does not fit.
func TestStatementMixedDateOrdersFail(t *testing.T) {
	for _, s := range statementSlashRows {
		src := s.head + strings.Join(s.rows("04/15/2025", "15/04/2025"), "")
		_, err := Read("statement.csv", []byte(src), Options{Broker: s.broker})
		if err == nil || !strings.Contains(err.Error(), "15/04/2025") {
			t.Errorf("%s: err = %v", s.broker, err)
		}
	}
}

// Only the statements' date columns settle the order: a slash date in a description (a
// bond's maturity) neither settles it nor draws the warning.
func TestIBKRStatementSlashesOutsideDateColumns(t *testing.T) {
	for _, c := range []struct{ broker, src, want string }{
		{"ibkr-history", ibkrHistHead + "Transaction History,Data,2025-03-04,U1,US TREASURY 4.5% 03/04/2029 Interest,Buy,CNX1,4.0,1000.0,-4000.0,-3.0,-4003.0\r\n", "2025-03-04"},
		{"ibkr-history", ibkrHistHead + "Transaction History,Data,03/04/2025,U1,US TREASURY 4.5% 11/15/2033,Buy,CNX1,4.0,1000.0,-4000.0,-3.0,-4003.0\r\n", "2025-04-03"},
		{"ibkr-activity", ibkrActHead + "Dividends,Header,Currency,Date,Description,Amount\nDividends,Data,USD,2025-03-04,AAPL(US0378331005) Cash Dividend USD 0.25 per Share (record date 03/04/2025),2.5\n", "2025-03-04"},
	} {
		imp := readString(t, c.broker, c.src)
		if len(imp.Transactions) != 1 || imp.Transactions[0].Date.String() != c.want {
			t.Errorf("%s: transactions %+v, want one on %s", c.broker, imp.Transactions, c.want)
		}
		wantWarnings := 0
		if strings.Contains(c.src, ","+"03/04/2025,") {
			wantWarnings = 1 // the date column alone leaves the order open
		}
		if len(imp.Warnings) != wantWarnings {
			t.Errorf("%s: warnings %q, want %d", c.broker, imp.Warnings, wantWarnings)
		}
	}
}

func TestStatementDates(t *testing.T) {
	lines := []ibkrLine{
		{section: "Trades", kind: "Header", fields: []string{"Symbol", "Date/Time", "Description"}},
		{section: "Trades", kind: "Data", fields: []string{"T 4.5 11/15/33", "03/04/2025 10:15", "BOND 11/15/2033"}},
		{section: "Dividends", kind: "Header", fields: []string{"Currency", "Date", "Description"}},
		{section: "Dividends", kind: "Data", fields: []string{"USD", "2025-04-05", "X 01/02/2030"}},
		{section: "Trades", kind: "Data", fields: []string{"AAPL", "05/06/2025, 10:00:00"}},
		{section: "Corporate Actions", kind: "Header", fields: []string{"Report Date", "Date/Time", "Settle Date ", "Value"}},
		{section: "Corporate Actions", kind: "Data", fields: []string{"07/08/2025", "09/10/2025"}}, // short row
		{section: "Statement", kind: "Data", fields: []string{"Period", "01/02/2025"}},             // no header: not a date column
	}
	want := "03/04/2025 10:15\n2025-04-05\n05/06/2025, 10:00:00\n07/08/2025\n09/10/2025\n"
	if got := string(statementDates(lines)); got != want {
		t.Errorf("statementDates = %q, want %q", got, want)
	}
}

// A statement opened and saved in a spreadsheet: every date and date-time rewritten the way
// a UK spreadsheet writes them (03/04/2025 10:15) and a US one (4/3/2025 10:15, a day or
// month of one digit), and with the seconds kept; each is read as the broker's own file is,
// the time dropped as before. The spreadsheet keeps the rows, so the imports are the same,
// warnings included.
func TestIBKRStatementsSavedBySpreadsheets(t *testing.T) {
	iso := regexp.MustCompile(`"?(\d{4})-(\d\d)-(\d\d)(, (\d\d):(\d\d):(\d\d))?"?`)
	saves := map[string]func(y, m, d, hh, mm, ss string) string{
		"uk": func(y, m, d, hh, mm, _ string) string { return d + "/" + m + "/" + y + timeOr(" "+hh+":"+mm, hh) },
		"us": func(y, m, d, hh, mm, _ string) string {
			return oneDigit(m) + "/" + oneDigit(d) + "/" + y + timeOr(" "+oneDigit(hh)+":"+mm, hh)
		},
		"uk_seconds": func(y, m, d, hh, mm, ss string) string {
			return d + "/" + m + "/" + y + timeOr(" "+hh+":"+mm+":"+ss, hh)
		},
	}
	for broker, file := range map[string]string{
		"ibkr-activity": "testdata/ibkr-activity/SYNTHETIC_activity_statement.csv",
		"ibkr-history":  "testdata/ibkr-history/kapji_transaction_history.csv",
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := readString(t, broker, string(src))
		for name, save := range saves {
			t.Run(broker+"/"+name, func(t *testing.T) {
				saved := iso.ReplaceAllStringFunc(string(src), func(s string) string {
					p := iso.FindStringSubmatch(s)
					if strings.Contains(s, "EST") || strings.Contains(s, "EDT") {
						return s
					}
					return save(p[1], p[2], p[3], p[5], p[6], p[7])
				})
				checkReadAsOriginal(t, broker, string(src), saved, want)
			})
		}
	}
}

// checkReadAsOriginal checks that saved, the file src with its dates rewritten as a
// spreadsheet saves them, is read as src was (want): every transaction and warning the same.
func checkReadAsOriginal(t *testing.T, broker, src, saved string, want *Import) {
	t.Helper()
	if saved == src {
		t.Fatal("no date was rewritten")
	}
	got := readString(t, broker, saved)
	if !slices.Equal(lines(got), lines(want)) {
		t.Errorf("transactions\n%s\nwant\n%s", strings.Join(lines(got), "\n"), strings.Join(lines(want), "\n"))
	}
	if !slices.Equal(got.Warnings, want.Warnings) {
		t.Errorf("warnings %q, want %q", got.Warnings, want.Warnings)
	}
}

// oneDigit is a two-digit number without its leading zero ("09" is "9", "00" is "0").
func oneDigit(s string) string {
	if len(s) == 2 && s[0] == '0' {
		return s[1:]
	}
	return s
}

// timeOr is the time of day t when the date had one (hh is its hour), else nothing.
func timeOr(t, hh string) string {
	if hh == "" {
		return ""
	}
	return t
}

// Every date format a Flex Query can be set to is read with its time and without it.
func TestIBKRFlexEveryDateFormat(t *testing.T) {
	for _, date := range []string{"20240403", "2024-04-03", "04/03/2024", "04/03/24", "03-Apr-24", "03-Apr-2024", "2024/04/03"} {
		for _, at := range []string{"", ";101500", ", 10:15:00", " 10:15:00", "101500"} {
			if at == "101500" && date != "20240403" {
				continue // only the compact date runs into a compact time
			}
			imp := readString(t, "ibkr-flex", flexSlashHead+flexSlashRow(date+at, "BUY", "10", "T1")+flexSlashRow("04/15/2024", "SELL", "-4", "T2"))
			if len(imp.Transactions) != 2 || imp.Transactions[0].Date.String() != "2024-04-03" {
				t.Errorf("%q: transactions %+v", date+at, imp.Transactions)
			}
		}
	}
}

// Trading 212, Freetrade and Revolut exports opened in a spreadsheet and saved again, with
// the spreadsheet set to UK dates or US ones (24-hour, or 12-hour with AM/PM), read as the
// exports themselves: every transaction and warning the same.
func TestISODateExportsSavedBySpreadsheets(t *testing.T) {
	iso := regexp.MustCompile(`(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?)?`)
	saves := map[string]func(y, m, d, hh, mm, ss string) string{
		"uk": func(y, m, d, hh, mm, _ string) string { return d + "/" + m + "/" + y + timeOr(" "+hh+":"+mm, hh) },
		"uk_seconds": func(y, m, d, hh, mm, ss string) string {
			return d + "/" + m + "/" + y + timeOr(" "+hh+":"+mm+":"+ss, hh)
		},
		"us": func(y, m, d, hh, mm, _ string) string {
			return oneDigit(m) + "/" + oneDigit(d) + "/" + y + timeOr(" "+oneDigit(hh)+":"+mm, hh)
		},
		"us_12_hour": func(y, m, d, hh, mm, ss string) string {
			return oneDigit(m) + "/" + oneDigit(d) + "/" + y + timeOr(" "+twelveHour(hh, mm, ss), hh)
		},
		"uk_short_year": func(y, m, d, hh, mm, _ string) string { return d + "/" + m + "/" + y[2:] + timeOr(" "+hh+":"+mm, hh) },
	}
	for broker, file := range map[string]string{
		"trading212":      "testdata/trading212/kapji_2024_transactions.csv",
		"trading212_2026": "testdata/trading212/kapji_2026_transactions.csv",
		"freetrade":       "testdata/freetrade/kapji_transactions.csv",
		"revolut":         "testdata/revolut/ghostfolio_revolut-invest-export.csv",
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		importer, _, _ := strings.Cut(broker, "_")
		want := readString(t, importer, string(src))
		for name, save := range saves {
			t.Run(broker+"/"+name, func(t *testing.T) {
				saved := iso.ReplaceAllStringFunc(string(src), func(s string) string {
					p := iso.FindStringSubmatch(s)
					return save(p[1], p[2], p[3], p[4], p[5], p[6])
				})
				checkReadAsOriginal(t, importer, string(src), saved, want)
			})
		}
	}
}

// twelveHour is a 24-hour time on a 12-hour clock, as a spreadsheet set to US dates writes
// it: "16", "10", "05" is "4:10:05 PM".
func twelveHour(hh, mm, ss string) string {
	h, _ := strconv.Atoi(hh)
	half := " AM"
	if h >= 12 {
		half = " PM"
	}
	return strconv.Itoa((h+11)%12+1) + ":" + mm + ":" + ss + half
}
