package dsl

import (
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func gbp(s string) model.Amount { return model.Amount{Value: dec(s), Currency: model.GBP} }

func amt(s, ccy string) model.Amount { return model.Amount{Value: dec(s), Currency: ccy} }

// newFormCases are the lines added for accounts, broker imports and the corporate events, each
// with the transaction it reads as, its canonical line and its JSON form.
var newFormCases = []struct {
	name, line string
	want       model.Transaction
	canonical  string
	json       string
}{
	{"buy_total_form", "2024-04-01 BUY AAPL 0.3741 TOTAL 50.00 FEES 0.15",
		model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("0.3741"), Total: gbp("50.00"), Fees: gbp("0.15")},
		"2024-04-01 BUY AAPL 0.3741 TOTAL 50.00 GBP FEES 0.15 GBP\n",
		`{"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "0.3741", "total": "50.00", "fees": "0.15"}`},
	{"sell_total_form_currency", "2024-04-01 sell aapl 2 total 401.20 usd",
		model.Transaction{Action: model.Sell, Ticker: "AAPL", Quantity: dec("2"), Total: amt("401.20", "USD")},
		"2024-04-01 SELL AAPL 2 TOTAL 401.20 USD\n",
		`{"date": "2024-04-01", "action": "SELL", "ticker": "AAPL", "quantity": "2", "total": {"amount": "401.20", "currency": "USD"}}`},
	{"sell_total_zero", "2024-04-01 SELL DUD 10 TOTAL 0",
		model.Transaction{Action: model.Sell, Ticker: "DUD", Quantity: dec("10"), Total: gbp("0")},
		"2024-04-01 SELL DUD 10 TOTAL 0 GBP\n",
		`{"date": "2024-04-01", "action": "SELL", "ticker": "DUD", "quantity": "10", "total": "0"}`},
	{"price_in_pence_gbx", "2024-04-01 BUY VOD.L 1000 @ 72.15 GBX FEES 995 gbx",
		model.Transaction{Action: model.Buy, Ticker: "VOD.L", Quantity: dec("1000"), Price: gbp("0.7215"), Fees: gbp("9.95")},
		"2024-04-01 BUY VOD.L 1000 @ 0.7215 GBP FEES 9.95 GBP\n",
		`{"date": "2024-04-01", "action": "BUY", "ticker": "VOD.L", "quantity": "1000", "price": {"amount": "72.15", "currency": "GBX"}, "fees": {"amount": "995", "currency": "gbx"}}`},
	{"price_in_pence_gbp_lower_p", "2024-04-01 BUY VOD.L 1000 @ 72 GBp",
		model.Transaction{Action: model.Buy, Ticker: "VOD.L", Quantity: dec("1000"), Price: gbp("0.72")},
		"2024-04-01 BUY VOD.L 1000 @ 0.72 GBP\n",
		`{"date": "2024-04-01", "action": "BUY", "ticker": "VOD.L", "quantity": "1000", "price": {"amount": "72", "currency": "GBp"}}`},
	{"gbp_lower_case_stays_pounds", "2024-04-01 BUY VOD.L 1000 @ 72 gbp",
		model.Transaction{Action: model.Buy, Ticker: "VOD.L", Quantity: dec("1000"), Price: gbp("72")},
		"2024-04-01 BUY VOD.L 1000 @ 72 GBP\n",
		`{"date": "2024-04-01", "action": "BUY", "ticker": "VOD.L", "quantity": "1000", "price": {"amount": "72", "currency": "gbp"}}`},
	{"labels_in_any_order", "2024-04-01 BUY AAPL 1 @ 2 USD REF T212-0001 isin us0378331005 ACCOUNT t212-isa # Apple",
		model.Transaction{Action: model.Buy, Ticker: "AAPL", Quantity: dec("1"), Price: amt("2", "USD"),
			Account: "T212-ISA", ISIN: "US0378331005", BrokerRef: "T212-0001"},
		"2024-04-01 BUY AAPL 1 @ 2 USD ACCOUNT T212-ISA ISIN US0378331005 REF T212-0001\n",
		`{"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "1", "price": {"amount": "2", "currency": "USD"}, "broker_ref": "T212-0001", "isin": "us0378331005", "account": "t212-isa"}`},
	{"label_after_fees", "2024-04-01 SELL AAPL 1 @ 2 FEES 1 ACCOUNT GIA",
		model.Transaction{Action: model.Sell, Ticker: "AAPL", Quantity: dec("1"), Price: gbp("2"), Fees: gbp("1"), Account: "GIA"},
		"2024-04-01 SELL AAPL 1 @ 2 GBP FEES 1 GBP ACCOUNT GIA\n",
		`{"date": "2024-04-01", "action": "SELL", "ticker": "AAPL", "quantity": "1", "price": "2", "fees": "1", "account": "GIA"}`},
	{"label_on_a_dividend", "2024-07-15 DIVIDEND VOD.L TOTAL 12.50 REF div/2024/07",
		model.Transaction{Action: model.Dividend, Ticker: "VOD.L", Total: gbp("12.50"), BrokerRef: "div/2024/07"},
		"2024-07-15 DIVIDEND VOD.L TOTAL 12.50 GBP REF div/2024/07\n",
		`{"date": "2024-07-15", "action": "DIVIDEND", "ticker": "VOD.L", "total": "12.50", "broker_ref": "div/2024/07"}`},
	{"spouseout", "2024-08-01 SPOUSEOUT VOD.L 500",
		model.Transaction{Action: model.SpouseOut, Ticker: "VOD.L", Quantity: dec("500")},
		"2024-08-01 SPOUSEOUT VOD.L 500\n",
		`{"date": "2024-08-01", "action": "SPOUSEOUT", "ticker": "VOD.L", "quantity": "500"}`},
	{"spousein", "2024-08-01 SPOUSEIN VOD.L 500 COST 612.40",
		model.Transaction{Action: model.SpouseIn, Ticker: "VOD.L", Quantity: dec("500"), Event: &model.Event{Cost: gbp("612.40")}},
		"2024-08-01 SPOUSEIN VOD.L 500 COST 612.40 GBP\n",
		`{"date": "2024-08-01", "action": "SPOUSEIN", "ticker": "VOD.L", "quantity": "500", "cost": "612.40"}`},
	{"rights", "2024-09-02 RIGHTS LLOY 200 @ 0.35 FEES 1.50",
		model.Transaction{Action: model.Rights, Ticker: "LLOY", Quantity: dec("200"), Price: gbp("0.35"), Fees: gbp("1.50")},
		"2024-09-02 RIGHTS LLOY 200 @ 0.35 GBP FEES 1.50 GBP\n",
		`{"date": "2024-09-02", "action": "RIGHTS", "ticker": "LLOY", "quantity": "200", "price": "0.35", "fees": "1.50"}`},
	{"takeover_shares_only", "2024-10-01 TAKEOVER OLDCO NEWCO 150",
		model.Transaction{Action: model.Takeover, Ticker: "OLDCO", Event: &model.Event{NewTicker: "NEWCO"}, Quantity: dec("150")},
		"2024-10-01 TAKEOVER OLDCO NEWCO 150\n",
		`{"date": "2024-10-01", "action": "TAKEOVER", "ticker": "OLDCO", "new_ticker": "NEWCO", "quantity": "150"}`},
	{"takeover_cash_and_value", "2024-10-01 TAKEOVER OLDCO NEWCO 150 CASH 300.00 VALUE 4500.00",
		model.Transaction{Action: model.Takeover, Ticker: "OLDCO", Event: &model.Event{NewTicker: "NEWCO", Cash: gbp("300.00"), Value: gbp("4500.00")}, Quantity: dec("150")},
		"2024-10-01 TAKEOVER OLDCO NEWCO 150 CASH 300.00 GBP VALUE 4500.00 GBP\n",
		`{"date": "2024-10-01", "action": "TAKEOVER", "ticker": "OLDCO", "new_ticker": "NEWCO", "quantity": "150", "cash": "300.00", "value": "4500.00"}`},
	{"takeover_value_before_cash", "2024-10-01 TAKEOVER OLDCO NEWCO 150 VALUE 45 USD CASH 3 USD",
		model.Transaction{Action: model.Takeover, Ticker: "OLDCO", Event: &model.Event{NewTicker: "NEWCO", Cash: amt("3", "USD"), Value: amt("45", "USD")}, Quantity: dec("150")},
		"2024-10-01 TAKEOVER OLDCO NEWCO 150 CASH 3 USD VALUE 45 USD\n",
		`{"date": "2024-10-01", "action": "TAKEOVER", "ticker": "OLDCO", "new_ticker": "NEWCO", "quantity": "150", "cash": {"amount": "3", "currency": "USD"}, "value": {"amount": "45", "currency": "USD"}}`},
	{"demerger", "2024-10-15 DEMERGER ABC ABCX 50 COST 0.25",
		model.Transaction{Action: model.Demerger, Ticker: "ABC", Event: &model.Event{NewTicker: "ABCX", Ratio: dec("0.25")}, Quantity: dec("50")},
		"2024-10-15 DEMERGER ABC ABCX 50 COST 0.25\n",
		`{"date": "2024-10-15", "action": "DEMERGER", "ticker": "ABC", "new_ticker": "ABCX", "quantity": "50", "fraction": "0.25"}`},
	{"capreturn_with_value", "2024-07-15 CAPRETURN XYZ 100 TOTAL 4000.00 FEES 5 VALUE 20000.00",
		model.Transaction{Action: model.CapReturn, Ticker: "XYZ", Quantity: dec("100"), Total: gbp("4000.00"), Fees: gbp("5"), Event: &model.Event{Value: gbp("20000.00")}},
		"2024-07-15 CAPRETURN XYZ 100 TOTAL 4000.00 GBP FEES 5 GBP VALUE 20000.00 GBP\n",
		`{"date": "2024-07-15", "action": "CAPRETURN", "ticker": "XYZ", "quantity": "100", "total": "4000.00", "fees": "5", "value": "20000.00"}`},
	{"capreturn_value_without_fees", "2024-07-15 CAPRETURN XYZ 100 TOTAL 4000.00 VALUE 20000.00",
		model.Transaction{Action: model.CapReturn, Ticker: "XYZ", Quantity: dec("100"), Total: gbp("4000.00"), Event: &model.Event{Value: gbp("20000.00")}},
		"2024-07-15 CAPRETURN XYZ 100 TOTAL 4000.00 GBP VALUE 20000.00 GBP\n",
		`{"date": "2024-07-15", "action": "CAPRETURN", "ticker": "XYZ", "quantity": "100", "total": "4000.00", "value": "20000.00"}`},
	{"eri", "2025-01-31 ERI VWRL 120 TOTAL 14.62",
		model.Transaction{Action: model.ERI, Ticker: "VWRL", Quantity: dec("120"), Total: gbp("14.62")},
		"2025-01-31 ERI VWRL 120 TOTAL 14.62 GBP\n",
		`{"date": "2025-01-31", "action": "ERI", "ticker": "VWRL", "quantity": "120", "total": "14.62"}`},
	{"pool_1982_rebasing", "1982-03-31 POOL BP.L 1000 COST 2150.00",
		model.Transaction{Action: model.Pool, Ticker: "BP.L", Quantity: dec("1000"), Event: &model.Event{Cost: gbp("2150.00")}},
		"1982-03-31 POOL BP.L 1000 COST 2150.00 GBP\n",
		`{"date": "1982-03-31", "action": "POOL", "ticker": "BP.L", "quantity": "1000", "cost": "2150.00"}`},
	{"account_declaration", "2024-04-06 ACCOUNT t212-isa isa",
		model.Transaction{Action: model.AccountDecl, Ticker: "T212-ISA", Event: &model.Event{AccountType: "ISA"}},
		"2024-04-06 ACCOUNT T212-ISA ISA\n",
		`{"date": "2024-04-06", "action": "ACCOUNT", "ticker": "t212-isa", "account_type": "isa"}`},
	{"account_declaration_gia", "2024-04-06 ACCOUNT IBKR GIA",
		model.Transaction{Action: model.AccountDecl, Ticker: "IBKR", Event: &model.Event{AccountType: "GIA"}},
		"2024-04-06 ACCOUNT IBKR GIA\n",
		`{"date": "2024-04-06", "action": "ACCOUNT", "ticker": "IBKR", "account_type": "GIA"}`},
	{"alias", "2024-01-01 ALIAS VOD.L VOD",
		model.Transaction{Action: model.Alias, Ticker: "VOD.L", Event: &model.Event{NewTicker: "VOD"}},
		"2024-01-01 ALIAS VOD.L VOD\n",
		`{"date": "2024-01-01", "action": "ALIAS", "ticker": "VOD.L", "new_ticker": "VOD"}`},
	{"exempt", "2024-01-01 EXEMPT TR28 ISIN GB00BFWFPP71",
		model.Transaction{Action: model.Exempt, Ticker: "TR28", ISIN: "GB00BFWFPP71"},
		"2024-01-01 EXEMPT TR28 ISIN GB00BFWFPP71\n",
		`{"date": "2024-01-01", "action": "EXEMPT", "ticker": "TR28", "isin": "GB00BFWFPP71"}`},
	{"nonreporting", "2024-01-01 NONREPORTING VTI",
		model.Transaction{Action: model.NonReporting, Ticker: "VTI"},
		"2024-01-01 NONREPORTING VTI\n",
		`{"date": "2024-01-01", "action": "NONREPORTING", "ticker": "VTI"}`},
}

