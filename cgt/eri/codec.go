package eri

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// Row is one figure as a fund family's CSV gives it, with its line for messages.
type Row struct {
	_ model.NotComparable

	ISIN   string
	Figure Figure
	Line   int
}

// ReadCSV reads one fund family's published figures: a header line, then one line per share
// class and period with the columns ISIN, Fund Reporting Period End Date (DD/MM/YYYY),
// Currency (the share class's, ISO 4217) and Excess of reporting income over distribution
// (per unit, a plain non-negative decimal). Every field is checked; an error names the line.
func ReadCSV(data []byte) ([]Row, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = 4
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("line 1: %w", err)
	}
	if !strings.EqualFold(strings.TrimSpace(header[0]), "ISIN") {
		return nil, fmt.Errorf("line 1: the header starts %q, not ISIN (columns: ISIN, Fund Reporting Period End Date, Currency, Excess of reporting income over distribution)", header[0])
	}
	var rows []Row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err // a *csv.ParseError names its line
		}
		line, _ := r.FieldPos(0)
		row, err := readRow(rec)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		row.Line = line
		rows = append(rows, row)
	}
}

func readRow(rec []string) (Row, error) {
	isin := strings.ToUpper(strings.TrimSpace(rec[0]))
	if !validISIN(isin) {
		return Row{}, fmt.Errorf("ISIN %q is not an ISIN with a valid check digit", rec[0])
	}
	d, err := time.Parse("02/01/2006", strings.TrimSpace(rec[1]))
	if err != nil {
		return Row{}, fmt.Errorf("period end %q is not a DD/MM/YYYY date", rec[1])
	}
	ccy := strings.ToUpper(strings.TrimSpace(rec[2]))
	if !fx.ValidCurrencyCode(ccy) {
		return Row{}, fmt.Errorf("currency %q is not a three-letter code", rec[2])
	}
	v := strings.TrimSpace(rec[3])
	if !plainDecimal(v) {
		return Row{}, fmt.Errorf("ERI per unit %q is not a plain decimal of zero or more", rec[3])
	}
	return Row{ISIN: isin, Figure: Figure{PeriodEnd: model.NewDate(d.Year(), d.Month(), d.Day()), Currency: ccy, PerUnit: v}}, nil
}

// ReadTickers reads the ISIN → ticker table (columns ISIN, then one or more symbols); rows with
// no symbol are skipped.
func ReadTickers(data []byte) (map[string][]string, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	out := map[string][]string{}
	for first := true; ; first = false {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err // a *csv.ParseError names its line
		}
		line, _ := r.FieldPos(0)
		if first {
			continue
		}
		isin := strings.ToUpper(strings.TrimSpace(rec[0]))
		if !validISIN(isin) {
			return nil, fmt.Errorf("line %d: ISIN %q is not an ISIN with a valid check digit", line, rec[0])
		}
		for _, f := range rec[1:] {
			tk := strings.ToUpper(strings.TrimSpace(f))
			if tk == "" {
				continue
			}
			if !validTicker(tk) {
				return nil, fmt.Errorf("line %d: ticker %q is not one word of letters, digits, '.' or '-'", line, f)
			}
			if !slices.Contains(out[isin], tk) {
				out[isin] = append(out[isin], tk)
			}
		}
	}
}

// Build makes a table from the rows of every family and the ticker table. The same ISIN and
// period twice is accepted only with the same currency and figure.
func Build(rows []Row, tickers map[string][]string) (*Table, error) {
	t := &Table{funds: map[string]*Fund{}, byTicker: map[string]string{}}
	for _, r := range rows {
		f := t.funds[r.ISIN]
		if f == nil {
			f = &Fund{ISIN: r.ISIN}
			t.funds[r.ISIN] = f
		}
		f.Figures = append(f.Figures, r.Figure)
		t.newest = max(t.newest, r.Figure.PeriodEnd)
	}
	for _, f := range t.funds {
		order.Stable(f.Figures, func(a, b Figure) int { return int(a.PeriodEnd - b.PeriodEnd) })
		out := f.Figures[:0]
		for _, g := range f.Figures {
			if n := len(out); n > 0 && out[n-1].PeriodEnd == g.PeriodEnd {
				if out[n-1].Currency != g.Currency || out[n-1].PerUnit != g.PerUnit {
					return nil, fmt.Errorf("%s has two figures for the period ending %s: %s %s and %s %s",
						f.ISIN, g.PeriodEnd, out[n-1].PerUnit, out[n-1].Currency, g.PerUnit, g.Currency)
				}
				continue
			}
			out = append(out, g)
		}
		f.Figures = out
	}
	for isin, tks := range tickers {
		f := t.funds[isin]
		if f == nil {
			continue
		}
		for _, tk := range tks {
			if other, ok := t.byTicker[tk]; ok && other != isin {
				return nil, fmt.Errorf("ticker %s is given for two funds with figures, %s and %s", tk, min(other, isin), max(other, isin))
			}
			t.byTicker[tk] = isin
			if !slices.Contains(f.Tickers, tk) {
				f.Tickers = append(f.Tickers, tk)
			}
		}
		order.Ascending(f.Tickers)
	}
	return t, nil
}

