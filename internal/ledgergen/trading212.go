package ledgergen

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"
)

// WriteTrading212 writes a Trading 212 history export (the 2024 layout) of n trades over
// 1,000 securities, each with a valid GB ISIN, in pounds: buys, and sells of part of what is
// held. The same n always gives the same file (for timing transactions.import).
func WriteTrading212(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString("Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total),Withholding tax,Currency (Withholding tax),Transaction fee,Notes,ID,Currency conversion fee,Currency (Currency conversion fee),Currency (Transaction fee)\n")
	const securities = 1000
	held := make([]int, securities)
	isins := make([]string, securities)
	for k := range isins {
		isins[k] = gbISIN(k)
	}
	at := time.Date(2019, 1, 2, 9, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		t := (i * 7919) % securities
		at = at.Add(7 * time.Minute)
		pence := 500 + (i*37)%19500
		action, q := "Market buy", 1+i%50
		if held[t] >= 10 && i%5 < 2 {
			action, q = "Market sell", 1+i%held[t]
			held[t] -= q
		} else {
			held[t] += q
		}
		total := q * pence
		fmt.Fprintf(bw, "%s,%s.000,%s,T%03d,\"T%03d plc\",%d.0000000000,%d.%02d,GBP,1.00,,\"GBP\",%d.%02d,\"GBP\",,,,,EOF%09d,,,\n",
			action, at.Format(time.DateTime), isins[t], t, t, q, pence/100, pence%100, total/100, total%100, i)
	}
	return bw.Flush()
}

// gbISIN is a valid GB ISIN numbered k: its check digit by the Luhn rule over its letters
// written as numbers (G=16, B=11) and its digits.
func gbISIN(k int) string {
	body := fmt.Sprintf("GB0%08d", k*7919)
	digits := "1611" + body[2:]
	sum := 0
	for i := range len(digits) {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 0 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return body + strconv.Itoa((10-sum%10)%10)
}
