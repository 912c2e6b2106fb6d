package dsl

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/model"
	json "github.com/cgt-tools/cgt/internal/jsonx"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/cgt-tools/cgt/internal/typo"
)

// ParseAuto reads either form of ledger: a JSON array when the first non-blank character is
// '[', the line language otherwise.
func ParseAuto(file string, src []byte) ([]model.Transaction, error) {
	if looksLikeJSON(src) {
		return ParseJSON(file, src)
	}
	return Parse(file, src)
}

func looksLikeJSON(src []byte) bool {
	src = bytes.TrimPrefix(src, utf8BOM)
	for _, c := range src {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return true
		}
		return false
	}
	return false
}

// ParseJSON reads a JSON array of transaction objects (see JSONTransaction and
// docs/dsl-syntax.md). Syntax errors carry the line and column; errors in an object carry its
// array index and field in Context["index"] and Context["field"].
func ParseJSON(file string, src []byte) ([]model.Transaction, error) {
	src = bytes.TrimPrefix(src, utf8BOM)
	var items []json.RawMessage
	if err := json.Unmarshal(src, &items); err != nil {
		return nil, jsonDocumentError(file, src, err)
	}
	if items == nil {
		return nil, &model.Error{
			Code: model.CodeParse, Message: "expected a JSON array of transactions, found null",
			Hint: "send an array of transaction objects, [] for none", Examples: jsonArrayExample(),
			File: file, Line: 1, Column: 1, Value: "null",
		}
	}
	if len(items) > 0 && !looksLikeJSONTransaction(items[0]) {
		return nil, notAJSONLedger(file)
	}
	return ParseJSONArray(file, items)
}

// ParseJSONArray reads already-separated JSON transaction objects, for callers that received
// the array as part of a larger JSON document.
func ParseJSONArray(file string, items []json.RawMessage) ([]model.Transaction, error) {
	txns := make([]model.Transaction, 0, len(items))
	for i, raw := range items {
		t, err := parseJSONItem(file, i, raw)
		if err != nil {
			return nil, err
		}
		txns = append(txns, t)
	}
	return txns, nil
}

func jsonArrayExample() []string {
	return []string{"[" + jsonExamples[model.Buy] + "]"}
}

// jsonDocumentError reports a document that is not a JSON array, at the line and column where
// decoding stopped.
func jsonDocumentError(file string, src []byte, err error) *model.Error {
	off, msg := 0, "the input is not valid JSON: "+err.Error()
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		off = int(syntax.Offset) - 1
	case errors.As(err, &typ):
		msg = "expected a JSON array of transactions, found " + typ.Value
	}
	off = max(0, min(off, len(src)))
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	return &model.Error{
		Code:     model.CodeParse,
		Message:  msg,
		Hint:     "send a JSON array of transaction objects; look for a missing quote or comma, or a trailing comma, at the position given",
		Examples: jsonArrayExample(),
		File:     file,
		Line:     bytes.Count(src[:off], []byte{'\n'}) + 1,
		Column:   utf8.RuneCount(src[lineStart:off]) + 1,
		Value:    clip(string(src[off:min(len(src), off+20)])),
	}
}

// jsonKeys are the keys a transaction object may have, in the order they are documented.
var jsonKeys = []string{"date", "action", "ticker", "quantity", "price", "fees", "total", "tax", "ratio",
	"new_ticker", "cost", "cash", "value", "fraction", "account_type",
	"account", "isin", "name", "broker_ref", "source"}

// valueKeys are the keys that apply to some actions only (fieldsOf says which); the others
// (date, action, ticker, the labels and source) apply to every action.
var valueKeys = jsonKeys[3:15]

// jsonKeySynonyms are keys people send for ours.
var jsonKeySynonyms = tableMap(jsonKeySynonymRows)

var jsonKeySynonymRows = []row[string, string]{
	{"qty", "quantity"}, {"shares", "quantity"}, {"units", "quantity"}, {"symbol", "ticker"},
	{"type", "action"}, {"kind", "action"}, {"side", "action"}, {"fee", "fees"},
	{"commission", "fees"}, {"amount", "total"}, {"consideration", "total"}, {"withholding", "tax"},
	{"split_ratio", "ratio"}, {"new_symbol", "new_ticker"}, {"to_ticker", "new_ticker"},
	{"cost_fraction", "fraction"}, {"apportionment", "fraction"}, {"market_value", "value"},
	{"ref", "broker_ref"}, {"reference", "broker_ref"}, {"order_id", "broker_ref"}, {"description", "name"},
	{"wrapper", "account_type"}, {"accounttype", "account_type"},
}