// tableHeader opens the encoded table.
const tableHeader = "# cgt ERI table v1: ISIN TICKER[,TICKER…]|- then, per figure, [CURRENCY] YYYYMMDD PER_UNIT (a currency applies to the figures after it)\n"

// Encode writes the table compactly and deterministically: one line per share class in ISIN
// order, its period ends as YYYYMMDD and each figure as published, the currency written only
// where it changes. comments are written first, one "# " line each.
func (t *Table) Encode(comments []string) []byte {
	var b bytes.Buffer
	b.WriteString(tableHeader)
	for _, c := range comments {
		b.WriteString("# " + c + "\n")
	}
	for _, isin := range t.ISINs() {
		f := t.funds[isin]
		tk := strings.Join(f.Tickers, ",")
		if tk == "" {
			tk = "-"
		}
		b.WriteString(isin + " " + tk)
		ccy := ""
		for _, g := range f.Figures {
			if g.Currency != ccy {
				ccy = g.Currency
				b.WriteString(" " + ccy)
			}
			b.WriteString(" " + g.PeriodEnd.Time().Format("20060102") + " " + g.PerUnit)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Parse reads a table Encode wrote, checking every field.
func Parse(data string) (*Table, error) {
	var rows []Row
	tickers := map[string][]string{}
	for n, line := range strings.Split(data, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, " ")
		if len(f) < 2 || !validISIN(f[0]) {
			return nil, fmt.Errorf("table line %d: %q does not start with an ISIN and a ticker", n+1, clip(line))
		}
		if f[1] != "-" {
			for _, tk := range strings.Split(f[1], ",") {
				if !validTicker(tk) {
					return nil, fmt.Errorf("table line %d: ticker %q is not valid", n+1, clip(tk))
				}
				tickers[f[0]] = append(tickers[f[0]], tk)
			}
		}
		ccy := ""
		for i := 2; i < len(f); {
			if fx.ValidCurrencyCode(f[i]) {
				ccy, i = f[i], i+1
				continue
			}
			if ccy == "" || i+1 >= len(f) {
				return nil, fmt.Errorf("table line %d: a figure needs a currency, a period end and a value", n+1)
			}
			d, err := time.Parse("20060102", f[i])
			if err != nil || len(f[i]) != 8 {
				return nil, fmt.Errorf("table line %d: period end %q is not YYYYMMDD", n+1, clip(f[i]))
			}
			if !plainDecimal(f[i+1]) {
				return nil, fmt.Errorf("table line %d: per-unit figure %q is not a plain decimal", n+1, clip(f[i+1]))
			}
			rows = append(rows, Row{ISIN: f[0], Figure: Figure{PeriodEnd: model.NewDate(d.Year(), d.Month(), d.Day()), Currency: ccy, PerUnit: f[i+1]}})
			i += 2
		}
	}
	return Build(rows, tickers)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// plainDecimal accepts digits with at most one point between digits, up to 30 characters.
func plainDecimal(s string) bool {
	if s == "" || len(s) > 30 {
		return false
	}
	point := -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && point < 0 && i > 0 && i < len(s)-1:
			point = i
		default:
			return false
		}
	}
	return true
}

func validTicker(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || (c == '.' || c == '-') && i > 0) {
			return false
		}
	}
	return true
}

// IsISIN reports whether s is an upper-case ISIN with a valid check digit.
func IsISIN(s string) bool { return validISIN(s) }

// validISIN checks an upper-case ISIN's form and check digit (ISO 6166: letters become two
// digits, A = 10 … Z = 35, then the Luhn algorithm).
func validISIN(s string) bool {
	if len(s) != 12 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' || s[11] < '0' || s[11] > '9' {
		return false
	}
	var digits []byte
	for i := 0; i < 11; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c-'0')
		case c >= 'A' && c <= 'Z':
			v := c - 'A' + 10
			digits = append(digits, v/10, v%10)
		default:
			return false
		}
	}
	sum := 0
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i])
		if (len(digits)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return int(s[11]-'0') == (10-sum%10)%10
}
