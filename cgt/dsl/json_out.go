package dsl

import (
	"github.com/cgt-tools/cgt/cgt/model"
)

// JSONTransaction is the JSON form of a transaction that commands return. Only the fields
// that apply to the action are present; numbers are exact decimal strings.
type JSONTransaction struct {
	_ model.NotComparable

	Date        string      `json:"date" jsonschema_description:"Transaction date, YYYY-MM-DD." record:"timestamp"`
	Action      string      `json:"action" jsonschema:"enum=BUY,enum=SELL,enum=DIVIDEND,enum=ACCUMULATION,enum=CAPRETURN,enum=SPLIT,enum=UNSPLIT,enum=SPOUSEIN,enum=SPOUSEOUT,enum=RIGHTS,enum=TAKEOVER,enum=DEMERGER,enum=ERI,enum=POOL,enum=NEGLIGIBLE,enum=ACCOUNT,enum=ALIAS,enum=EXEMPT,enum=NONREPORTING,enum=ISIN" jsonschema_description:"Kind of transaction, or a declaration (ACCOUNT, ALIAS, EXEMPT, NONREPORTING, ISIN)."`
	Ticker      string      `json:"ticker" jsonschema_description:"Security identifier, upper case (AAPL, VOD.L, GB00B41YBW71); the old security of a TAKEOVER, the parent of a DEMERGER, the account label of an ACCOUNT declaration." record:"entity"`
	NewTicker   string      `json:"new_ticker,omitempty" jsonschema_description:"The security received (TAKEOVER, DEMERGER), or the other name of the security (ALIAS)."`
	Quantity    string      `json:"quantity,omitempty" jsonschema_description:"Number of shares, exact decimal string; for TAKEOVER and DEMERGER the new shares received, for ERI the units held at the fund's period end."`
	Price       *JSONAmount `json:"price,omitempty" jsonschema_description:"Price per share (BUY, SELL, RIGHTS); absent on a BUY or SELL given by its total."`
	Fees        *JSONAmount `json:"fees,omitempty" jsonschema_description:"Total incidental costs, present when non-zero (BUY, SELL, RIGHTS, CAPRETURN)."`
	Total       *JSONAmount `json:"total,omitempty" jsonschema_description:"Total value (DIVIDEND, ACCUMULATION, CAPRETURN, ERI), or the whole consideration of a BUY or SELL given without a price."`
	Tax         *JSONAmount `json:"tax,omitempty" jsonschema_description:"Tax withheld, present when non-zero (DIVIDEND, ACCUMULATION)."`
	Ratio       string      `json:"ratio,omitempty" jsonschema_description:"Split ratio: shares after per share before (SPLIT), or shares before per share after (UNSPLIT)."`
	Fraction    string      `json:"fraction,omitempty" jsonschema_description:"Fraction of the parent's cost that moves to the new shares, between 0 and 1 (DEMERGER)."`
	Cost        *JSONAmount `json:"cost,omitempty" jsonschema_description:"Allowable cost carried in (SPOUSEIN, POOL)."`
	Cash        *JSONAmount `json:"cash,omitempty" jsonschema_description:"Cash received with the new shares, present when non-zero (TAKEOVER)."`
	Value       *JSONAmount `json:"value,omitempty" jsonschema_description:"Market value used to apportion cost: of the new shares (TAKEOVER) or of the holding after the distribution (CAPRETURN), or the value a negligible value claim gives the whole holding (NEGLIGIBLE, absent for nil); present when given."`
	AccountType string      `json:"account_type,omitempty" jsonschema:"enum=ISA,enum=LISA,enum=JISA,enum=SIPP,enum=GIA" jsonschema_description:"Type of the account declared (ACCOUNT)."`
	Account     string      `json:"account,omitempty" jsonschema_description:"Label of the account the transaction belongs to."`
	ISIN        string      `json:"isin,omitempty" jsonschema_description:"ISIN of the security."`
	Name        string      `json:"name,omitempty" jsonschema_description:"Name of the security, for information."`
	BrokerRef   string      `json:"broker_ref,omitempty" jsonschema_description:"The row's identity, written as its REF: the broker's reference (order or trade id), or where an export has none a fingerprint of the row (fp- and 16 hex digits). A row given again by another file, or by a ledger imported from it, counts once."`
	Source      *JSONSource `json:"source,omitempty" jsonschema_description:"Where the transaction was read from." record:"source"`
}