// fieldsOf lists, per action, the required then the optional value fields. A BUY or SELL
// takes one of price and total (values checks that).
var fieldsOf = tableMap(fieldRows)

// fieldSpec is an action's required and optional value fields.
type fieldSpec struct{ required, optional []string }

var fieldRows = []row[model.Action, fieldSpec]{
	{model.Buy, fieldSpec{[]string{"quantity"}, []string{"price", "total", "fees"}}},
	{model.Sell, fieldSpec{[]string{"quantity"}, []string{"price", "total", "fees"}}},
	{model.Dividend, fieldSpec{[]string{"total"}, []string{"tax"}}},
	{model.Accumulation, fieldSpec{[]string{"quantity", "total"}, []string{"tax"}}},
	{model.CapReturn, fieldSpec{[]string{"quantity", "total"}, []string{"fees", "value"}}},
	{model.Split, fieldSpec{[]string{"ratio"}, nil}},
	{model.Unsplit, fieldSpec{[]string{"ratio"}, nil}},
	{model.SpouseOut, fieldSpec{[]string{"quantity"}, nil}},
	{model.SpouseIn, fieldSpec{[]string{"quantity", "cost"}, nil}},
	{model.Rights, fieldSpec{[]string{"quantity", "price"}, []string{"fees"}}},
	{model.Takeover, fieldSpec{[]string{"new_ticker", "quantity"}, []string{"cash", "value"}}},
	{model.Demerger, fieldSpec{[]string{"new_ticker", "quantity", "fraction"}, nil}},
	{model.ERI, fieldSpec{[]string{"quantity", "total"}, nil}},
	{model.Pool, fieldSpec{[]string{"quantity", "cost"}, nil}},
	{model.Negligible, fieldSpec{nil, []string{"value"}}},
	{model.AccountDecl, fieldSpec{[]string{"account_type"}, nil}},
	{model.Alias, fieldSpec{[]string{"new_ticker"}, nil}},
	{model.Exempt, fieldSpec{nil, nil}},
	{model.NonReporting, fieldSpec{nil, nil}},
	{model.ISINDecl, fieldSpec{[]string{"isin"}, nil}},
}

// jsonItem is one object of a JSON array being read.
type jsonItem struct {
	file   string
	index  int
	raw    json.RawMessage
	fields map[string]json.RawMessage
	action model.Action
}

func parseJSONItem(file string, index int, raw json.RawMessage) (model.Transaction, *model.Error) {
	j := jsonItem{file: file, index: index, raw: raw}
	var t model.Transaction
	if first := firstByte(raw); first != '{' {
		return t, j.fail(model.CodeParse, "", string(raw),
			"expected a transaction object, found "+jsonKind(raw), "each element of the array is an object such as the example")
	}
	if err := json.Unmarshal(raw, &j.fields); err != nil {
		return t, j.fail(model.CodeParse, "", string(raw), "the transaction object is not valid JSON: "+err.Error(), "send objects such as the example")
	}
	if err := j.checkKeys(); err != nil {
		return t, err
	}
	var err *model.Error
	if t.Date, err = j.date(); err != nil {
		return t, err
	}
	if t.Action, err = j.kind(); err != nil {
		return t, err
	}
	if t.Ticker, err = j.ticker(t.Action); err != nil {
		return t, err
	}
	if err = j.values(&t); err != nil {
		return t, err
	}
	if err = j.labels(&t); err != nil {
		return t, err
	}
	t.Source = model.Source{File: file, Line: 0, Index: index}
	return t, nil
}

// fail builds an error about one field (or the whole object when field is empty).
func (j *jsonItem) fail(code, field, value, msg, hint string) *model.Error {
	if value == "" {
		value = string(j.raw) // a missing field: quote the object it is missing from
	}
	where := fmt.Sprintf("transactions[%d]", j.index)
	if field != "" {
		where += "." + field
	}
	return &model.Error{
		Code:     code,
		Message:  where + ": " + msg,
		Hint:     hint,
		Examples: jsonExample(j.action),
		File:     j.file,
		Value:    clip(value),
		Context:  map[string]any{"index": j.index, "field": field},
	}
}

