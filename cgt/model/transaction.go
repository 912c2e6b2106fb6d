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
	SpouseIn     Action = "SPOUSEIN"
	SpouseOut    Action = "SPOUSEOUT"
	Rights       Action = "RIGHTS"
	Takeover     Action = "TAKEOVER"
	Demerger     Action = "DEMERGER"
	ERI          Action = "ERI"
	Pool         Action = "POOL"
	Negligible   Action = "NEGLIGIBLE"

	// Declarations: dated lines that say something about a security or an account rather than
	// move shares. They apply to the whole ledger.
	AccountDecl  Action = "ACCOUNT"      // Ticker = account label, AccountType = ISA|LISA|JISA|SIPP|GIA
	Alias        Action = "ALIAS"        // Ticker and NewTicker name one security (one pool)
	Exempt       Action = "EXEMPT"       // Ticker is a gilt or qualifying corporate bond (TCGA92 s115)
	NonReporting Action = "NONREPORTING" // Ticker is a non-reporting offshore fund (offshore income gains)
	ISINDecl     Action = "ISIN"         // Ticker is the security with the ISIN in ISIN (bundled ERI figures apply)
)

// Actions lists every action in the order documented.
var Actions = []Action{Buy, Sell, Dividend, Accumulation, CapReturn, Split, Unsplit,
	SpouseIn, SpouseOut, Rights, Takeover, Demerger, ERI, Pool, Negligible,
	AccountDecl, Alias, Exempt, NonReporting, ISINDecl}

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
//	BUY, SELL           Quantity, Price (per share) or Total (the whole consideration), Fees
//	DIVIDEND            Total, Tax
//	ACCUMULATION        Quantity, Total, Tax
//	CAPRETURN           Quantity, Total, Fees, Value (market value of the holding after it)
//	SPLIT, UNSPLIT      Ratio
//	SPOUSEOUT           Quantity
//	SPOUSEIN, POOL      Quantity, Cost
//	RIGHTS              Quantity, Price, Fees
//	TAKEOVER            Ticker (old), NewTicker, Quantity (new shares), Cash, Value (of the new shares)
//	DEMERGER            Ticker (parent), NewTicker, Quantity (new shares), Ratio (fraction of cost moved)
//	ERI                 Quantity (units held at the period end), Total
//	NEGLIGIBLE          Value (the value claimed for the whole holding; zero for nil)
//
// A BUY or SELL carries either Price (Total zero, no currency) or Total (Price zero, no
// currency): the total form states the consideration exactly where a price per share would not.
// Account, ISIN, Name and BrokerRef are optional labels (broker imports fill them). Tax, Ratio,
// NewTicker, Cost, Cash, Value and AccountType are in Event, read through the methods of the
// same names.
//
// Its figures are Decimal values, which hold a ledger's numbers without a heap object, so a
// large ledger costs one allocation for its transactions (and one per block of event lines,
// see Event) and the collector follows nothing in them but strings and the Event pointer.
type Transaction struct {
	_ NotComparable

	Date Date
	// NoCurrency is set by the ledger readers on a BUY or SELL whose price or total was
	// written without a currency, and so read as GBP: the engine warns when the security's
	// other trades are in a foreign currency. It sits in what would be padding after Date.
	NoCurrency bool
	Action     Action
	Ticker     string
	Quantity   Decimal
	Price      Amount
	Fees       Amount
	Total      Amount
	Account    string
	ISIN       string
	Name       string
	BrokerRef  string
	Source     Source
	// Event holds the fields of the lines other than trades (see Event); nil when none is set.
	// Copies of a transaction share it: change it through SetEvent, never in place.
	Event *Event
}

// Event holds the fields only income, corporate events, transfers and declarations use. A
// large ledger is mostly trades, so a transaction holds these behind a pointer rather than
// inline: a million-line ledger takes 200 MB less (docs/performance.md). Read them through the
// transaction's methods of the same names, which give zero values when Event is nil.
type Event struct {
	// Tax is the tax withheld on a DIVIDEND or ACCUMULATION.
	Tax   Amount
	Ratio Decimal
	// NewTicker is the security received in a TAKEOVER or DEMERGER.
	NewTicker string
	// Cost is the allowable cost carried in by SPOUSEIN and POOL.
	Cost Amount
	// Cash is the cash received alongside new shares in a TAKEOVER.
	Cash Amount
	// Value is the market value used to apportion cost on a part disposal (TAKEOVER, CAPRETURN),
	// or the value a negligible value claim gives the holding (NEGLIGIBLE).
	Value Amount
	// AccountType is the kind of account an ACCOUNT declaration declares.
	AccountType string
}

// IsZero reports whether no field is set.
func (e *Event) IsZero() bool { return e == nil || *e == Event{} }

// Tax is Event.Tax, zero when the transaction has no event fields.
func (t *Transaction) Tax() Amount {
	if t.Event == nil {
		return Amount{}
	}
	return t.Event.Tax
}

// Ratio is Event.Ratio, zero when the transaction has no event fields.
func (t *Transaction) Ratio() Decimal {
	if t.Event == nil {
		return Decimal{}
	}
	return t.Event.Ratio
}

// NewTicker is Event.NewTicker, empty when the transaction has no event fields.
func (t *Transaction) NewTicker() string {
	if t.Event == nil {
		return ""
	}
	return t.Event.NewTicker
}

// Cost is Event.Cost, zero when the transaction has no event fields.
func (t *Transaction) Cost() Amount {
	if t.Event == nil {
		return Amount{}
	}
	return t.Event.Cost
}

// Cash is Event.Cash, zero when the transaction has no event fields.
func (t *Transaction) Cash() Amount {
	if t.Event == nil {
		return Amount{}
	}
	return t.Event.Cash
}

// Value is Event.Value, zero when the transaction has no event fields.
func (t *Transaction) Value() Amount {
	if t.Event == nil {
		return Amount{}
	}
	return t.Event.Value
}

// AccountType is Event.AccountType, empty when the transaction has no event fields.
func (t *Transaction) AccountType() string {
	if t.Event == nil {
		return ""
	}
	return t.Event.AccountType
}

// SetEvent changes the transaction's event fields by edit on a copy of them (zero ones when
// it has none), so that other copies of the transaction, which share the old ones, keep them.
// An edit that leaves every field zero leaves Event nil.
func (t *Transaction) SetEvent(edit func(e *Event)) {
	var e Event
	if t.Event != nil {
		e = *t.Event
	}
	edit(&e)
	if e == (Event{}) {
		t.Event = nil
		return
	}
	t.Event = &e
}
