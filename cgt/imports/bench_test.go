package imports

import (
	"bytes"
	"fmt"
	"testing"
)

// t212Export builds a Trading 212 export of n trade rows in the 2025 layout.
func t212Export(n int) []byte {
	var b bytes.Buffer
	b.WriteString("Action,Time,ISIN,Ticker,Name,Notes,ID,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total),Withholding tax,Currency (Withholding tax),Stamp duty reserve tax,Currency (Stamp duty reserve tax),French transaction tax,Currency (French transaction tax),Transaction fee,Finra fee,Currency conversion from amount,Currency (Currency conversion from amount),Currency conversion to amount,Currency (Currency conversion to amount),Currency conversion fee,Currency (Currency conversion fee),Currency (Transaction fee),Currency (Finra fee),Merchant name,Merchant category\r\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Market buy,2024-05-02 14:30:05.123,US0000000200,ACME,Acme Corp,,EOF%d,0.1234567890,150.00,USD,1.25,,,%d.%02d,GBP,,,,,,,,,,,,,0.15,GBP,,,,\r\n", i, 10+i%90, i%100)
	}
	return b.Bytes()
}

// BenchmarkTrading212 imports a 100,000-row export (the target is under a second).
func BenchmarkTrading212(b *testing.B) {
	src := t212Export(100_000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		imp, err := Read("big.csv", src, Options{})
		if err != nil || len(imp.Transactions) != 100_000 {
			b.Fatalf("%v %d", err, len(imp.Transactions))
		}
	}
}