// checkKeys rejects the first unknown key, in sorted order so the error is the same every run.
func (j *jsonItem) checkKeys() *model.Error {
	keys := make([]string, 0, len(j.fields))
	for k := range j.fields {
		keys = append(keys, k)
	}
	order.Ascending(keys)
	for _, k := range keys {
		if slices.Contains(jsonKeys, k) {
			continue
		}
		hint := "allowed keys: " + strings.Join(jsonKeys, ", ")
		if s := suggestKey(k); s != "" {
			hint = "did you mean \"" + s + "\"? " + hint
		}
		return j.fail(model.CodeParse, k, k, fmt.Sprintf("unknown key %q", clip(k)), hint)
	}
	return nil
}

func suggestKey(k string) string {
	lower := strings.ToLower(k)
	if s, ok := jsonKeySynonyms[lower]; ok {
		return s
	}
	for _, key := range jsonKeys {
		if lower == key || typo.Distance(lower, key) <= 2 {
			return key
		}
	}
	return ""
}

// str reads a required string field.
func (j *jsonItem) str(field, what string) (string, *model.Error) {
	raw, ok := j.fields[field]
	if !ok {
		return "", j.fail(model.CodeParse, field, "", fmt.Sprintf("%q is missing", field), "give "+what)
	}
	s, ok := jsonString(raw)
	if !ok {
		return "", j.fail(model.CodeParse, field, string(raw),
			fmt.Sprintf("%q must be a string, found %s", field, jsonKind(raw)), "give "+what)
	}
	return s, nil
}

func (j *jsonItem) date() (model.Date, *model.Error) {
	s, err := j.str("date", `the date as a string "YYYY-MM-DD"`)
	if err != nil {
		return 0, err
	}
	d, problem := parseDate([]byte(s))
	switch problem {
	case dateForm:
		return 0, j.fail(model.CodeParse, "date", s, fmt.Sprintf("date %q is not in the form YYYY-MM-DD", clip(s)),
			`write dates as "YYYY-MM-DD" ("2024-06-20" for 20 June 2024)`)
	case dateNotReal:
		return 0, j.fail(model.CodeValidation, "date", s, fmt.Sprintf("date %q is not a real calendar date", s), notRealHint([]byte(s)))
	}
	return d, nil
}

func (j *jsonItem) kind() (model.Action, *model.Error) {
	s, err := j.str("action", "one of "+actionList())
	if err != nil {
		return "", err
	}
	if a, ok := lookupAction([]byte(s)); ok {
		j.action = a
		return a, nil
	}
	hint := "the actions are " + actionList()
	if sug := suggestAction(s); sug != "" {
		j.action = sug
		hint = "did you mean " + string(sug) + "? " + hint
	}
	return "", j.fail(model.CodeParse, "action", s, fmt.Sprintf("unknown action %q", clip(s)), hint)
}

func (j *jsonItem) ticker(a model.Action) (string, *model.Error) {
	if a == model.AccountDecl {
		s, err := j.str("ticker", "the account label as a string such as \"T212-ISA\"")
		if err != nil {
			return "", err
		}
		label, msg, hint := CheckAccountLabel(s)
		if msg != "" {
			return "", j.fail(model.CodeParse, "ticker", s, msg, hint)
		}
		return label, nil
	}
	return j.tickerField("ticker")
}

// tickerField reads a ticker from field (ticker or new_ticker).
func (j *jsonItem) tickerField(field string) (string, *model.Error) {
	s, err := j.str(field, "the ticker as a string such as \"AAPL\"")
	if err != nil {
		return "", err
	}
	var buf [maxTickerLen]byte
	up, bad := upperTicker([]byte(s), &buf)
	if bad >= 0 || len(up) == 0 {
		msg, hint := "ticker is empty", "give the ticker, such as \"AAPL\""
		if bad >= 0 {
			msg, hint = tickerProblem([]byte(s), bad)
		}
		return "", j.fail(model.CodeParse, field, s, msg, hint)
	}
	return string(up), nil
}