func TestParseReadsTheNewForms(t *testing.T) {
	for _, tt := range newFormCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("l.cgt", []byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.Date = got[0].Date
			sameTransactions(t, got, []model.Transaction{want})
			if s := Format(got[0]); s != tt.canonical {
				t.Errorf("canonical form %q, want %q", s, tt.canonical)
			}
			again, err := Parse("", []byte(tt.canonical))
			if err != nil {
				t.Fatal(err)
			}
			sameTransactions(t, again, got)
			if s := Format(again[0]); s != tt.canonical {
				t.Errorf("canonical form is not stable: %q", s)
			}
		})
	}
}

func TestParseJSONReadsTheNewForms(t *testing.T) {
	for _, tt := range newFormCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseJSON("l.json", []byte("["+tt.json+"]"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := Parse("", []byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			sameTransactions(t, got, want)
			again, err := ParseJSON("", mustMarshal(t, ToJSONAll(got)))
			if err != nil {
				t.Fatal(err)
			}
			sameTransactions(t, again, got)
			if s := Format(got[0]); s != tt.canonical {
				t.Errorf("canonical form %q, want %q", s, tt.canonical)
			}
		})
	}
}

func TestTotalFormKeepsPriceEmpty(t *testing.T) {
	got, err := Parse("", []byte("2024-04-01 BUY AAPL 0.3741 TOTAL 50.00"))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Price != (model.Amount{}) || got[0].Fees.Currency != model.GBP || !TotalForm(got[0]) {
		t.Errorf("got %+v", got[0])
	}
	j := string(mustMarshal(t, ToJSON(got[0])))
	if strings.Contains(j, `"price"`) || !strings.Contains(j, `"total":{"amount":"50.00","currency":"GBP"}`) {
		t.Errorf("JSON %s", j)
	}
}