// JSONAmount is a money amount with its currency.
type JSONAmount struct {
	_ model.NotComparable

	Amount   string `json:"amount" jsonschema_description:"Exact decimal amount as given, such as 150.00."`
	Currency string `json:"currency" jsonschema_description:"ISO 4217 currency code, such as GBP or USD."`
}

// JSONSource says where a transaction came from: a file and line for ledger text, an index for
// a JSON array.
type JSONSource struct {
	File  string `json:"file,omitempty" jsonschema_description:"File name, absent for inline content."`
	Line  int    `json:"line,omitempty" jsonschema_description:"1-based line of the ledger text."`
	Index *int   `json:"index,omitempty" jsonschema_description:"0-based position in a JSON array of transactions."`
}

// ToJSON converts a transaction to its JSON form. ParseJSONArray reads the result back to the
// same transaction (apart from Source).
func ToJSON(t model.Transaction) JSONTransaction {
	j := JSONTransaction{Date: t.Date.String(), Action: string(t.Action), Ticker: t.Ticker}
	switch t.Action {
	case model.Buy, model.Sell:
		j.Quantity = decimalString(t.Quantity)
		if TotalForm(t) {
			j.Total = jsonAmount(t.Total)
		} else {
			j.Price = jsonAmount(t.Price)
		}
		j.Fees = optionalJSONAmount(t.Fees)
	case model.Dividend:
		j.Total = jsonAmount(t.Total)
		j.Tax = optionalJSONAmount(t.Tax())
	case model.Accumulation:
		j.Quantity = decimalString(t.Quantity)
		j.Total = jsonAmount(t.Total)
		j.Tax = optionalJSONAmount(t.Tax())
	case model.CapReturn:
		j.Quantity = decimalString(t.Quantity)
		j.Total = jsonAmount(t.Total)
		j.Fees = optionalJSONAmount(t.Fees)
		j.Value = optionalJSONAmount(t.Value())
	case model.Split, model.Unsplit:
		j.Ratio = decimalString(t.Ratio())
	case model.SpouseOut:
		j.Quantity = decimalString(t.Quantity)
	case model.SpouseIn, model.Pool:
		j.Quantity = decimalString(t.Quantity)
		j.Cost = jsonAmount(t.Cost())
	case model.Rights:
		j.Quantity = decimalString(t.Quantity)
		j.Price = jsonAmount(t.Price)
		j.Fees = optionalJSONAmount(t.Fees)
	case model.Takeover:
		j.NewTicker = t.NewTicker()
		j.Quantity = decimalString(t.Quantity)
		j.Cash = optionalJSONAmount(t.Cash())
		j.Value = optionalJSONAmount(t.Value())
	case model.Demerger:
		j.NewTicker = t.NewTicker()
		j.Quantity = decimalString(t.Quantity)
		j.Fraction = decimalString(t.Ratio())
	case model.ERI:
		j.Quantity = decimalString(t.Quantity)
		j.Total = jsonAmount(t.Total)
	case model.Negligible:
		if t.Value().Currency != "" || !t.Value().IsZero() {
			j.Value = jsonAmount(t.Value())
		}
	case model.AccountDecl:
		j.AccountType = t.AccountType()
	case model.Alias:
		j.NewTicker = t.NewTicker()
	}
	j.Account, j.ISIN, j.Name, j.BrokerRef = t.Account, t.ISIN, t.Name, t.BrokerRef
	j.Source = jsonSource(t.Source)
	return j
}

// ToJSONAll converts transactions in order.
func ToJSONAll(txns []model.Transaction) []JSONTransaction {
	out := make([]JSONTransaction, len(txns))
	for i, t := range txns {
		out[i] = ToJSON(t)
	}
	return out
}

// decimalString writes d at the scale it was given ("150.00" stays "150.00").
func decimalString(d model.Decimal) string {
	var buf [32]byte
	return string(d.AppendExact(buf[:0]))
}

func jsonAmount(a model.Amount) *JSONAmount {
	return &JSONAmount{Amount: decimalString(a.Value), Currency: currencyOf(a)}
}

func optionalJSONAmount(a model.Amount) *JSONAmount {
	if a.Value.IsZero() {
		return nil
	}
	return jsonAmount(a)
}

func jsonSource(s model.Source) *JSONSource {
	if s.File == "" && s.Line == 0 && s.Index < 0 {
		return nil
	}
	out := &JSONSource{File: s.File, Line: s.Line}
	if s.Line == 0 && s.Index >= 0 {
		index := s.Index
		out.Index = &index
	}
	return out
}
