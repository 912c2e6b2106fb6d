package mcp

import "strings"

// instructions is what the client gives the model about this server before any tool is used.
func instructions(roots *Roots) string {
	var b strings.Builder
	b.WriteString(`cgt computes UK Capital Gains Tax on shares and funds the way HMRC requires: each disposal is matched with same-day acquisitions, then acquisitions in the following 30 days ("bed and breakfast"), then the Section 104 pool at average cost; results are given per tax year with the Self Assessment (SA108) figures.

Results: every tool answers in compact records by default, one line per record: ENTITY|KIND|PERIOD|DATE|key=value|...|src=FILE:LINE (the ledger line to cite). Lines starting warning| must be passed on to the user; truncated| says how many records were left out and which arguments narrow the result; the last line, more|, names the arguments that give more (more|detail=disposals or full). calculate_report gives the tax-year totals by default (detail "summary"); {"detail":"disposals"} adds one row per disposal and {"detail":"full"} the matches, pools and holdings. Every tool takes output ("compact", the default; "schema" for a header line then rows, "records" for JSON Lines, "json" for the envelope {ok, data, error, warnings}), fields (only these record fields, e.g. ["gains","losses"]; each tool's schema names its fields, "…" where there are more, and a name the result lacks is answered with those it has), max_records and max_chars (integers; max_chars defaults to 40000, and the result stops at a record boundary and says so); the ledger tools take ticker (one or a list) and from/to dates (YYYY-MM-DD), which pick the rows shown while the calculation reads the whole ledger. A failure is error|CODE|message|hint=...|example={JSON arguments}: correct the call and try again.

Conventions:
- A tax year runs 6 April to 5 April and is named by the year it starts: year 2024 means 2024/25 (6 April 2024 to 5 April 2025).
- All money in results is GBP (pounds sterling), as strings with exactly 2 decimals, e.g. "1234.50". Foreign-currency trades are converted at HMRC's monthly exchange rate for the trade's month (get the rate itself with the exchange-rate tool).
- Ledgers are text, one transaction per line: DATE ACTION TICKER QUANTITY @ PRICE [CURRENCY] [FEES AMOUNT [CURRENCY]], e.g. "2024-04-01 BUY AAPL 100 @ 150.00 USD FEES 5.00 USD" or "2024-06-20 SELL AAPL 50 @ 170.25 USD". Dates are YYYY-MM-DD; amounts are plain decimals with a dot and no thousands separators or currency symbols; the currency is an ISO 4217 code written after the amount, and an amount without one is GBP. Other actions: DIVIDEND, ACCUMULATION, CAPRETURN, SPLIT, UNSPLIT. The resource cgt://docs/dsl-syntax has the full syntax; cgt://docs/tax-rules explains the rules applied.
- Pass a ledger inline in cgt_content (the text, or a JSON array as text) or as a JSON array of transaction objects in transactions.
`)
	b.WriteString(fileAccessNote(roots))
	return b.String()
}

func fileAccessNote(roots *Roots) string {
	if len(roots.dirs) == 0 {
		return "- This server reads no files: a path or rates argument is refused (permission_denied). Pass the ledger in cgt_content instead.\n"
	}
	return "- A path argument may name ledger files, and a rates argument HMRC's monthly exchange-rate XML files or directories of them, inside " + strings.Join(roots.dirs, ", ") +
		" (relative paths are taken from there); any other path is refused (permission_denied). The ledgers, broker exports and rate files found there are listed as resources (file: URIs, named by their path to pass in path).\n"
}