func TestPenceConvertExactlyToPounds(t *testing.T) {
	tests := []struct{ in, want string }{
		{"150.25", "1.5025"},
		{"150", "1.50"},
		{"0.5", "0.005"},
		{"99", "0.99"},
		{"0", "0.00"},
		{"1234567890123456789012.5", "12345678901234567890.125"},
	}
	for _, tt := range tests {
		got, err := Parse("", []byte("2024-04-01 SELL VOD.L 1 @ "+tt.in+" GBX"))
		if err != nil {
			t.Fatal(err)
		}
		if s := exactString(got[0].Price.Value.Exact()); s != tt.want || got[0].Price.Currency != model.GBP {
			t.Errorf("%s GBX = %s %s, want %s GBP", tt.in, s, got[0].Price.Currency, tt.want)
		}
		j, err := ParseJSON("", []byte(`[{"date": "2024-04-01", "action": "SELL", "ticker": "X", "quantity": "1", "price": {"amount": "`+tt.in+`", "currency": "GBp"}}]`))
		if err != nil {
			t.Fatal(err)
		}
		if s := exactString(j[0].Price.Value.Exact()); s != tt.want || j[0].Price.Currency != model.GBP {
			t.Errorf("JSON %s GBp = %s %s", tt.in, s, j[0].Price.Currency)
		}
	}
}

