package model

// Action is the kind of a ledger line.
type Action string

// The ledger line kinds (docs/dsl-syntax.md).
const (
	Buy          Action = "BUY"
	Sell         Action = "SELL"
	Dividend     Action = "DIVIDEND"
	Accumulation Action = "ACCUMULATION"
	CapReturn    Action = "CAPRETURN"
	Split        Action = "SPLIT"
	Unsplit      Action = "UNSPLIT"
)

// Actions lists every action in the order documented.
var Actions = []Action{Buy, Sell, Dividend, Accumulation, CapReturn, Split, Unsplit}

// GBP is the reporting currency.
const GBP = "GBP"

// Amount is a money amount in a named currency (ISO 4217), exactly as the ledger gave it.
type Amount struct {
	Value    Decimal
	Currency string
}

// IsZero reports whether the amount is zero (or absent).
func (a Amount) IsZero() bool { return a.Value.IsZero() }

// Source says where a transaction came from: the file (empty for inline content) and the
// 1-based line (0 for JSON input, where Index is set instead).
type Source struct {
	File  string
	Line  int
	Index int // 0-based position in a JSON array; -1 when the source is a text line
}

// Transaction is one normalized ledger entry. Which fields are meaningful depends on Action:
//
//	BUY, SELL           Quantity, Price (per share), Fees
//	DIVIDEND            Total, Tax
//	ACCUMULATION        Quantity, Total, Tax
//	CAPRETURN           Quantity, Total, Fees
//	SPLIT, UNSPLIT      Ratio
//
// Its figures are Decimal values, which hold a ledger's numbers without a heap object, so a
// large ledger costs one allocation for its transactions and the collector follows nothing in
// them but strings.
type Transaction struct {
	Date     Date
	Action   Action
	Ticker   string
	Quantity Decimal
	Price    Amount
	Fees     Amount
	Total    Amount
	Tax      Amount
	Ratio    Decimal
	Source   Source
}
