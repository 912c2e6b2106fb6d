package dsl

import (
	"github.com/cgt-tools/cgt/cgt/model"
)

// JSONTransaction is the JSON form of a transaction that commands return. Only the fields
// that apply to the action are present; numbers are exact decimal strings.
type JSONTransaction struct {
	Date     string      `json:"date" jsonschema_description:"Transaction date, YYYY-MM-DD." record:"timestamp"`
	Action   string      `json:"action" jsonschema:"enum=BUY,enum=SELL,enum=DIVIDEND,enum=ACCUMULATION,enum=CAPRETURN,enum=SPLIT,enum=UNSPLIT" jsonschema_description:"Kind of transaction."`
	Ticker   string      `json:"ticker" jsonschema_description:"Security identifier, upper case (AAPL, VOD.L, GB00B41YBW71)." record:"entity"`
	Quantity string      `json:"quantity,omitempty" jsonschema_description:"Number of shares, exact decimal string (BUY, SELL, ACCUMULATION, CAPRETURN)."`
	Price    *JSONAmount `json:"price,omitempty" jsonschema_description:"Price per share (BUY, SELL)."`
	Fees     *JSONAmount `json:"fees,omitempty" jsonschema_description:"Total incidental costs of the trade, present when non-zero (BUY, SELL, CAPRETURN)."`
	Total    *JSONAmount `json:"total,omitempty" jsonschema_description:"Total value (DIVIDEND, ACCUMULATION, CAPRETURN)."`
	Tax      *JSONAmount `json:"tax,omitempty" jsonschema_description:"Tax withheld, present when non-zero (DIVIDEND, ACCUMULATION)."`
	Ratio    string      `json:"ratio,omitempty" jsonschema_description:"Split ratio: shares after per share before (SPLIT), or shares before per share after (UNSPLIT)."`
	Source   *JSONSource `json:"source,omitempty" jsonschema_description:"Where the transaction was read from." record:"source"`
}

// JSONAmount is a money amount with its currency.
type JSONAmount struct {
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
		j.Quantity = exactString(t.Quantity.Exact())
		j.Price = jsonAmount(t.Price)
		j.Fees = optionalJSONAmount(t.Fees)
	case model.Dividend:
		j.Total = jsonAmount(t.Total)
		j.Tax = optionalJSONAmount(t.Tax)
	case model.Accumulation:
		j.Quantity = exactString(t.Quantity.Exact())
		j.Total = jsonAmount(t.Total)
		j.Tax = optionalJSONAmount(t.Tax)
	case model.CapReturn:
		j.Quantity = exactString(t.Quantity.Exact())
		j.Total = jsonAmount(t.Total)
		j.Fees = optionalJSONAmount(t.Fees)
	case model.Split, model.Unsplit:
		j.Ratio = exactString(t.Ratio.Exact())
	}
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

func jsonAmount(a model.Amount) *JSONAmount {
	return &JSONAmount{Amount: exactString(a.Value.Exact()), Currency: currencyOf(a)}
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