func TestISINCheckDigit(t *testing.T) {
	for _, isin := range []string{"US0378331005", "GB00BH4HKS39", "IE00B4L5Y983", "GB0002634946", "US5949181045", "GB00BFWFPP71", "GB00B03MLX29"} {
		if got, code, msg, _ := CheckISIN(strings.ToLower(isin)); got != isin || msg != "" {
			t.Errorf("%s: got %q %s %s", isin, got, code, msg)
		}
	}
	for _, bad := range []string{"US0378331006", "GB00BH4HKS38", "IE00B4L5Y984"} {
		if _, code, msg, _ := CheckISIN(bad); code != model.CodeValidation || !strings.Contains(msg, "wrong check digit") {
			t.Errorf("%s: %s %s", bad, code, msg)
		}
	}
	for _, bad := range []string{"US037833100", "US03783310055", "1S0378331005", "US037833100X", "US03783#1005", ""} {
		if _, code, msg, _ := CheckISIN(bad); code != model.CodeParse || msg == "" {
			t.Errorf("%q: %s %s", bad, code, msg)
		}
	}
}

func TestParseNewFormErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		code  string
		col   int
		value string
		msg   string
		hint  string
	}{
		{"decimal_comma", "2024-01-01 BUY A 150,25 @ 2", model.CodeParse, 18, "150,25", "not a plain decimal number", "write 150.25 if the comma is a decimal point, or 15025 if it separates thousands"},
		{"decimal_comma_price", "2024-01-01 BUY A 1 @ 2,5 USD", model.CodeParse, 22, "2,5", "decimal commas", "write 2.5 if the comma is a decimal point, or 25 if"},
		{"thousands_and_point", "2024-01-01 BUY A 1,000.50 @ 2", model.CodeParse, 18, "1,000.50", "thousands separators", "write 1000.50"},
		{"comma_three_digits_offers_both", "2024-01-01 BUY A 1,000 @ 2", model.CodeParse, 18, "1,000", "thousands separators", "write 1000 if the comma separates thousands, or 1.000 if it is a decimal point"},
		{"european_form", "2024-01-01 BUY A 1.000,50 @ 2", model.CodeParse, 18, "1.000,50", "decimal comma", "write 1000.50"},
		{"millions", "2024-01-01 BUY A 1,000,000 @ 2", model.CodeParse, 18, "1,000,000", "thousands separators", "write 1000000"},
		{"total_form_zero_buy", "2024-01-01 BUY A 1 TOTAL 0", model.CodeValidation, 26, "0", "amounts must be positive: total is 0", "greater than zero"},
		{"neither_at_nor_total", "2024-01-01 BUY A 1 COST 5", model.CodeParse, 20, "COST", "expected '@' after quantity", "TOTAL AMOUNT"},
		{"bad_isin_check_digit", "2024-01-01 BUY AAPL 1 @ 2 ISIN US0378331006", model.CodeValidation, 32, "US0378331006", "wrong check digit", "mistyped"},
		{"isin_wrong_form", "2024-01-01 BUY AAPL 1 @ 2 ISIN AAPL", model.CodeParse, 32, "AAPL", "not in the ISIN form", "12 characters"},
		{"label_twice", "2024-01-01 BUY AAPL 1 @ 2 ACCOUNT A ACCOUNT B", model.CodeParse, 37, "ACCOUNT", "given twice", "at most once"},
		{"label_without_value", "2024-01-01 BUY AAPL 1 @ 2 REF", model.CodeParse, 30, "2024-01-01 BUY AAPL 1 @ 2 REF", "expected a value after REF", "REF BROKER_REF"},
		{"account_label_bad_character", "2024-01-01 BUY AAPL 1 @ 2 ACCOUNT my_isa", model.CodeParse, 37, "my_isa", "account label", "letters and digits"},
		{"ref_too_long", "2024-01-01 BUY AAPL 1 @ 2 REF " + strings.Repeat("x", 65), model.CodeParse, 31, strings.Repeat("x", 64) + "…", "longer than 64", "double quotes"},
		{"label_typo", "2024-01-01 BUY AAPL 1 @ 2 ACCT ISA", model.CodeParse, 27, "ACCT", `found "ACCT"`, "did you mean ACCOUNT?"},
		{"label_typo_at_end", "2024-01-01 SPLIT A RATIO 2 ISN GB00BH4HKS39", model.CodeParse, 28, "ISN", `unexpected "ISN"`, "did you mean ISIN?"},
		{"unknown_account_type", "2024-04-06 ACCOUNT MAIN TAXABLE", model.CodeValidation, 25, "TAXABLE", `unknown account type "TAXABLE"`, "did you mean GIA?"},
		{"account_type_missing", "2024-04-06 ACCOUNT ISA", model.CodeParse, 23, "2024-04-06 ACCOUNT ISA", "expected the account type", "ACCOUNT LABEL TYPE"},
		{"account_label_on_declaration", "2024-04-06 ACCOUNT A ISA ACCOUNT B", model.CodeParse, 26, "ACCOUNT", "takes no ACCOUNT label", "DATE ACCOUNT LABEL TYPE"},
		{"alias_same_ticker", "2024-01-01 ALIAS VOD vod", model.CodeValidation, 1, "2024-01-01 ALIAS VOD vod", "names VOD twice", "two different tickers"},
		{"alias_missing_other", "2024-01-01 ALIAS VOD", model.CodeParse, 21, "2024-01-01 ALIAS VOD", "expected the other ticker", "example"},
		{"spousein_without_cost", "2024-01-01 SPOUSEIN VOD 10", model.CodeParse, 27, "2024-01-01 SPOUSEIN VOD 10", "expected 'COST'", "allowable cost"},
		{"pool_negative_cost", "2008-04-05 POOL VOD 10 COST -5", model.CodeValidation, 29, "-5", "cannot be negative", "without a sign"},
		{"spouseout_zero", "2024-01-01 SPOUSEOUT VOD 0", model.CodeValidation, 26, "0", "amounts must be positive", "greater than zero"},
		{"takeover_new_ticker_missing", "2024-01-01 TAKEOVER OLD 150 CASH 3", model.CodeParse, 29, "CASH", `quantity "CASH" is not a plain decimal`, "the new ticker seems to be missing"},
		{"takeover_cash_twice", "2024-01-01 TAKEOVER OLD NEW 1 CASH 3 CASH 4", model.CodeParse, 38, "CASH", "given twice", "once"},
		{"takeover_fees", "2024-01-01 TAKEOVER OLD NEW 1 FEES 3", model.CodeParse, 31, "FEES", "takes CASH or VALUE, not FEES", "CASH AMOUNT [CCY] or VALUE"},
		{"takeover_zero_value", "2024-01-01 TAKEOVER OLD NEW 1 VALUE 0", model.CodeValidation, 37, "0", "amounts must be positive", "greater than zero"},
		{"demerger_fraction_one", "2024-01-01 DEMERGER P N 10 COST 1", model.CodeValidation, 33, "1", "between 0 and 1", "0.25 for 25%"},
		{"demerger_fraction_percent", "2024-01-01 DEMERGER P N 10 COST 25%", model.CodeParse, 33, "25%", "not a plain decimal", "0.25 for 25%"},
		{"demerger_fraction_amount", "2024-01-01 DEMERGER P N 10 COST 0.25 GBP", model.CodeParse, 38, "GBP", "after the fraction", "not an amount"},
		{"capreturn_tax", "2024-01-01 CAPRETURN X 1 TOTAL 5 TAX 1", model.CodeParse, 34, "TAX", "takes FEES or VALUE, not TAX", "FEES AMOUNT"},
		{"isin_declaration_check_digit", "2024-01-01 ISIN VUSA IE00B3XXRP08", model.CodeValidation, 22, "IE00B3XXRP08", "wrong check digit", "mistyped"},
		{"isin_declaration_not_an_isin", "2024-01-01 ISIN VUSA VUSA.L", model.CodeParse, 22, "VUSA.L", "not in the ISIN form", "12 characters"},
		{"isin_declaration_missing_code", "2024-01-01 ISIN VUSA", model.CodeParse, 21, "2024-01-01 ISIN VUSA", "expected the ISIN after VUSA", "ISIN TICKER CODE"},
		{"eri_zero_units", "2024-01-01 ERI X 0 TOTAL 5", model.CodeValidation, 18, "0", "amounts must be positive", "greater than zero"},
		{"rights_without_at", "2024-01-01 RIGHTS X 10 0.35", model.CodeParse, 24, "0.35", "expected '@'", "RIGHTS TICKER QUANTITY @ PRICE"},
		{"pence_typo_currency", "2024-01-01 BUY X 1 @ 2 GBC", model.CodeValidation, 24, "GBC", "unknown currency", "GBX for pence"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("led.cgt", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			e := asModelError(t, err)
			if e.Code != tt.code || e.Line != 1 || e.Column != tt.col || e.Value != tt.value {
				t.Errorf("got code=%s col=%d value=%q, want %s %d %q (%s)", e.Code, e.Column, e.Value, tt.code, tt.col, tt.value, e.Message)
			}
			if !strings.Contains(e.Message, tt.msg) {
				t.Errorf("message %q lacks %q", e.Message, tt.msg)
			}
			if !strings.Contains(e.Hint, tt.hint) && !(tt.hint == "example" && len(e.Examples) > 0) {
				t.Errorf("hint %q lacks %q", e.Hint, tt.hint)
			}
			checkAdvice(t, e)
		})
	}
}

