package eri

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestFundDistributionDateIsSixMonthsAfterThePeriodEnd(t *testing.T) {
	cases := []struct{ end, want string }{
		{"2024-12-31", "2025-06-30"},
		{"2024-06-30", "2024-12-30"},
		{"2024-08-31", "2025-02-28"},
		{"2023-08-31", "2024-02-29"},
		{"2024-02-29", "2024-08-29"},
		{"2024-05-31", "2024-11-30"},
		{"2024-10-05", "2025-04-05"},
	}
	for _, c := range cases {
		end, _ := model.ParseDate(c.end)
		if got := FundDistributionDate(end).String(); got != c.want {
			t.Errorf("period end %s: fund distribution date %s, want %s", c.end, got, c.want)
		}
	}
}

func TestEmbeddedTableParsesAndHoldsPublishedFigures(t *testing.T) {
	tab, err := Parse(embeddedTable)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() < 2000 || tab.FigureCount() < 8900 {
		t.Fatalf("embedded table has %d funds and %d figures", tab.Len(), tab.FigureCount())
	}
	f := Bundled().Fund("IE00B3XXRP09") // Vanguard S&P 500 UCITS ETF (USD) Distributing
	if f == nil {
		t.Fatal("VUSA's ISIN is not in the table")
	}
	var got string
	for _, g := range f.Figures {
		if g.PeriodEnd.String() == "2024-06-30" {
			got = g.PerUnit + " " + g.Currency
		}
	}
	if got != "0.0325 USD" {
		t.Errorf("VUSA 2024-06-30: %q, want 0.0325 USD as published", got)
	}
	if isin, ok := Bundled().ISINOfTicker("vusa.l"); !ok || isin != "IE00B3XXRP09" {
		t.Errorf("ticker VUSA.L: %q %v", isin, ok)
	}
	if !strings.Contains(Notice, "MIT License") {
		t.Error("the notice does not carry the licence")
	}
}

// TestEmbeddedTableIsUpToDate regenerates the table from ../shared/eri and compares.
func TestEmbeddedTableIsUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "eri")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing", dir)
		}
		t.Skipf("%s is absent: the source CSV files are not here", dir)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*_eri.csv"))
	var rows []Row
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReadCSV(data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		rows = append(rows, r...)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "isin_translation.csv"))
	tk, err := ReadTickers(data)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Build(rows, tk)
	if err != nil {
		t.Fatal(err)
	}
	embedded, _ := Parse(embeddedTable)
	if string(tab.Encode(nil)) != string(embedded.Encode(nil)) {
		t.Fatal("cgt/eri/table.txt is stale: run make eri")
	}
}

func TestReadCSVRejectsBadRowsNamingTheLine(t *testing.T) {
	cases := map[string]string{
		"bad_isin":     "ISIN,Date,Currency,ERI\nIE00B3XXRP08,30/06/2024,USD,0.1\n",
		"bad_date":     "ISIN,Date,Currency,ERI\nIE00B3XXRP09,2024-06-30,USD,0.1\n",
		"negative":     "ISIN,Date,Currency,ERI\nIE00B3XXRP09,30/06/2024,USD,-0.1\n",
		"bad_currency": "ISIN,Date,Currency,ERI\nIE00B3XXRP09,30/06/2024,US,0.1\n",
		"short_row":    "ISIN,Date,Currency,ERI\nIE00B3XXRP09,30/06/2024,USD\n",
	}
	for name, in := range cases {
		if _, err := ReadCSV([]byte(in)); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%s: %v, want an error naming line 2", name, err)
		}
	}
	rows, err := ReadCSV([]byte("\ufeffISIN,Date,Currency,ERI\r\nie00b3xxrp09,30/06/2024,usd,0.0325\r\n"))
	if err != nil || len(rows) != 1 || rows[0].ISIN != "IE00B3XXRP09" || rows[0].Figure.PerUnit != "0.0325" || rows[0].Figure.Currency != "USD" {
		t.Fatalf("%v %+v", err, rows)
	}
}

func TestBuildRejectsTwoFiguresForOnePeriod(t *testing.T) {
	d := model.NewDate(2024, 6, 30)
	_, err := Build([]Row{{ISIN: "IE00B3XXRP09", Figure: Figure{PeriodEnd: d, Currency: "USD", PerUnit: "0.1"}}, {ISIN: "IE00B3XXRP09", Figure: Figure{PeriodEnd: d, Currency: "USD", PerUnit: "0.2"}}}, nil)
	if err == nil {
		t.Fatal("two figures for one period were accepted")
	}
}

// FuzzReadCSV checks that the converter's reader never panics and that whatever it accepts
// encodes to a table that reads back to the same figures.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("ISIN,Fund Reporting Period End Date,Currency,Excess\nIE00B3XXRP09,30/06/2024,USD,0.0325\n"))
	f.Add([]byte("ISIN,a,b,c\nLU0274208692,31/12/2024,USD,2.12670\nLU0274208692,31/12/2023,EUR,0\n"))
	f.Add([]byte("ISIN,a,b,c\n\"IE00B3XXRP09\",\"30/06/2024\",USD,1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadCSV(data)
		if err != nil {
			return
		}
		tab, err := Build(rows, nil)
		if err != nil {
			return
		}
		back, err := Parse(string(tab.Encode([]string{"comment"})))
		if err != nil {
			t.Fatalf("an accepted table does not read back: %v", err)
		}
		if string(back.Encode(nil)) != string(tab.Encode(nil)) {
			t.Fatal("the table changed on a round trip")
		}
	})
}

// FuzzParse checks that the embedded table's reader never panics.
func FuzzParse(f *testing.F) {
	f.Add("IE00B3XXRP09 VUSA,VUSD USD 20180630 0.0100 EUR 20190630 0\n")
	f.Add("# c\nIE00B3XXRP09 - USD\n")
	f.Fuzz(func(t *testing.T, s string) {
		tab, err := Parse(s)
		if err == nil && tab == nil {
			t.Fatal("nil table without an error")
		}
	})
}