// values reads the number and money fields of the action and rejects the ones that do not
// apply to it.
func (j *jsonItem) values(t *model.Transaction) (err *model.Error) {
	spec := fieldsOf[t.Action]
	for _, f := range valueKeys {
		_, present := j.fields[f]
		required, optional := slices.Contains(spec.required, f), slices.Contains(spec.optional, f)
		switch {
		case required && !present:
			return j.fail(model.CodeParse, f, "", fmt.Sprintf("%q is missing; %s needs %s", f, t.Action, strings.Join(spec.required, " and ")),
				"add "+f+" as in the example")
		case present && !required && !optional:
			return j.fail(model.CodeParse, f, string(j.fields[f]), fmt.Sprintf("%q does not apply to %s", f, t.Action),
				fmt.Sprintf("%s takes %s; remove %q", t.Action, takes(spec.required, spec.optional), f))
		}
	}
	switch t.Action {
	case model.Buy, model.Sell:
		err = j.trade(t)
	case model.Dividend:
		if t.Total, err = j.money("total", positive, ""); err == nil {
			ev(t).Tax, err = j.money("tax", nonNegative, t.Total.Currency)
		}
	case model.Accumulation:
		if t.Quantity, err = j.decimal("quantity", nonNegative); err == nil {
			if t.Total, err = j.money("total", nonNegative, ""); err == nil {
				ev(t).Tax, err = j.money("tax", nonNegative, t.Total.Currency)
			}
		}
	case model.CapReturn:
		if t.Quantity, err = j.decimal("quantity", nonNegative); err == nil {
			if t.Total, err = j.money("total", positive, ""); err == nil {
				if t.Fees, err = j.money("fees", nonNegative, t.Total.Currency); err == nil {
					ev(t).Value, err = j.money("value", positive, "")
				}
			}
		}
	case model.Split, model.Unsplit:
		rule := ratioRule
		if t.Action == model.Unsplit {
			rule = wholeRatio
		}
		ev(t).Ratio, err = j.decimal("ratio", rule)
	case model.SpouseOut:
		t.Quantity, err = j.decimal("quantity", positive)
	case model.SpouseIn, model.Pool:
		if t.Quantity, err = j.decimal("quantity", positive); err == nil {
			ev(t).Cost, err = j.money("cost", nonNegative, "")
		}
	case model.Rights:
		if t.Quantity, err = j.decimal("quantity", positive); err == nil {
			if t.Price, err = j.money("price", nonNegative, ""); err == nil {
				t.Fees, err = j.money("fees", nonNegative, t.Price.Currency)
			}
		}
	case model.Takeover:
		if ev(t).NewTicker, err = j.tickerField("new_ticker"); err == nil {
			if t.Quantity, err = j.decimal("quantity", positive); err == nil {
				if ev(t).Cash, err = j.money("cash", nonNegative, ""); err == nil {
					ev(t).Value, err = j.money("value", positive, "")
				}
			}
		}
	case model.Demerger:
		if ev(t).NewTicker, err = j.tickerField("new_ticker"); err == nil {
			if t.Quantity, err = j.decimal("quantity", positive); err == nil {
				ev(t).Ratio, err = j.decimal("fraction", fractionRule)
			}
		}
	case model.ERI:
		if t.Quantity, err = j.decimal("quantity", positive); err == nil {
			t.Total, err = j.money("total", positive, "")
		}
	case model.Negligible:
		ev(t).Value, err = j.money("value", nonNegative, "")
	case model.AccountDecl:
		var s string
		if s, err = j.str("account_type", "one of "+strings.Join(accountTypes, ", ")); err == nil {
			typ, msg, hint := checkAccountType(s)
			if msg != "" {
				return j.fail(model.CodeValidation, "account_type", s, msg, hint)
			}
			ev(t).AccountType = typ
		}
	case model.Alias:
		if ev(t).NewTicker, err = j.tickerField("new_ticker"); err == nil && t.NewTicker() == t.Ticker {
			err = j.fail(model.CodeValidation, "new_ticker", t.NewTicker(), fmt.Sprintf("ALIAS names %s twice", t.Ticker),
				"give the two different tickers of one security in ticker and new_ticker")
		}
	}
	return err
}

// ev gives t's event fields to fill in, allocating them when t has none.
func ev(t *model.Transaction) *model.Event {
	if t.Event == nil {
		t.Event = new(model.Event)
	}
	return t.Event
}