func TestParseJSONNewFormErrors(t *testing.T) {
	const buy = `"date": "2024-04-01", "action": "BUY", "ticker": "AAPL", "quantity": "10"`
	tests := []struct {
		name, item, code, field, value, msg, hint string
	}{
		{"price_and_total", `{` + buy + `, "price": "1", "total": "10"}`, model.CodeParse, "total", `"10"`, `"price" and "total" are both given`, "not both"},
		{"neither_price_nor_total", `{` + buy + `}`, model.CodeParse, "price", clip(`{` + buy + `}`), `"price" is missing; BUY needs quantity and price (or total)`, "total"},
		{"decimal_comma_string", `{` + buy + `, "price": "150,25"}`, model.CodeParse, "price", "150,25", "not a plain decimal", "write 150.25 if the comma is a decimal point, or 15025 if it separates thousands"},
		{"bad_isin", `{` + buy + `, "price": "1", "isin": "US0378331006"}`, model.CodeValidation, "isin", "US0378331006", "wrong check digit", "mistyped"},
		{"empty_account", `{` + buy + `, "price": "1", "account": ""}`, model.CodeParse, "account", "", "account label is empty", "leave the key out"},
		{"ref_with_newline", `{` + buy + `, "price": "1", "broker_ref": "A\nB"}`, model.CodeParse, "broker_ref", "A\nB", "control character", "double quotes"},
		{"null_name", `{` + buy + `, "price": "1", "name": null}`, model.CodeParse, "name", "null", `"name" must be a string`, "name"},
		{"unknown_account_type", `{"date": "2024-04-06", "action": "ACCOUNT", "ticker": "A", "account_type": "PENSION"}`, model.CodeValidation, "account_type", "PENSION", "unknown account type", "did you mean SIPP?"},
		{"account_on_declaration", `{"date": "2024-04-06", "action": "ACCOUNT", "ticker": "A", "account_type": "ISA", "account": "B"}`, model.CodeParse, "account", "B", "takes no", "ticker"},
		{"takeover_without_new_ticker", `{"date": "2024-04-06", "action": "TAKEOVER", "ticker": "A", "quantity": "1"}`, model.CodeParse, "new_ticker", "", `"new_ticker" is missing`, "add new_ticker"},
		{"demerger_ratio_key", `{"date": "2024-04-06", "action": "DEMERGER", "ticker": "A", "new_ticker": "B", "quantity": "1", "fraction": "0.5", "ratio": "0.5"}`, model.CodeParse, "ratio", `"0.5"`, "does not apply to DEMERGER", "new_ticker, quantity, fraction"},
		{"demerger_fraction_range", `{"date": "2024-04-06", "action": "DEMERGER", "ticker": "A", "new_ticker": "B", "quantity": "1", "fraction": "1.5"}`, model.CodeValidation, "fraction", "1.5", "between 0 and 1", "0.25"},
		{"value_on_a_buy", `{` + buy + `, "price": "1", "value": "3"}`, model.CodeParse, "value", `"3"`, "does not apply to BUY", "quantity, price, total, fees"},
		{"alias_same", `{"date": "2024-04-06", "action": "ALIAS", "ticker": "A", "new_ticker": "a"}`, model.CodeValidation, "new_ticker", "A", "names A twice", "two different tickers"},
		{"exempt_with_quantity", `{"date": "2024-04-06", "action": "EXEMPT", "ticker": "A", "quantity": "1"}`, model.CodeParse, "quantity", `"1"`, "does not apply to EXEMPT", "no value fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseJSON("led.json", []byte("["+tt.item+"]"))
			if err == nil {
				t.Fatal("no error")
			}
			e := asModelError(t, err)
			if e.Code != tt.code || e.Context["field"] != tt.field || (tt.value != "" && e.Value != tt.value) {
				t.Errorf("got code=%s field=%v value=%q, want %s %q %q (%s)", e.Code, e.Context["field"], e.Value, tt.code, tt.field, tt.value, e.Message)
			}
			if !strings.Contains(e.Message, tt.msg) || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("message %q / hint %q lack %q / %q", e.Message, e.Hint, tt.msg, tt.hint)
			}
			for _, ex := range e.Examples {
				if _, err := ParseJSON("example", []byte("["+ex+"]")); err != nil {
					t.Errorf("example %s does not parse: %v", ex, err)
				}
			}
		})
	}
}

