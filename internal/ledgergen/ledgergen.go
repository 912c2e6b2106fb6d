// Package ledgergen writes large, valid ledgers for timing cgt: buys, sells (never more than
// held), same-day trades, 30-day repurchases, splits, accumulations, capital returns, dividends
// and a share of trades in US dollars, over many tickers. The same options always give the
// same ledger.
package ledgergen

import (
	"io"
	"math/rand/v2"
	"strconv"
	"time"
)

// Options shape a generated ledger.
type Options struct {
	Lines      int    // ledger lines
	Tickers    int    // distinct tickers
	USDPercent int    // percent of trades priced in US dollars
	Events     bool   // splits, accumulations, capital returns and dividends
	Seed       uint64 // the same options and seed give the same ledger
}

// Write writes the ledger line by line. Each ticker keeps its own date, starting in January
// 2015 (inside the bundled HMRC rate table) and moving a few days at a time; a quarter of a
// ticker's lines fall on the date of its previous line, so same-day and 30-day matches are
// common.
func Write(w io.Writer, o Options) error {
	rng := rand.New(rand.NewPCG(o.Seed, 99))
	held := make([]int64, o.Tickers)
	dates := make([]time.Time, o.Tickers)
	for i := range dates {
		dates[i] = time.Date(2015, 1, 5, 0, 0, 0, 0, time.UTC)
	}
	line := make([]byte, 0, 128)
	for range o.Lines {
		k := rng.IntN(o.Tickers)
		if rng.IntN(4) != 0 {
			dates[k] = dates[k].AddDate(0, 0, rng.IntN(6))
		}
		roll := rng.IntN(100)
		// splits, accumulations and capital returns apply before the day's trades, so they
		// start a day of their own
		if o.Events && roll < 7 && held[k] > 0 {
			dates[k] = dates[k].AddDate(0, 0, 1)
		}
		line = dates[k].AppendFormat(line[:0], time.DateOnly)
		ticker := " T" + strconv.Itoa(k)
		switch {
		case o.Events && roll < 3 && held[k] > 0:
			line = append(append(append(line, " SPLIT"...), ticker...), " RATIO 2"...)
			held[k] *= 2
		case o.Events && roll < 6 && held[k] > 0:
			line = append(append(append(line, " ACCUMULATION"...), ticker...), ' ')
			line = strconv.AppendInt(line, held[k], 10)
			line = appendPence(append(line, " TOTAL "...), 100+rng.IntN(5000))
		case o.Events && roll < 7 && held[k] > 0:
			line = append(append(append(line, " CAPRETURN"...), ticker...), ' ')
			line = strconv.AppendInt(line, held[k], 10)
			line = appendPence(append(line, " TOTAL "...), 1+rng.IntN(10))
		case o.Events && roll < 9:
			line = append(append(line, " DIVIDEND"...), ticker...)
			line = appendPence(append(line, " TOTAL "...), 100+rng.IntN(5000))
			if tax := rng.IntN(100); tax > 0 {
				line = appendPence(append(line, " TAX "...), tax)
			}
		default:
			var q int64
			if roll < 62 || held[k] == 0 {
				q = int64(1 + rng.IntN(200))
				line = append(line, " BUY"...)
				held[k] += q
			} else {
				q = 1 + rng.Int64N(held[k])
				line = append(line, " SELL"...)
				held[k] -= q
			}
			line = append(append(append(line, ticker...), ' '), strconv.FormatInt(q, 10)...)
			ccy := ""
			if rng.IntN(100) < o.USDPercent {
				ccy = " USD"
			}
			line = appendPence(append(line, " @ "...), 100+rng.IntN(20000))
			line = append(line, ccy...)
			if fees := rng.IntN(1500); fees > 0 {
				line = append(appendPence(append(line, " FEES "...), fees), ccy...)
			}
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// appendPence writes an amount given in pence as pounds with two decimals.
func appendPence(b []byte, pence int) []byte {
	b = strconv.AppendInt(b, int64(pence/100), 10)
	return append(b, '.', byte('0'+pence/10%10), byte('0'+pence%10))
}