// takes lists the value fields of an action for a hint.
func takes(required, optional []string) string {
	if len(required)+len(optional) == 0 {
		return "no value fields"
	}
	return strings.Join(append(slices.Clone(required), optional...), ", ")
}

// trade reads a BUY or SELL: a quantity, then a price per share or the total consideration
// (not both), and optional fees.
func (j *jsonItem) trade(t *model.Transaction) (err *model.Error) {
	_, hasPrice := j.fields["price"]
	_, hasTotal := j.fields["total"]
	switch {
	case hasPrice && hasTotal:
		return j.fail(model.CodeParse, "total", string(j.fields["total"]),
			fmt.Sprintf("\"price\" and \"total\" are both given; a %s takes one of them", t.Action),
			"give price (per share) or total (the whole consideration, for an amount that is no exact price per share), not both")
	case !hasPrice && !hasTotal:
		return j.fail(model.CodeParse, "price", "", fmt.Sprintf("\"price\" is missing; %s needs quantity and price (or total)", t.Action),
			"add price (per share), or total (the whole consideration), as in the example")
	}
	if t.Quantity, err = j.decimal("quantity", positive); err != nil {
		return err
	}
	main := &t.Price
	field := "price"
	if hasTotal {
		main, field = &t.Total, "total"
	}
	if *main, err = j.money(field, priceRule(t.Action), ""); err != nil {
		return err
	}
	t.NoCurrency = firstByte(j.fields[field]) != '{' // a plain string or number is GBP
	t.Fees, err = j.money("fees", nonNegative, main.Currency)
	return err
}

// labels reads the optional account, isin, name and broker_ref of any transaction.
func (j *jsonItem) labels(t *model.Transaction) *model.Error {
	if _, ok := j.fields["account"]; ok {
		s, err := j.str("account", "the account label as a string such as \"T212-ISA\"")
		if err != nil {
			return err
		}
		if t.Action == model.AccountDecl {
			return j.fail(model.CodeParse, "account", s, "an ACCOUNT declaration takes no \"account\"",
				"give the label of the account declared in \"ticker\" and its type in \"account_type\"")
		}
		label, msg, hint := CheckAccountLabel(s)
		if msg != "" {
			return j.fail(model.CodeParse, "account", s, msg, hint)
		}
		t.Account = label
	}
	if _, ok := j.fields["isin"]; ok {
		s, err := j.str("isin", "the ISIN as a string such as \"US0378331005\"")
		if err != nil {
			return err
		}
		isin, code, msg, hint := CheckISIN(s)
		if msg != "" {
			return j.fail(code, "isin", s, msg, hint)
		}
		t.ISIN = isin
	}
	if _, ok := j.fields["broker_ref"]; ok {
		s, err := j.str("broker_ref", "the broker's reference as a string")
		if err != nil {
			return err
		}
		if msg, hint := refProblem(s); msg != "" {
			return j.fail(model.CodeParse, "broker_ref", s, msg, hint)
		}
		t.BrokerRef = s
	}
	if _, ok := j.fields["name"]; ok {
		s, err := j.str("name", "the security's name as a string")
		if err != nil {
			return err
		}
		if s == "" {
			return j.fail(model.CodeParse, "name", `""`, "name is empty", "give the security's name, or leave the key out")
		}
		t.Name = s
	}
	return nil
}

// decimal reads a number given as a JSON string or number.
func (j *jsonItem) decimal(field string, rule valueRule) (model.Decimal, *model.Error) {
	raw := j.fields[field]
	text, err := j.numberText(field, raw, field)
	if err != nil {
		return model.Decimal{}, err
	}
	return j.checkedNumber(field, text, rule)
}

// numberText extracts the text of a number given as a string or a JSON number.
func (j *jsonItem) numberText(field string, raw json.RawMessage, what string) (string, *model.Error) {
	switch c := firstByte(raw); {
	case c == '"':
		if s, ok := jsonString(raw); ok {
			return s, nil
		}
	case c == '-' || isDigit(c):
		return string(bytes.TrimSpace(raw)), nil
	case c == 'n':
		return "", j.fail(model.CodeParse, field, "null", what+" must not be null",
			"give the number as a string such as \"100\", or leave the field out where it is optional")
	}
	return "", j.fail(model.CodeParse, field, string(raw), fmt.Sprintf("%s must be a decimal string, found %s", what, jsonKind(raw)),
		"give the number as a string such as \"100.5\"")
}