func TestFormatWritesTheNameAsAComment(t *testing.T) {
	txn := model.Transaction{Date: model.NewDate(2024, 4, 1), Action: model.Buy, Ticker: "VOD.L", Quantity: dec("1"),
		Price: gbp("2"), ISIN: "GB00BH4HKS39", Name: "Vodafone\nGroup # plc"}
	want := "2024-04-01 BUY VOD.L 1 @ 2 GBP ISIN GB00BH4HKS39 # Vodafone Group # plc\n"
	if got := Format(txn); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	back, err := Parse("", []byte(want))
	if err != nil || back[0].Name != "" || back[0].ISIN != "GB00BH4HKS39" {
		t.Errorf("read back %+v, %v", back, err)
	}
}

// A trade's price or total written without a currency is read as GBP and marked, so that the
// engine can tell it from pounds written as such (a sale with no currency of dollar shares).
func TestTradeWithoutCurrencyIsMarked(t *testing.T) {
	tests := []struct {
		name, line string
		json       bool
		want       bool
	}{
		{"price_without_currency", "2024-01-01 BUY A 1 @ 2", false, true},
		{"price_without_currency_with_fees", "2024-01-01 SELL A 1 @ 2 FEES 1 USD", false, true},
		{"price_in_gbp", "2024-01-01 BUY A 1 @ 2 GBP", false, false},
		{"price_in_pence", "2024-01-01 BUY A 1 @ 2 GBX", false, false},
		{"price_in_dollars", "2024-01-01 BUY A 1 @ 2 USD", false, false},
		{"total_without_currency", "2024-01-01 BUY A 1 TOTAL 2", false, true},
		{"total_in_gbp", "2024-01-01 BUY A 1 TOTAL 2 GBP", false, false},
		{"json_plain_string", `[{"date":"2024-01-01","action":"BUY","ticker":"A","quantity":"1","price":"2"}]`, true, true},
		{"json_object_in_gbp", `[{"date":"2024-01-01","action":"BUY","ticker":"A","quantity":"1","price":{"amount":"2","currency":"GBP"}}]`, true, false},
		{"json_total_plain", `[{"date":"2024-01-01","action":"SELL","ticker":"A","quantity":"1","total":"2"}]`, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var txns []model.Transaction
			var err error
			if tc.json {
				txns, err = ParseJSON("t.json", []byte(tc.line))
			} else {
				txns, err = Parse("t.cgt", []byte(tc.line+"\n"))
			}
			if err != nil {
				t.Fatal(err)
			}
			if txns[0].NoCurrency != tc.want {
				t.Errorf("NoCurrency = %v, want %v", txns[0].NoCurrency, tc.want)
			}
		})
	}
}