func (j *jsonItem) checkedNumber(field, text string, rule valueRule) (model.Decimal, *model.Error) {
	d, problem := parseDecimal([]byte(text))
	if problem != numOK {
		reason, hint := numberAdvice([]byte(text), problem)
		return d, j.fail(model.CodeParse, field, text, fmt.Sprintf("%s %q is not a plain decimal number: %s", field, clip(text), reason), hint)
	}
	if msg, hint := checkValue(field, d, rule, j.action); msg != "" {
		return d, j.fail(model.CodeValidation, field, text, msg, hint)
	}
	return d, nil
}

// money reads an amount: a string or number in GBP, or {"amount": ..., "currency": ...}.
// An optional field that is absent is zero in the currency given as absentCurrency.
func (j *jsonItem) money(field string, rule valueRule, absentCurrency string) (model.Amount, *model.Error) {
	raw, ok := j.fields[field]
	if !ok {
		return model.Amount{Currency: absentCurrency}, nil
	}
	if firstByte(raw) != '{' {
		text, err := j.numberText(field, raw, field)
		if err != nil {
			return model.Amount{}, err
		}
		d, err := j.checkedNumber(field, text, rule)
		return model.Amount{Value: d, Currency: model.GBP}, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return model.Amount{}, j.fail(model.CodeParse, field, string(raw), field+" is not a valid amount object", moneyHint)
	}
	for _, k := range sortedKeys(obj) {
		if k != "amount" && k != "currency" {
			return model.Amount{}, j.fail(model.CodeParse, field, k, fmt.Sprintf("unknown key %q in %s", clip(k), field), "an amount object has only \"amount\" and \"currency\"")
		}
	}
	amountRaw, hasAmount := obj["amount"]
	currencyRaw, hasCurrency := obj["currency"]
	if !hasAmount {
		return model.Amount{}, j.fail(model.CodeParse, field, string(raw), field+" has no \"amount\"", moneyHint)
	}
	if !hasCurrency {
		return model.Amount{}, j.fail(model.CodeParse, field, string(raw), field+" has no \"currency\"",
			"for an amount in GBP write a plain string such as \"150.00\"; otherwise add \"currency\": \"USD\"")
	}
	code, err := j.currency(field, currencyRaw)
	if err != nil {
		return model.Amount{}, err
	}
	text, err := j.numberText(field, amountRaw, field+".amount")
	if err != nil {
		return model.Amount{}, err
	}
	d, err := j.checkedNumber(field, text, rule)
	if code == "GBX" {
		return model.Amount{Value: pence(d), Currency: model.GBP}, err
	}
	return model.Amount{Value: d, Currency: code}, err
}

const moneyHint = `write an amount as a string in GBP ("150.00") or as {"amount": "150.00", "currency": "USD"}`

func (j *jsonItem) currency(field string, raw json.RawMessage) (string, *model.Error) {
	s, ok := jsonString(raw)
	if !ok {
		return "", j.fail(model.CodeParse, field, string(raw), fmt.Sprintf("%s.currency must be a string, found %s", field, jsonKind(raw)),
			"give an ISO 4217 code such as \"USD\"")
	}
	if isPence(s) {
		return "GBX", nil // read as pounds by money
	}
	code, ok := lookupCurrency([]byte(s))
	if !ok {
		return "", j.fail(model.CodeValidation, field, s, fmt.Sprintf("unknown currency %q: not an ISO 4217 code", clip(s)),
			"give an ISO 4217 code such as \"GBP\", \"USD\" or \"EUR\", or \"GBX\" for pence")
	}
	return code, nil
}

// jsonString decodes a JSON string value. Plain ASCII strings without escapes (every date,
// action, ticker and number in practice) are sliced out directly rather than decoded.
func jsonString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	plain := true
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	order.Ascending(keys)
	return keys
}

func firstByte(raw []byte) byte {
	for _, c := range raw {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}

// jsonKind names the JSON type of a value for messages.
func jsonKind(raw []byte) string {
	switch c := firstByte(raw); {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string " + clip(string(bytes.TrimSpace(raw)))
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || isDigit(c):
		return "the number " + clip(string(bytes.TrimSpace(raw)))
	}
	return "nothing"
}
